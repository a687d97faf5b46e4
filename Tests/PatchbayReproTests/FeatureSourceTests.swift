import Foundation
import Testing

@testable import PatchbayRepro

/// A feature's source is found through SwiftPM's lists of each target's sources, by its id.
@Suite struct FeatureSourceTests {
  static let twoFeatures = """
    import PatchbayPlugin

    /// Counts.
    @Feature
    public struct Counter: AudioFeature {
      public static let id = "dev.example.counter"
    }

    @Feature
    struct Quiet {
      static let id: String = "dev.example.quiet"
    }

    struct NotAFeature {
      static let id = "dev.example.plain"
    }
    """

  @Test func theFeatureWithTheIdIsNamedWithItsAccess() {
    let counter = FeatureSource.declaration(of: "dev.example.counter", in: Self.twoFeatures)
    #expect(counter?.type == "Counter")
    #expect(counter?.isPublic == true)
    let quiet = FeatureSource.declaration(of: "dev.example.quiet", in: Self.twoFeatures)
    #expect(quiet?.type == "Quiet")
    #expect(quiet?.isPublic == false)
  }

  @Test(arguments: ["dev.example.plain", "dev.example", "dev.example.counter.more"])
  func anIdOfNoFeatureFindsNone(id: String) {
    #expect(FeatureSource.declaration(of: id, in: Self.twoFeatures) == nil)
  }

  /// A build folder as SwiftPM leaves it: `<Target>.build/sources` lists the target's files.
  static func buildFolder(target: String, sources: [String: String]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("feature-source-\(UUID().uuidString)")
    let build = folder.appendingPathComponent("\(target).build")
    try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
    var list: [String] = []
    for (name, text) in sources {
      let file = folder.appendingPathComponent(name)
      try text.write(to: file, atomically: true, encoding: .utf8)
      list.append(file.path.replacingOccurrences(of: " ", with: "\\ "))
    }
    try list.joined(separator: "\n").write(
      to: build.appendingPathComponent("sources"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test func theTargetThatListsTheFileIsItsModule() throws {
    let folder = try Self.buildFolder(
      target: "CounterFeature",
      sources: ["Other.swift": "struct Other {}", "Counter and more.swift": Self.twoFeatures])
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("libCounter.so").path
    let found = FeatureSource.find("dev.example.counter", plugin: plugin, from: "/")
    #expect(found?.module == "CounterFeature")
    #expect(found?.type == "Counter")
    #expect(found?.file == folder.appendingPathComponent("Counter and more.swift").path)
    #expect(FeatureSource.find("dev.example.absent", plugin: plugin, from: "/") == nil)
  }

  /// A plugin copied out of its build folder: the package around the folder repro runs in.
  @Test func aCopiedPluginIsFoundThroughThePackageAroundTheFolder() throws {
    let package = try Self.buildFolder(target: "Unused", sources: [:])
    defer { try? FileManager.default.removeItem(at: package) }
    try "// swift-tools-version: 6.1".write(
      to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let debug = try Self.buildFolder(
      target: "CounterFeature", sources: ["Counter.swift": Self.twoFeatures])
    defer { try? FileManager.default.removeItem(at: debug) }
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent(".build"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: package.appendingPathComponent(".build/debug"), withDestinationURL: debug)
    let inside = package.appendingPathComponent("Tests")
    try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
    let found = FeatureSource.find(
      "dev.example.quiet", plugin: "/tmp/app/libC.so", from: inside.path)
    #expect(found?.module == "CounterFeature")
    #expect(found?.type == "Quiet")
    #expect(FeatureSource.find("dev.example.quiet", plugin: nil, from: "/") == nil)
  }
}
