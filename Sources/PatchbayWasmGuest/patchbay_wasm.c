/*
 * patchbay_wasm.c — the guest half of a Patchbay plugin built as WebAssembly.
 *
 * A plugin's C (sdk.h, patchbay.h) compiles for wasm32 unchanged; this file, linked beside it,
 * is all that differs. Inside the module the plugin keeps the C ABI (pb_host, pb_writer and the
 * vtable are ordinary function pointers there). Across the module's edge there are only
 * integers, so the host never calls through the module's function table and the module never
 * holds a host pointer:
 *
 *   imports, module "patchbay"   write(sink, bytes, length) -> taken     a pb_writer's write
 *                                send(action, length)                    host->send
 *                                error(text, length)                     host->error
 *                                log(level, text, length)                host->log
 *                                send_after(milliseconds, action, length) a timer (Swift SDK)
 *                   and for each service the plugin's source names (services/, below):
 *                                clock_now() -> ns                       "patchbay.clock/1"
 *                                midi_listen(channels)                   "patchbay.midi/1"
 *                                navigate(kind, node, length, state,     "patchbay.navigation/1"
 *                                         length, has_state)
 *                                shared_publish, shared_subscribe,       "patchbay.shared/1"
 *                                shared_hold, shared_write
 *                                resolve(provider, length, name, length, "patchbay.functions/1"
 *                                        signature, length) -> index
 *   exports                      patchbay_plugin_entry                   the plugin's own
 *                                patchbay_wasm_input(size) -> bytes      where the host puts
 *                                                                        a call's bytes
 *                                patchbay_wasm_* (below)                 one per vtable call
 *
 * One module instance holds one feature instance: its memory is that instance's alone, and a
 * trap (out of fuel, out of bounds) ends only it. The host makes another instance, without
 * creating a feature in it, for the calls that need none (parse_action, format_action,
 * migrate).
 *
 * Build with wasm-cc (beside this file; the Makefile's wasm-plugins target uses it), which
 * compiles the plugin, the value encoding's C and this file for wasm32-wasi with wasi-libc,
 * and links services/ as a library:
 *
 *   Sources/PatchbayWasmGuest/wasm-cc -o Echo.wasm Plugins/Echo/echo.c
 */
#include <patchbay.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PBW_IMPORT(name) __attribute__((import_module("patchbay"), import_name(#name)))
#define PBW_EXPORT(name) __attribute__((export_name(#name)))

/* The version of this edge (imports and exports), which the host checks. */
#define PBW_EDGE_VERSION 1u

/* The plugin's entry point (patchbay/plugin.h), in the plugin's own file. */
const pb_plugin_desc *patchbay_plugin_entry(pb_abi_version host_abi_major);

PBW_IMPORT(write) uint32_t pbw_host_write(uint32_t sink, const void *bytes, uint32_t length);
PBW_IMPORT(send) void pbw_host_send(const uint8_t *action, uint32_t length);
PBW_IMPORT(error) void pbw_host_error(const char *text, uint32_t length);
PBW_IMPORT(log) void pbw_host_log(uint32_t level, const char *text, uint32_t length);
static size_t pbw_write(void *context, const void *bytes, size_t length) {
  return pbw_host_write((uint32_t)(uintptr_t)context, bytes, (uint32_t)length);
}

/* The services, each in a file of its own (services/): wasm-cc links that folder as a
 * library, so a service's half is in the module, with its imports, only when the plugin's
 * source names its id (PB_SERVICE_MIDI is that file's pb_wasm_service_midi for wasm32,
 * patchbay/host.h). These weak references do not link it; one not linked is NULL here, and the
 * plugin hears NULL, as from a host that does not offer the service. */
extern const pb_clock_service pbw_clock __attribute__((weak));
extern const pb_midi_service pbw_midi __attribute__((weak));
extern const pb_navigation_service pbw_navigation __attribute__((weak));
extern const pb_functions_service pbw_functions __attribute__((weak));
extern const pb_shared_service pbw_shared __attribute__((weak));

static const void *pbw_get_service(const pb_host *host, const char *service_id) {
  (void)host;
  if (!service_id) return NULL;
  if (strcmp(service_id, "patchbay.clock/1") == 0) return &pbw_clock;
  if (strcmp(service_id, "patchbay.midi/1") == 0) return &pbw_midi;
  if (strcmp(service_id, "patchbay.navigation/1") == 0) return &pbw_navigation;
  if (strcmp(service_id, "patchbay.functions/1") == 0) return &pbw_functions;
  if (strcmp(service_id, "patchbay.shared/1") == 0) return &pbw_shared;
  return NULL;
}

static void pbw_send(const pb_host *host, const uint8_t *action, size_t length) {
  (void)host;
  pbw_host_send(action, (uint32_t)length);
}

static void pbw_error(const pb_host *host, const char *text) {
  (void)host;
  pbw_host_error(text, (uint32_t)strlen(text));
}

static void pbw_log(const pb_host *host, pb_log_level level, const char *text) {
  (void)host;
  pbw_host_log((uint32_t)level, text, (uint32_t)strlen(text));
}

static const pb_host pbw_host = {
    .struct_size = sizeof(pb_host),
    .abi_major = PATCHBAY_ABI_MAJOR,
    .abi_minor = PATCHBAY_ABI_MINOR,
    .host_data = NULL,
    .get_service = pbw_get_service,
    .send = pbw_send,
    .error = pbw_error,
    .log = pbw_log,
};

