import Foundation
import PatchbayConfig
import Testing

/// Swift plugins link one `libPatchbaySDK.so`, found beside each plugin's original file; one
/// app runs one build of it. Each test is its own `patchbay` process, so no earlier load in the
/// test binary decides which SDK is running.
@Suite struct SharedSDKTests {
  /// A new folder, removed when the test ends.
  func folder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(UUID().uuidString)-\(name)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  func copy(_ file: String, into folder: URL, as name: String? = nil) throws -> String {
    let destination = folder.appendingPathComponent(name ?? file).path
    try FileManager.default.copyItem(atPath: "\(CLI.directory)/\(file)", toPath: destination)
    return destination
  }

  /// An app of the build's Counter and a Tuner loaded from `folder`.
  func app(tunerIn folder: URL) throws -> String {
    let config = folder.appendingPathComponent("app.toml").path
    try AppConfig.oneFeature(
      "dev.patchbay.counter", of: "\(CLI.directory)/libCounter.so", key: "counter",
      also: ["\(folder.path)/libTuner.so"]
    ).write(toFile: config, atomically: true, encoding: .utf8)
    return config
  }

  @Test func aSwiftPluginIsSmallAndNeedsTheSDKBesideIt() throws {
    let plugin = try FileManager.default.attributesOfItem(atPath: "\(CLI.directory)/libCounter.so")
    let size = try #require(plugin[.size] as? Int)
    // The floor set when the SDK became one shared library: a debug Counter of at most 2 MB (it was 24.7 MB with the SDK in it).
    #expect(size <= 2_000_000, "libCounter.so is \(size) bytes")
  }

  @Test func aSwiftPluginCopiedWithoutItsSDKSaysWhatItNeeds() async throws {
    let folder = try self.folder("alone")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = try self.copy("libCounter.so", into: folder)
    let result = try await CLI.run("inspect", plugin)
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "\(plugin): needs libPatchbaySDK.so, which is neither in its folder nor installed."),
      "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func aPluginFromAnotherFolderWithTheSameSDKBuildLoads() async throws {
    let folder = try self.folder("same-sdk")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try self.copy("libTuner.so", into: folder)
    _ = try self.copy("libPatchbaySDK.so", into: folder)
    let result = try await CLI.run("check", try self.app(tunerIn: folder))
    #expect(result.exitCode == 0, "\(result.stderr)")
  }

  @Test func aPluginBuiltAgainstAnotherSDKIsRefusedWithBothBuilds() async throws {
    let folder = try self.folder("other-sdk")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try self.copy("libTuner.so", into: folder)
    // Another build of the SDK: the same bytes under another GNU build id.
    var sdk = try Data(contentsOf: URL(fileURLWithPath: "\(CLI.directory)/libPatchbaySDK.so"))
    let note = Data([4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 0x47, 0x4E, 0x55, 0])
    let id = try #require(sdk.range(of: note)).upperBound
    sdk[id] ^= 0xFF
    try sdk.write(to: folder.appendingPathComponent("libPatchbaySDK.so"))

    let result = try await CLI.run("check", try self.app(tunerIn: folder))
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "\(folder.path)/libTuner.so: needs libPatchbaySDK.so from its folder (build "),
      "\(result.stderr)")
    #expect(result.stderr.contains("but this app already runs \(CLI.directory)/libPatchbaySDK.so"))
    // What to do: build it where the running SDK was built.
    let build = try #require(CLI.directory.range(of: "/.build/"))
    let buildFolder = String(CLI.directory[..<build.upperBound].dropLast())
    #expect(
      result.stderr.contains(
        "build this one where that one was built (swift build --scratch-path \(buildFolder); "),
      "\(result.stderr)")
  }
}
