import Foundation
import Patchbay

/// WebAssembly builds of plugins, made once per test process into a folder of their own: the
/// bundled C plugins (`Plugins/NAME`) and the fixtures beside this file (`Fixtures/NAME.c`) by
/// `Sources/PatchbayWasmGuest/wasm-cc`, the bundled Embedded Swift ones (`Plugins/NAME/wasm`)
/// and the Swift fixtures (`Fixtures/NAME.swift`) by `wasm-swiftc`, with this build's macros.
enum WasmFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("patchbay-wasm-\(getpid())")
  /// One build each: its path once made. A lock each, so that two fixtures build at once (an
  /// Embedded Swift one takes up to a minute on a cold cache) and a test waits only for its
  /// own, not for every build queued before it.
  private static let builds = LockedValue<[String: LockedValue<String?>]>([:])

  /// The `.wasm` of `Plugins/<plugin>/<source>`, built on first use.
  static func bundled(_ plugin: String, source: String) throws -> String {
    try self.build(plugin, from: root.appendingPathComponent("Plugins/\(plugin)/\(source)").path)
  }

  /// The `.wasm` of `Plugins/<plugin>/wasm/<plugin>.swift` (Embedded Swift), built on first use.
  static func swift(_ plugin: String) throws -> String {
    let source = root.appendingPathComponent("Plugins/\(plugin)/wasm/\(plugin).swift").path
    return try self.build(plugin + "Swift", from: source, with: "wasm-swiftc")
  }

  /// The `.wasm` of `Fixtures/<Name>.swift` here (Embedded Swift), built on first use.
  static func swiftFixture(_ name: String) throws -> String {
    let source = root.appendingPathComponent("Tests/PatchbayHostTests/Wasm/Fixtures/\(name).swift")
    return try self.build(name, from: source.path, with: "wasm-swiftc")
  }

  /// The `.wasm` of `Fixtures/<name>.c` here (named `<Name>.wasm`), built on first use.
  static func fixture(_ name: String) throws -> String {
    let source = root.appendingPathComponent("Tests/PatchbayHostTests/Wasm/Fixtures/\(name).c")
    return try self.build(name.prefix(1).uppercased() + name.dropFirst(), from: source.path)
  }

  private static func build(_ name: String, from source: String, with tool: String = "wasm-cc")
    throws -> String
  {
    let build = self.builds.withValue { builds in
      if let build = builds[name] { return build }
      let build = LockedValue<String?>(nil)
      builds[name] = build
      return build
    }
    return try build.withValue { built in
      if let path = built { return path }
      try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
      let output = self.folder.appendingPathComponent("\(name).wasm").path
      let compile = Process()
      compile.executableURL = root.appendingPathComponent("Sources/PatchbayWasmGuest/\(tool)")
      compile.arguments = ["-o", output, source]
      // The macros of the build this test runs in (debug, or TSan's scratch folder).
      compile.environment = ProcessInfo.processInfo.environment.merging(
        ["PATCHBAY_MACROS": BuiltPlugins.directory + "/PatchbayMacros-tool"]) { $1 }
      let errors = Pipe()
      compile.standardError = errors
      try compile.run()
      let said = errors.fileHandleForReading.readDataToEndOfFile()
      compile.waitUntilExit()
      guard compile.terminationStatus == 0 else {
        throw BuiltPlugins.BuildMissing(
          description: "\(tool) could not build \(source): "
            + String(decoding: said, as: UTF8.self))
      }
      built = output
      return output
    }
  }
}
