import Foundation
import PatchbayConfig
import PatchbayHost
import PatchbayIsolation
import PatchbayLoader

/// The plugin libraries `swift build` put beside this test binary.
enum BuiltPlugins {
  /// The build's products folder: where the test binary itself lives.
  static let directory: String = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
  }()

  /// `lib<name>.so` in the products folder; fails clearly when it was not built.
  static func path(_ name: String) throws -> String {
    let path = "\(self.directory)/lib\(name).so"
    guard FileManager.default.fileExists(atPath: path) else {
      throw BuildMissing(
        description: "\(path) does not exist: build every product first (swift build, or make test)"
      )
    }
    return path
  }

  /// Copies `lib<name>.so` to `destination`, with what a Swift plugin needs beside it: a link
  /// to the build's `libPatchbaySDK.so` in the destination's folder.
  static func copy(_ name: String, to destination: String) throws {
    try FileManager.default.copyItem(atPath: try self.path(name), toPath: destination)
    try self.linkSDK(into: URL(fileURLWithPath: destination).deletingLastPathComponent())
  }

  /// Links the build's `libPatchbaySDK.so` into `folder`, unless one is there.
  static func linkSDK(into folder: URL) throws {
    let sdk = folder.appendingPathComponent("libPatchbaySDK.so").path
    if !FileManager.default.fileExists(atPath: sdk) {
      try FileManager.default.createSymbolicLink(
        atPath: sdk, withDestinationPath: "\(self.directory)/libPatchbaySDK.so")
    }
  }

  /// A loader of the products folder. With `PATCHBAY_ISOLATE` set (`make test` runs the
  /// plugin tests again with `all`), the plugins it names run in processes of their own.
  static var loader: PluginLoader {
    var loader = PluginLoader(searchPaths: [self.directory])
    loader.isolated = IsolationOptions.fromEnvironment
    loader.isolator = ProcessIsolator(options: IsolationOptions())
    return loader
  }

  /// A copy of the misbehaving fixture named `<mode>.so`, which picks its misbehaviour.
  static func fixture(_ mode: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-fixtures-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent("\(mode).so")
    try FileManager.default.copyItem(
      atPath: try self.path("TestFixtureMisbehaving"), toPath: copy.path)
    return copy.path
  }

  struct BuildMissing: Error, CustomStringConvertible {
    let description: String
  }
}

/// An app whose root, `key`, is feature `id` of the misbehaving fixture in `mode` (see
/// Plugins/Fixtures/Misbehaving); `tables` are appended to its config (`[limits]` …).
func fixtureApp(
  _ mode: String, id: String, key: String = "fixture", tables: String = ""
) throws -> AppRuntime {
  try pluginApp(try BuiltPlugins.fixture(mode), id: id, key: key, tables: tables)
}

/// An app of one plugin `file`, whose root `key` is its feature `id`; `tables` are appended
/// to its config. `isolated`: the plugin runs in a process of its own.
func pluginApp(
  _ file: String, id: String, key: String = "fixture", tables: String = "",
  isolated: Bool = false
) throws -> AppRuntime {
  let config = try AppConfig(
    parsing: AppConfig.oneFeature(
      id, of: file, key: key, plugins: isolated ? ["isolate = [\"all\"]"] : [], tables: tables),
    file: "fixture.toml")
  let loader = isolated ? config.loader() : BuiltPlugins.loader
  return try AppRuntime(
    config: config, registry: try config.loadPlugins(with: loader), loader: loader)
}

/// The message of the error `body` throws, or a note that it threw none.
/// The reason of the ``AppError`` `body` throws; nil when it throws nothing, or another error.
func refusal(_ body: () throws -> Void) -> AppError.Reason? {
  do {
    try body()
    return nil
  } catch {
    return (error as? AppError)?.reason
  }
}

func errorMessage(_ body: () throws -> Void) -> String {
  do {
    try body()
    return "(no error)"
  } catch {
    return "\(error)"
  }
}