/* The feature this module instance holds, and its instance (NULL before create). */
static const pb_feature_desc *pbw_feature;
static void *pbw_instance;

static const pb_feature_desc *pbw_feature_at(uint32_t index) {
  const pb_plugin_desc *plugin = patchbay_plugin_entry(PATCHBAY_ABI_MAJOR);
  if (!plugin || index >= plugin->feature_count) return NULL;
  return plugin->features[index];
}

/* Whether `vtable` is long enough to hold `field`. */
#define PBW_HAS(vtable, field)                                                                 \
  ((vtable)->struct_size >= offsetof(pb_feature_vtable, field) + sizeof((vtable)->field) &&   \
   (vtable)->field != NULL)

PBW_EXPORT(patchbay_wasm_edge) uint32_t pbw_edge(void) { return PBW_EDGE_VERSION; }

/* Room for the host's bytes (an action, a state, a text), at least `size` of them: kept and
 * reused from call to call (the host writes the bytes of each call there before it), grown
 * when a call needs more. NULL when there is no memory for it. */
static uint8_t *pbw_input_bytes;
static uint32_t pbw_input_size;

PBW_EXPORT(patchbay_wasm_input) uint8_t *pbw_input(uint32_t size) {
  if (size <= pbw_input_size && pbw_input_bytes) return pbw_input_bytes;
  uint32_t grown = size < 256 ? 256 : size;
  uint8_t *bytes = realloc(pbw_input_bytes, grown);
  if (!bytes) return NULL;
  pbw_input_bytes = bytes;
  pbw_input_size = grown;
  return bytes;
}

PBW_EXPORT(patchbay_wasm_input_size) uint32_t pbw_input_capacity(void) { return pbw_input_size; }

/* 1: the instance of feature `index` exists; 0: create refused (its reason went to error). */
PBW_EXPORT(patchbay_wasm_create)
uint32_t pbw_create(uint32_t index, const uint8_t *state, uint32_t length, uint32_t has_state) {
  const pb_feature_desc *feature = pbw_feature_at(index);
  if (!feature || pbw_instance) return 0;
  pbw_feature = feature;
  pbw_instance = feature->vtable->create(feature, &pbw_host, has_state ? state : NULL, length);
  return pbw_instance != NULL;
}

PBW_EXPORT(patchbay_wasm_destroy) void pbw_destroy(void) {
  if (!pbw_instance) return;
  pbw_feature->vtable->destroy(pbw_instance);
  pbw_instance = NULL;
}

PBW_EXPORT(patchbay_wasm_reduce) uint32_t pbw_reduce(const uint8_t *action, uint32_t length) {
  return pbw_feature->vtable->reduce(pbw_instance, action, length);
}

PBW_EXPORT(patchbay_wasm_snapshot) uint32_t pbw_snapshot(uint32_t sink) {
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return pbw_feature->vtable->snapshot(pbw_instance, &out);
}

PBW_EXPORT(patchbay_wasm_render) uint32_t pbw_render(uint32_t sink) {
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return pbw_feature->vtable->render(pbw_instance, &out);
}

PBW_EXPORT(patchbay_wasm_changed_fields) uint32_t pbw_changed_fields(uint32_t sink) {
  const pb_feature_vtable *vtable = pbw_feature->vtable;
  if (!PBW_HAS(vtable, changed_fields)) return PB_ERR_UNSUPPORTED;
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return vtable->changed_fields(pbw_instance, &out);
}

PBW_EXPORT(patchbay_wasm_cancel_effects) void pbw_cancel_effects(void) {
  pbw_feature->vtable->cancel_effects(pbw_instance);
}

PBW_EXPORT(patchbay_wasm_running_effects) uint32_t pbw_running_effects(void) {
  const pb_feature_vtable *vtable = pbw_feature->vtable;
  return PBW_HAS(vtable, running_effects) ? vtable->running_effects(pbw_instance) : 0;
}

PBW_EXPORT(patchbay_wasm_parse_action)
uint32_t pbw_parse_action(uint32_t index, const char *text, uint32_t length, uint32_t sink) {
  const pb_feature_desc *feature = pbw_feature_at(index);
  if (!feature) return PB_ERR_INVALID;
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return feature->vtable->parse_action(feature, &pbw_host, text, length, &out);
}

PBW_EXPORT(patchbay_wasm_format_action)
uint32_t pbw_format_action(uint32_t index, const uint8_t *action, uint32_t length, uint32_t sink) {
  const pb_feature_desc *feature = pbw_feature_at(index);
  if (!feature) return PB_ERR_INVALID;
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return feature->vtable->format_action(feature, &pbw_host, action, length, &out);
}

PBW_EXPORT(patchbay_wasm_migrate)
uint32_t pbw_migrate(uint32_t index, uint32_t from_schema, const uint8_t *state, uint32_t length,
                     uint32_t sink) {
  const pb_feature_desc *feature = pbw_feature_at(index);
  if (!feature) return PB_ERR_INVALID;
  if (!PBW_HAS(feature->vtable, migrate)) return PB_ERR_UNSUPPORTED;
  const pb_writer out = {sizeof(pb_writer), (void *)(uintptr_t)sink, pbw_write};
  return feature->vtable->migrate(feature, &pbw_host, from_schema, state, length, &out);
}
