import Foundation
import PatchbayConfig
import PatchbayDigest
import PatchbayHost
import PatchbayLoader
import Testing

/// SHA-256, and plugins pinned to theirs in host-config's `[sha256]`.
@Suite struct PinTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256OfTheStandardsVectors(_ message: String, _ digest: String) {
    #expect(SHA256.hex(of: Array(message.utf8)) == digest)
  }

  @Test func sha256OfAMillionAsInPieces() {
    var hash = SHA256()
    for piece in [1, 63, 64, 65, 999_807] { hash.update([UInt8](repeating: 0x61, count: piece)) }
    #expect(hash.finish() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func aFilesHashIsItsBytesHash() throws {
    let path = try BuiltPlugins.path("Echo")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try SHA256.hex(ofFile: path) == SHA256.hex(of: bytes))
  }

  /// An app config loading Echo from the build folder, pinned to `hash`.
  func config(pinning hash: String, key: String = "Echo") -> String {
    AppConfig.oneFeature(
      "dev.patchbay.echo", of: "Echo", key: "echo",
      plugins: ["search-paths = [\(AppConfig.quoted(BuiltPlugins.directory))]"],
      tables: "[sha256]\n\(key) = \(AppConfig.quoted(hash))")
  }

  @Test func aPinnedPluginWithItsHashLoads() throws {
    let hash = try SHA256.hex(ofFile: try BuiltPlugins.path("Echo"))
    let config = try AppConfig(parsing: self.config(pinning: hash.uppercased()), file: "app.toml")
    #expect(config.plugins.first?.sha256 == hash)
    let registry = try config.loadPlugins(with: config.loader())
    #expect(registry.featureIDs.contains("dev.patchbay.echo"))
  }

  @Test func aPinnedPluginWhoseBytesDifferIsRefusedBeforeItRuns() throws {
    let wrong = String(repeating: "0", count: 64)
    let config = try AppConfig(parsing: self.config(pinning: wrong), file: "app.toml")
    let error = #expect(throws: ConfigErrors.self) {
      try config.loadPlugins(with: config.loader())
    }
    let actual = try SHA256.hex(ofFile: try BuiltPlugins.path("Echo"))
    #expect(
      error?.description.contains(
        "has SHA-256 \(actual), but host-config pins \(wrong): the file changed since it was pinned."
      ) == true)
    // A swap to the pinned file is refused the same way.
    #expect(throws: PluginLoadError.self) {
      try config.loader().load("Echo")
    }
  }

  @Test func badPinsAreConfigErrorsWithTheirLine() throws {
    let short = #expect(throws: ConfigErrors.self) {
      try AppConfig(parsing: self.config(pinning: "abc123"), file: "app.toml")
    }
    #expect(short?.errors.first?.reason == .badPin("abc123"))
    #expect(short?.errors.first?.line == 10)  // the pin, in [sha256] after the feature
    let unloaded = #expect(throws: ConfigErrors.self) {
      try AppConfig(
        parsing: self.config(pinning: String(repeating: "a", count: 64), key: "Counter"),
        file: "app.toml")
    }
    #expect(unloaded?.errors.first?.reason == .pinsUnloadedPlugin("Counter"))
  }
}
