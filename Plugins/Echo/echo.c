/*
 * Echo — a Patchbay plugin written in plain C, against patchbay.h only.
 *
 * One feature, dev.patchbay.echo: it keeps the last message it was told and how many it has
 * heard. Action: say(text: "…"). State: {message: string, count: int}.
 */
#include <patchbay.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct echo {
  const pb_host *host;
  char *message;
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

/* State: {message: string, count: int}. */
static int decode_state(echo *self, const uint8_t *bytes, size_t length, char *why, size_t size) {
  pb_reader in = {bytes, length, 0, NULL};
  uint32_t fields;
  if (pb_read_record(&in, &fields)) goto malformed;
  for (uint32_t i = 0; i < fields; i++) {
    const char *name;
    size_t name_length;
    if (pb_read_name(&in, &name, &name_length)) goto malformed;
    if (pb_name_equals(name, name_length, "message")) {
      const char *text;
      size_t text_length;
      if (pb_read_string(&in, &text, &text_length)) goto malformed;
      free(self->message);
      self->message = copy(text, text_length);
    } else if (pb_name_equals(name, name_length, "count")) {
      if (pb_read_int(&in, &self->count)) goto malformed;
    } else if (pb_skip_value(&in)) {
      goto malformed;
    }
  }
  if (in.offset != length) {
    in.error = "unexpected bytes after the state";
    goto malformed;
  }
  return 0;
malformed:
  snprintf(why, size, "dev.patchbay.echo: cannot restore state: byte %zu: %s. "
           "Pass a snapshot made by this feature.", in.offset, in.error ? in.error : "malformed");
  return -1;
}

static void *echo_create(const pb_feature_desc *feature, const pb_host *host,
                         const uint8_t *state, size_t length) {
  (void)feature;
  echo *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  self->message = copy("", 0);
  if (state) {
    char why[256];
    if (decode_state(self, state, length, why, sizeof why)) {
      report(host, why);
      free(self->message);
      free(self);
      return NULL;
    }
  }
  return self;
}

static void echo_destroy(void *instance) {
  echo *self = instance;
  free(self->message);
  free(self);
}

/* Action: say(text: string). */
static pb_status echo_reduce(void *instance, const uint8_t *action, size_t length) {
  echo *self = instance;
  pb_reader in = {action, length, 0, NULL};
  const char *name, *label, *text;
  size_t name_length, label_length, text_length;
  uint32_t fields;
  char why[256];
  if (pb_read_case(&in, &name, &name_length, &fields)) goto malformed;
  if (!pb_name_equals(name, name_length, "say") || fields != 1) {
    snprintf(why, sizeof why, "dev.patchbay.echo: unknown action '%.*s'. Send say(text: \"…\").",
             (int)name_length, name);
    report(self->host, why);
    return PB_ERR_DECODE;
  }
  if (pb_read_name(&in, &label, &label_length) || !pb_name_equals(label, label_length, "text") ||
      pb_read_string(&in, &text, &text_length))
    goto malformed;
  char *message = copy(text, text_length);
  if (!message) return PB_ERR_FAILED;
  free(self->message);
  self->message = message;
  self->count += 1;
  return PB_OK;
malformed:
  snprintf(why, sizeof why, "dev.patchbay.echo: cannot decode action: byte %zu: %s. "
           "Send say(text: \"…\").", in.offset, in.error ? in.error : "expected say(text:)");
  report(self->host, why);
  return PB_ERR_DECODE;
}

static pb_status echo_snapshot(void *instance, const pb_writer *out) {
  echo *self = instance;
  return pb_write_record(out, 2) || pb_write_name(out, "message") ||
                 pb_write_string(out, self->message, strlen(self->message)) ||
                 pb_write_name(out, "count") || pb_write_int(out, self->count)
             ? PB_ERR_FAILED
             : PB_OK;
}

