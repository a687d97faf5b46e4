import Foundation
import Testing

@testable import PatchbayELF
@testable import PatchbayHost
@testable import PatchbayLoader

/// Reading what a plugin needs from its program headers, and finding its SDK beside it.
@Suite struct SiblingLibrariesTests {
  func withDescriptor<R>(_ path: String, _ body: (Int32) -> R) -> R {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(fd) }
    return body(fd)
  }

  @Test func aSwiftPluginNeedsTheSDKAndTheSwiftRuntime() throws {
    let needed = withDescriptor(try BuiltPlugins.path("Counter"), ELFImage.neededLibraries)
    #expect(needed.contains("libPatchbaySDK.so"))
    #expect(needed.contains("libswiftCore.so"))
    #expect(needed.last == "libc.so.6")
  }

  @Test func aCPluginNeedsNoSDK() throws {
    let needed = withDescriptor(try BuiltPlugins.path("Echo"), ELFImage.neededLibraries)
    #expect(!needed.isEmpty)
    #expect(!needed.contains("libPatchbaySDK.so"))
    let siblings = SiblingLibraries(of: URL(fileURLWithPath: try BuiltPlugins.path("Echo")))
    #expect(siblings.libraries.isEmpty)
  }

  @Test func theSDKIsFoundInThePluginsOwnFolderWithItsBuildID() throws {
    let siblings = SiblingLibraries(of: URL(fileURLWithPath: try BuiltPlugins.path("Counter")))
    let sdk = try #require(siblings.libraries.first)
    #expect(siblings.libraries.map(\.name) == ["libPatchbaySDK.so"])
    #expect(sdk.path == "\(BuiltPlugins.directory)/libPatchbaySDK.so")
    let id = withDescriptor(sdk.path, ELFImage.buildID)
    #expect(sdk.build == id)
    #expect(id?.count == 40 && id?.allSatisfy(\.isHexDigit) == true)
  }

  @Test func buildIDsTellBuildsApart() throws {
    let counter = withDescriptor(try BuiltPlugins.path("Counter"), ELFImage.buildID)
    let tuner = withDescriptor(try BuiltPlugins.path("Tuner"), ELFImage.buildID)
    #expect(counter != nil && tuner != nil && counter != tuner)
  }

  @Test func aBuildIDIsWrittenAsLowercaseHexTwoDigitsAByte() {
    #expect(ELFImage.hex([0x00, 0x0F, 0xA5, 0xFF, 0x10][...]) == "000fa5ff10")
    #expect(ELFImage.hex([][...]).isEmpty)
  }

  @Test func aFileThatIsNotELFNeedsNothing() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try Data("not a plugin".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(withDescriptor(file.path, ELFImage.neededLibraries).isEmpty)
    #expect(withDescriptor(file.path, ELFImage.buildID) == nil)
    #expect(SiblingLibraries(of: file).libraries.isEmpty)
  }

  @Test func aCopyOfAGenerationNeedsWhatTheOriginalNeeds() throws {
    // Generation copies keep only the loaded bytes (no section headers): the dynamic section
    // is still read through the program headers.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = try GenerationPath(directory: folder).copy(
      URL(fileURLWithPath: try BuiltPlugins.path("Counter")), generation: 1)
    let original = withDescriptor(try BuiltPlugins.path("Counter"), ELFImage.neededLibraries)
    #expect(withDescriptor(copy.path, ELFImage.neededLibraries) == original)
  }
}
