import Foundation
import PatchbayConfig
import PatchbayDigest
import PatchbayHost
import Testing

/// A plugin `load` names by a relative path is found from the config's folder, whatever the
/// working directory, as docs/CONFIG.md says; its pin is still keyed as `load` writes it.
@Suite struct LoadPathTests {
  @Test func aRelativeLoadPathIsFoundFromTheConfigsFolder() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-load-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("plugins"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let echo = folder.appendingPathComponent("plugins/libEcho.so").path
    try FileManager.default.copyItem(atPath: try BuiltPlugins.path("Echo"), toPath: echo)
    #expect(FileManager.default.currentDirectoryPath != folder.path)
    func app(pin: String) throws -> AppRuntime {
      try makeApp(
        toml: """
          [app]
          root = "echo"
          [plugins]
          load = ["plugins/libEcho.so"]
          [sha256]
          "plugins/libEcho.so" = "\(pin)"
          [[feature]]
          key = "echo"
          id = "dev.patchbay.echo"
          """, file: folder.appendingPathComponent("app.toml").path)
    }
    let loaded = try app(pin: try SHA256.hex(ofFile: echo))
    #expect(loaded.registry["dev.patchbay.echo"]?.plugin.path == echo)
    try loaded.send("echo", "say(text: \"found\")")
    #expect(try loaded.state("echo")[field: "message"] == .string("found"))
    #expect {
      _ = try app(pin: String(repeating: "0", count: 64))
    } throws: { "\($0)".contains("app.toml:4: plugins.load[0]: \(echo): has SHA-256") }
  }
}
