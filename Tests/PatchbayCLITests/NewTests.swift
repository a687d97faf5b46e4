import Foundation
import Testing

/// `patchbay new` writes a package; building it is slow, so `make test` builds and loads one
/// generated package once (see the Makefile's `template-check`). These tests check the files.
@Suite struct NewTests {
  @Test func createsAPackageDependingOnTheSDKByPath() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let result = try await CLI.run("new", "Metronome", "--path", folder.path, "--patchbay", root)
    #expect(result.exitCode == 0)
    let manifest = try String(
      contentsOf: folder.appendingPathComponent("Metronome/Package.swift"), encoding: .utf8)
    #expect(
      manifest.contains(".library(name: \"Metronome\", type: .dynamic, targets: [\"Metronome\"])"))
    // The SDK package, named PatchbaySDK whatever the checkout's folder is called.
    #expect(manifest.contains(".package(path: \"\(root)/Sources/PatchbaySDK\")"))
    #expect(manifest.contains(".product(name: \"PatchbaySDK\", package: \"PatchbaySDK\")"))
    let source = try String(
      contentsOf: folder.appendingPathComponent("Metronome/Sources/Metronome/Metronome.swift"),
      encoding: .utf8)
    // A third party's id, not the project's namespace.
    #expect(source.contains("public static let id = \"com.example.metronome\""))
    #expect(source.contains("id: \"com.example.metronome-plugin\""))
    #expect(source.contains("@Feature\npublic struct Metronome {"))
    #expect(
      source.contains(
        "#plugin(\n  id: \"com.example.metronome-plugin\", name: \"Metronome\", version: \"0.1.0\",\n  features: [Metronome.self])"
      ))
    #expect(!source.contains("@_cdecl"), "the entry point is #plugin's to write")
    // `make` builds in the checkout's build folder, with a recipe line that starts with a tab.
    let makefile = try String(
      contentsOf: folder.appendingPathComponent("Metronome/Makefile"), encoding: .utf8)
    #expect(makefile.contains("PATCHBAY := \(root)\n"))
    #expect(makefile.contains("build:\n\tswift build --scratch-path $(PATCHBAY)/.build\n"))
    #expect(result.stdout.contains("make inspect"))
    #expect(
      makefile.contains("validate: build\n\t$(BUILD)/patchbay validate $(BUILD)/libMetronome.so"))
  }

  @Test func takesAnID() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let result = try await CLI.run(
      "new", "Looper", "--path", folder.path, "--patchbay", root, "--id", "org.acme.looper")
    #expect(result.exitCode == 0, "\(result.stderr)")
    let source = try String(
      contentsOf: folder.appendingPathComponent("Looper/Sources/Looper/Looper.swift"),
      encoding: .utf8)
    #expect(source.contains("public static let id = \"org.acme.looper\""))
    let bad = try await CLI.run("new", "Looper", "--path", folder.path, "--id", "looper")
    #expect(bad.exitCode == 2)
    #expect(bad.stderr.contains("--id 'looper' is not a reverse-DNS id"))
  }

  @Test func refusesBadNamesAndExistingFolders() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let bad = try await CLI.run("new", "lower-case", "--path", folder.path)
    #expect(bad.exitCode == 2)
    #expect(bad.stderr.contains("is not a plugin name"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Taken"), withIntermediateDirectories: true)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let taken = try await CLI.run("new", "Taken", "--path", folder.path, "--patchbay", root)
    #expect(taken.exitCode == 1)
    #expect(taken.stderr.contains("already exists"))
  }

  /// `--wasm swift` and `--wasm c`: the feature's source, a Makefile that builds NAME.wasm
  /// with the checkout's tool, an app of it and a test script (template-check builds both and
  /// runs their `make test`).
  @Test(arguments: [
    (
      "swift", "Pinger.swift", "wasm-swiftc", "static let id: StaticString = \"com.example.pinger\""
    ),
    ("c", "pinger.c", "wasm-cc", "#define FEATURE_ID \"com.example.pinger\""),
  ])
  func writesAWebAssemblyPlugin(language: String, source: String, tool: String, id: String)
    async throws
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let result = try await CLI.run(
      "new", "Pinger", "--path", folder.path, "--patchbay", root, "--wasm", language)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stdout.contains("make test"))
    let package = folder.appendingPathComponent("Pinger")
    let names = try FileManager.default.contentsOfDirectory(atPath: package.path).sorted()
    #expect(names == [".gitignore", "Makefile", source, "app.toml", "test.script"].sorted())
    let code = try String(contentsOf: package.appendingPathComponent(source), encoding: .utf8)
    #expect(code.contains(id))
    let makefile = try String(
      contentsOf: package.appendingPathComponent("Makefile"), encoding: .utf8)
    #expect(
      makefile.contains(
        "Pinger.wasm: \(source)\n\t$(PATCHBAY)/Sources/PatchbayWasmGuest/\(tool) -o $@ \(source)\n")
    )
    #expect(
      makefile.contains("test: Pinger.wasm\n\t$(BUILD)/patchbay run app.toml --script test.script"))
    let app = try String(contentsOf: package.appendingPathComponent("app.toml"), encoding: .utf8)
    #expect(app.contains("load = [\"Pinger.wasm\"]"))
    #expect(app.contains("id = \"com.example.pinger\""))
  }

  @Test func refusesALanguageItCannotWrite() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    let bad = try await CLI.run("new", "Pinger", "--path", folder.path, "--wasm", "rust")
    #expect(bad.exitCode == 2)
    #expect(bad.stderr.contains("'rust'"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }
}
