import Foundation
import PatchbayHost
import PatchbayLoader
import Testing

/// A plugin written in C that needs a library of its own beside it (`$ORIGIN`), built here
/// with the system's C compiler: the loader resolves it from the plugin's folder, not from
/// the private folder the generation copy runs from.
@Suite struct CSiblingLibraryTests {
  /// The plugin: one feature whose view is what the sibling library's `greeting()` returns.
  static let plugin = """
    #include <patchbay.h>
    #include <string.h>
    const char *greeting(void);
    static int state;
    static void *create(const pb_feature_desc *f, const pb_host *h, const uint8_t *s, size_t n) {
      (void)f, (void)h, (void)s, (void)n; return &state;
    }
    static void destroy(void *i) { (void)i; }
    static pb_status reduce(void *i, const uint8_t *a, size_t n) { (void)i, (void)a, (void)n; return PB_OK; }
    static pb_status snapshot(void *i, const pb_writer *out) {
      (void)i; const uint8_t nil = 'n'; return out->write(out->context, &nil, 1) == 1 ? PB_OK : PB_ERR_FAILED;
    }
    static pb_status render(void *i, const pb_writer *out) {
      (void)i; const char *text = greeting(); size_t n = strlen(text);
      return out->write(out->context, text, n) == n ? PB_OK : PB_ERR_FAILED;
    }
    static pb_status parse(const pb_feature_desc *f, const pb_host *h, const char *t, size_t n, const pb_writer *o) {
      (void)f, (void)h, (void)t, (void)n, (void)o; return PB_ERR_DECODE;
    }
    static pb_status format(const pb_feature_desc *f, const pb_host *h, const uint8_t *a, size_t n, const pb_writer *o) {
      (void)f, (void)h, (void)a, (void)n, (void)o; return PB_ERR_DECODE;
    }
    static void cancel(void *i) { (void)i; }
    static const pb_feature_vtable vtable = {sizeof(pb_feature_vtable), create, destroy, reduce,
      snapshot, render, parse, format, cancel, NULL, NULL};
    static const pb_feature_desc feature = {sizeof(pb_feature_desc), "dev.patchbay.greeter",
      "Greeter", NULL, 1, 0, NULL, &vtable, NULL};
    static const pb_feature_desc *const features[] = {&feature};
    static const pb_plugin_desc plugin = {PATCHBAY_MAGIC, PATCHBAY_ABI_MAJOR, PATCHBAY_ABI_MINOR,
      sizeof(pb_plugin_desc), "dev.patchbay.greeter-plugin", "Greeter", "1.0.0", 1, features, 0, NULL};
    __attribute__((visibility("default"))) const pb_plugin_desc *patchbay_plugin_entry(pb_abi_version v) {
      (void)v; return &plugin;
    }
    """

  /// Builds `lib<library>.so` (saying `text`) and `greeter.so` needing it, in a new folder.
  /// Each test names its library apart: the dynamic linker reuses a library already loaded
  /// under the name a plugin needs, and libraries are never unloaded.
  static func build(saying text: String, library: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-sibling-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "const char *greeting(void) { return \"\(text)\"; }\n"
      .write(to: folder.appendingPathComponent("greeting.c"), atomically: true, encoding: .utf8)
    try Self.plugin.write(
      to: folder.appendingPathComponent("greeter.c"), atomically: true, encoding: .utf8)
    let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../Sources/PatchbayABI/include").standardized.path
    let path = { (name: String) in folder.appendingPathComponent(name).path }
    try Self.compile(["-shared", "-fPIC", "-o", path("lib\(library).so"), path("greeting.c")])
    try Self.compile([
      "-shared", "-fPIC", "-I", include, "-o", path("greeter.so"), path("greeter.c"),
      "-L", folder.path, "-l\(library)", "-Wl,-rpath,$ORIGIN",
    ])
    return folder
  }

  /// Runs `cc` (posix_spawn and waitpid: a fraction of a second, no run loop).
  static func compile(_ arguments: [String]) throws {
    var argv: [UnsafeMutablePointer<CChar>?] = (["cc"] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    #expect(posix_spawnp(&pid, "cc", nil, nil, &argv, environ) == 0)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    #expect(status == 0, "cc \(arguments.joined(separator: " ")) failed")
  }

  @Test func theSiblingComesFromThePluginsFolder() throws {
    let folder = try Self.build(saying: "hello from beside the plugin", library: "greeting")
    defer { try? FileManager.default.removeItem(at: folder) }
    let loaded = try PluginLoader().load(folder.appendingPathComponent("greeter.so").path)
    let greeter = try FeatureHandle(feature: loaded.features[0])
    #expect(try greeter.render() == "hello from beside the plugin")
  }

  @Test func withoutItsSiblingThePluginIsRefusedNamingIt() throws {
    let folder = try Self.build(saying: "unused", library: "greetingmissing")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.removeItem(at: folder.appendingPathComponent("libgreetingmissing.so"))
    let message = errorMessage {
      _ = try PluginLoader().load(folder.appendingPathComponent("greeter.so").path)
    }
    #expect(
      message.contains("greeter.so: needs libgreetingmissing.so, which is neither in its folder"))
  }
}