static pb_status echo_render(void *instance, const pb_writer *out) {
  echo *self = instance;
  char line[64];
  int length = snprintf(line, sizeof line, "Heard %lld message(s). Last:\n", (long long)self->count);
  if (write_all(out, line, (size_t)length)) return PB_ERR_FAILED;
  return write_all(out, self->message, strlen(self->message)) ? PB_ERR_FAILED : PB_OK;
}

/* Text form: say(text: "…") with \" \\ \n \t escapes. */
static pb_status echo_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                   const char *text, size_t length, const pb_writer *out) {
  (void)feature;
  static const char prefix[] = "say(text: \"";
  size_t start = 0;
  while (start < length && text[start] == ' ') start++;
  if (length - start < sizeof prefix - 1 || memcmp(text + start, prefix, sizeof prefix - 1)) {
    report(host, "dev.patchbay.echo: expected say(text: \"…\")");
    return PB_ERR_DECODE;
  }
  char *message = malloc(length + 1);
  if (!message) return PB_ERR_FAILED;
  size_t used = 0, i = start + sizeof prefix - 1;
  for (; i < length && text[i] != '"'; i++) {
    char c = text[i];
    if (c == '\\' && i + 1 < length) {
      c = text[++i];
      c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
    }
    message[used++] = c;
  }
  size_t end = i + 1;
  while (end < length && text[end] == ' ') end++;
  if (i >= length || end >= length || text[end] != ')') {
    free(message);
    report(host, "dev.patchbay.echo: the text must end with \")");
    return PB_ERR_DECODE;
  }
  pb_status status = pb_write_case(out, "say", 1) || pb_write_name(out, "text") ||
                             pb_write_string(out, message, used)
                         ? PB_ERR_FAILED
                         : PB_OK;
  free(message);
  return status;
}

static pb_status echo_format_action(const pb_feature_desc *feature, const pb_host *host,
                                    const uint8_t *action, size_t length, const pb_writer *out) {
  (void)feature;
  pb_reader in = {action, length, 0, NULL};
  const char *name, *label, *text;
  size_t name_length, label_length, text_length;
  uint32_t fields;
  if (pb_read_case(&in, &name, &name_length, &fields) || !pb_name_equals(name, name_length, "say") ||
      fields != 1 || pb_read_name(&in, &label, &label_length) ||
      pb_read_string(&in, &text, &text_length)) {
    report(host, "dev.patchbay.echo: not a say(text:) action");
    return PB_ERR_DECODE;
  }
  if (write_all(out, "say(text: \"", 11)) return PB_ERR_FAILED;
  for (size_t i = 0; i < text_length; i++) {
    char c = text[i];
    const char *escaped = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : NULL;
    if (escaped ? write_all(out, escaped, 2) : write_all(out, &c, 1)) return PB_ERR_FAILED;
  }
  return write_all(out, "\")", 2) ? PB_ERR_FAILED : PB_OK;
}

static void echo_cancel_effects(void *instance) { (void)instance; /* Echo starts no effects. */ }

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
    .migrate = NULL,
    .running_effects = NULL, /* Echo starts no effects. */
};

static const pb_feature_desc feature = {
    .struct_size = sizeof(pb_feature_desc),
    .id = "dev.patchbay.echo",
    .name = "Echo",
    .summary = "Repeats the last thing it was told.",
    .state_schema_version = 1,
    .action_count = 1,
    .actions = actions,
    .vtable = &vtable,
};

static const pb_feature_desc *const features[] = {&feature};

static const pb_plugin_desc plugin = {
    .magic = PATCHBAY_MAGIC,
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .struct_size = sizeof(pb_plugin_desc),
    .id = "dev.patchbay.echo-plugin",
    .name = "Echo",
    .version = "1.0.0",
    .feature_count = 1,
    .features = features,
};

__attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(
    pb_abi_version host_abi_major) {
  (void)host_abi_major; /* The host checks abi_major itself and says what is wrong. */
  return &plugin;
}
