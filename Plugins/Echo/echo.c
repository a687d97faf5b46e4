/*
 * Echo — a Patchbay plugin written in plain C, against patchbay.h only: the example to copy.
 *
 * One feature, dev.patchbay.echo: it keeps the last message it was told and how many it has
 * heard. Action: say(text: "…"). State: {message: string, count: int}.
 *
 * The rules it follows, as every C plugin should (patchbay/feature.h has them in full):
 * - every failure reports one line through host->error, naming the feature, what was wrong
 *   and what to send instead, and changes nothing;
 * - the action text is the SDK's grammar, through pb_parse_action_text and
 *   pb_format_value_text (strings, \u{…} escapes and control characters included);
 * - reduce decodes the whole action before it changes the state, so a bad action changes
 *   nothing; create checks restored state the same way;
 * - it starts no effects, so running_effects is NULL and cancel_effects does nothing.
 */
#include <patchbay.h>
#include <patchbay/sdk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECHO_ID "dev.patchbay.echo"
#define SEND_SAY "Send say(text: \"…\")."

typedef struct echo {
  const pb_host *host; /* valid until echo_destroy returns */
  char *message;       /* NUL-terminated copy; the state's string may hold NULs (kept whole) */
  size_t message_length;
  int64_t count;
} echo;


static char *copy(const char *text, size_t length) {
  char *result = malloc(length + 1);
  if (!result) return NULL;
  memcpy(result, text, length);
  result[length] = 0;
  return result;
}

/* say(text: string), read whole: the text is borrowed from `bytes`. 0, or -1 with `why`. */
static int decode_say(const uint8_t *bytes, size_t length, const char **text,
                      size_t *text_length, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *name, *label;
  size_t name_length, label_length;
  uint32_t fields;
  if (pb_read_case(&in, &name, &name_length, &fields)) goto malformed;
  if (!pb_name_equals(name, name_length, "say") || fields != 1) {
    snprintf(why, size, ECHO_ID ": unknown action '%.*s'. " SEND_SAY, (int)name_length, name);
    return -1;
  }
  if (pb_read_name(&in, &label, &label_length) || !pb_name_equals(label, label_length, "text") ||
      pb_read_string(&in, text, text_length))
    goto malformed;
  if (in.offset != length) {
    in.error = "unexpected bytes after the action";
    goto malformed;
  }
  return 0;
malformed:
  snprintf(why, size, ECHO_ID ": cannot decode action: byte %zu: %s. " SEND_SAY, in.offset,
           in.error ? in.error : "expected say(text:)");
  return -1;
}

/* {message: string, count: int}, read whole before anything changes, by field name
 * (pb_sdk_read_state): a field it lacks keeps its start value, one it does not know is skipped. */
static int decode_state(echo *self, const uint8_t *bytes, size_t length, char *why,
                        size_t size) {
  pb_sdk_string message = {"", 0};
  int64_t count = 0;
  const pb_sdk_state_field fields[] = {
      {"message", PB_SDK_STRING, &message},
      {"count", PB_SDK_INT, &count},
  };
  char reason[192];
  if (pb_sdk_read_state(bytes, length, fields, 2, reason, sizeof reason)) {
    return pb_sdk_restore_refused(ECHO_ID, reason, why, size);
  }
  char *kept = copy(message.utf8, message.length);
  if (!kept) {
    snprintf(why, size, ECHO_ID ": out of memory restoring a %zu-byte message", message.length);
    return -1;
  }
  free(self->message);
  self->message = kept;
  self->message_length = message.length;
  self->count = count;
  return 0;
}

/* [main-thread] */
static void *echo_create(const pb_feature_desc *feature, const pb_host *host,
                         const uint8_t *state, size_t length) {
  (void)feature;
  char why[256];
  echo *self = calloc(1, sizeof *self);
  if (self) self->message = copy("", 0);
  if (!self || !self->message) {
    pb_sdk_report(host, ECHO_ID ": out of memory creating an instance");
    free(self);
    return NULL;
  }
  self->host = host;
  if (state && decode_state(self, state, length, why, sizeof why)) {
    pb_sdk_report(host, why);
    free(self->message);
    free(self);
    return NULL;
  }
  return self;
}

/* [main-thread] */
static void echo_destroy(void *instance) {
  echo *self = instance;
  free(self->message);
  free(self);
}

/* [main-thread] say(text:): remembers the text and counts it. */
static pb_status echo_reduce(void *instance, const uint8_t *action, size_t length) {
  echo *self = instance;
  const char *text;
  size_t text_length;
  char why[256];
  if (decode_say(action, length, &text, &text_length, why, sizeof why)) {
    pb_sdk_report(self->host, why);
    return PB_ERR_DECODE;
  }
  char *message = copy(text, text_length);
  if (!message) {
    pb_sdk_report(self->host,
                  ECHO_ID ": out of memory keeping the message; the state is unchanged");
    return PB_ERR_FAILED;
  }
  free(self->message);
  self->message = message;
  self->message_length = text_length;
  self->count += 1;
  return PB_OK;
}

/* [main-thread] */
static pb_status echo_snapshot(void *instance, const pb_writer *out) {
  echo *self = instance;
  return pb_write_record(out, 2) || pb_write_name(out, "message") ||
                 pb_write_string(out, self->message, self->message_length) ||
                 pb_write_name(out, "count") || pb_write_int(out, self->count)
             ? PB_ERR_FAILED
             : PB_OK;
}

/* [main-thread] The view: plain text, the message's control characters written as escapes. */
static pb_status echo_render(void *instance, const pb_writer *out) {
  echo *self = instance;
  char line[64];
  int length = snprintf(line, sizeof line, "Heard %lld message(s). Last:\n", (long long)self->count);
  if (pb_sdk_write_all(out, line, (size_t)length)) return PB_ERR_FAILED;
  return pb_sdk_write_plain(out, self->message, self->message_length) ? PB_ERR_FAILED : PB_OK;
}

/* Is `bytes` a `say`? The test reduce makes: parse and format refuse what reduce would. */
static int check_say(const uint8_t *bytes, size_t length, char *why, size_t size) {
  const char *said;
  size_t said_length;
  return decode_say(bytes, length, &said, &said_length, why, size);
}

/* [thread-safe] The SDK's grammar, then the same check reduce makes: `shout(…)` is refused
 * here, with the line reduce would give. */
static pb_status echo_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                   const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_parse_action(ECHO_ID, host, text, length, out, check_say, SEND_SAY);
}

/* [thread-safe] */
static pb_status echo_format_action(const pb_feature_desc *feature, const pb_host *host,
                                    const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature;
  return pb_sdk_format_action(ECHO_ID, host, action, length, out, NULL);
}

/* [main-thread] Echo starts no effects: nothing to cancel. */
static void echo_cancel_effects(void *instance) { (void)instance; }

PB_SDK_ACTIONS(actions, PB_SDK_ACTION("say", "Remember a message", PB_SDK_FIELD("text", "string")));

static const pb_feature_vtable vtable = PB_SDK_VTABLE(echo); /* no migrate, no effects */

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = ECHO_ID,
    .name = "Echo",
    .summary = "Repeats the last thing it was told.",
    .state_schema_version = 1,
    .action_count = PB_SDK_COUNT(actions),
    .actions = actions,
    .vtable = &vtable,
    .processor = NULL, /* no sound */
};

/* The descriptor and `patchbay_plugin_entry` (patchbay/plugin.h), from patchbay/sdk.h. */
PB_SDK_PLUGIN("dev.patchbay.echo-plugin", "Echo", "1.1.0", &feature)
