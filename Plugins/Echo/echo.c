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

static void report(const pb_host *host, const char *message) {
  if (host && host->error) host->error(host, message);
}

static int write_all(const pb_writer *out, const void *bytes, size_t length) {
  return out->write(out->context, bytes, length) == length ? 0 : -1;
}

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

/* {message: string, count: int}, read whole before anything changes. */
static int decode_state(echo *self, const uint8_t *bytes, size_t length, char *why,
                        size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  const char *message = "";
  size_t message_length = 0;
  int64_t count = 0;
  uint32_t fields;
  if (pb_read_record(&in, &fields)) goto malformed;
  for (uint32_t i = 0; i < fields; i++) {
    const char *name;
    size_t name_length;
    if (pb_read_name(&in, &name, &name_length)) goto malformed;
    if (pb_name_equals(name, name_length, "message")) {
      if (pb_read_string(&in, &message, &message_length)) goto malformed;
    } else if (pb_name_equals(name, name_length, "count")) {
      if (pb_read_int(&in, &count)) goto malformed;
    } else if (pb_skip_value(&in)) { /* a field of a newer version: kept out, not an error */
      goto malformed;
    }
  }
  if (in.offset != length) {
    in.error = "unexpected bytes after the state";
    goto malformed;
  }
  char *kept = copy(message, message_length);
  if (!kept) {
    snprintf(why, size, ECHO_ID ": out of memory restoring a %zu-byte message", message_length);
    return -1;
  }
  free(self->message);
  self->message = kept;
  self->message_length = message_length;
  self->count = count;
  return 0;
malformed:
  snprintf(why, size, ECHO_ID ": cannot restore state: byte %zu: %s. "
           "Pass a snapshot made by this feature.", in.offset, in.error ? in.error : "malformed");
  return -1;
}

/* [main-thread] */
static void *echo_create(const pb_feature_desc *feature, const pb_host *host,
                         const uint8_t *state, size_t length) {
  (void)feature;
  char why[256];
  echo *self = calloc(1, sizeof *self);
  if (self) self->message = copy("", 0);
  if (!self || !self->message) {
    report(host, ECHO_ID ": out of memory creating an instance");
    free(self);
    return NULL;
  }
  self->host = host;
  if (state && decode_state(self, state, length, why, sizeof why)) {
    report(host, why);
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
    report(self->host, why);
    return PB_ERR_DECODE;
  }
  char *message = copy(text, text_length);
  if (!message) {
    report(self->host, ECHO_ID ": out of memory keeping the message; the state is unchanged");
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

/* [main-thread] The view: the host shows control characters in it as visible escapes. */
static pb_status echo_render(void *instance, const pb_writer *out) {
  echo *self = instance;
  char line[64];
  int length = snprintf(line, sizeof line, "Heard %lld message(s). Last:\n", (long long)self->count);
  if (write_all(out, line, (size_t)length)) return PB_ERR_FAILED;
  return write_all(out, self->message, self->message_length) ? PB_ERR_FAILED : PB_OK;
}

/* A growing buffer behind a pb_writer: an action's bytes before they go to the host. */
typedef struct growing_buffer {
  uint8_t *bytes;
  size_t length, capacity;
} growing_buffer;

static size_t growing_write(void *context, const void *bytes, size_t length) {
  growing_buffer *buffer = context;
  if (buffer->capacity - buffer->length < length) {
    size_t capacity = buffer->capacity ? buffer->capacity : 256;
    while (capacity - buffer->length < length) capacity *= 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (!grown) return 0; /* a short write: the writer is full */
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, bytes, length);
  buffer->length += length;
  return length;
}

/* [thread-safe] The SDK's grammar, then the same check reduce makes: `shout(…)` is refused
 * here, with the line reduce would give. */
static pb_status echo_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                   const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  growing_buffer parsed = {0};
  pb_writer into = {sizeof(pb_writer), &parsed, growing_write};
  const char *error = NULL, *said;
  size_t offset = 0, said_length;
  char why[256];
  pb_status status = PB_OK;
  if (pb_parse_action_text(text, length, &into, &error, &offset)) {
    snprintf(why, sizeof why, ECHO_ID ": byte %zu: %s. " SEND_SAY, offset,
             error ? error : "out of memory");
    status = PB_ERR_DECODE;
  } else if (decode_say(parsed.bytes, parsed.length, &said, &said_length, why, sizeof why)) {
    status = PB_ERR_DECODE;
  } else if (write_all(out, parsed.bytes, parsed.length)) {
    snprintf(why, sizeof why, ECHO_ID ": the host's writer is full");
    status = PB_ERR_FAILED;
  }
  if (status != PB_OK) report(host, why);
  free(parsed.bytes);
  return status;
}

/* [thread-safe] */
static pb_status echo_format_action(const pb_feature_desc *feature, const pb_host *host,
                                    const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature;
  if (pb_format_value_text(action, length, out)) {
    report(host, ECHO_ID ": cannot format the action: its bytes are not a value");
    return PB_ERR_DECODE;
  }
  return PB_OK;
}

/* [main-thread] Echo starts no effects: nothing to cancel. */
static void echo_cancel_effects(void *instance) { (void)instance; }

static const pb_field_desc text_field = {sizeof(pb_field_desc), "text", "string"};
static const pb_field_desc *const say_fields[] = {&text_field};
static const pb_action_desc say = {sizeof(pb_action_desc), "say", "Remember a message", 1,
                                   say_fields};
static const pb_action_desc *const actions[] = {&say};

static const pb_feature_vtable vtable = {
    .struct_size = sizeof(pb_feature_vtable),
    .create = echo_create,
    .destroy = echo_destroy,
    .reduce = echo_reduce,
    .snapshot = echo_snapshot,
    .render = echo_render,
    .parse_action = echo_parse_action,
    .format_action = echo_format_action,
    .cancel_effects = echo_cancel_effects,
    .migrate = NULL,         /* one schema so far */
    .running_effects = NULL, /* no effects */
};

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = ECHO_ID,
    .name = "Echo",
    .summary = "Repeats the last thing it was told.",
    .state_schema_version = 1,
    .action_count = 1,
    .actions = actions,
    .vtable = &vtable,
    .processor = NULL, /* no sound */
};

static const pb_feature_desc *const features[] = {&feature};

static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.echo-plugin",
    .name = "Echo",
    .version = "1.1.0",
    .feature_count = 1,
    .features = features,
};

/* [main-thread] Returns the descriptor whatever `host_abi_major` is: the host compares
 * `abi_major` itself and names both versions when they differ (patchbay/plugin.h). */
__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major;
  return &plugin;
}
