import Foundation
import Testing

@Suite struct InspectTests {
  @Test func inspectsAPluginByName() async throws {
    let result = try await CLI.run("inspect", "Counter")
    #expect(result.exitCode == 0)
    #expect(result.stdout.hasPrefix("Counter 1.0.0 (dev.patchbay.counter-plugin)\n"))
    #expect(result.stdout.contains("  ABI:  2.7\n"))
    #expect(result.stdout.contains("  dev.patchbay.counter — Counter (state schema 1, migrates)\n"))
    #expect(result.stdout.contains("      setStep(by: int)         Sets the step\n"))
  }

  @Test func inspectsTheCPluginByPathAsJSON() async throws {
    let result = try await CLI.run("inspect", "\(CLI.directory)/libEcho.so", "--json")
    #expect(result.exitCode == 0)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json?["abi"] as? String == "2.7")
    #expect(json?["id"] as? String == "dev.patchbay.echo-plugin")
    let features = json?["features"] as? [[String: Any]]
    #expect(features?.first?["id"] as? String == "dev.patchbay.echo")
    let actions = features?.first?["actions"] as? [[String: Any]]
    let fields = actions?.first?["fields"] as? [[String: Any]]
    #expect(actions?.first?["name"] as? String == "say")
    #expect(fields?.first?["type"] as? String == "string")
  }

  /// A WebAssembly plugin's services are what `[sandbox]` must grant it: inspect lists them
  /// (the Wired fixture asks for three; the Hostile one for none), and a library has no line.
  @Test func inspectNamesTheServicesAWebAssemblyPluginImports() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-inspect-wasm-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let wired = try await CLI.run("inspect", try await CLI.wasmFixture("wired", in: folder))
    #expect(
      wired.stdout.contains(
        "\n  services: \"midi\", \"navigation\", \"shared\" ([sandbox] grants them)\n"),
      "\(wired.stdout)")
    let hostile = try await CLI.run("inspect", try await CLI.wasmFixture("hostile", in: folder))
    #expect(hostile.stdout.contains("\n  services: none\n"), "\(hostile.stdout)")
    #expect(!(try await CLI.run("inspect", "Echo")).stdout.contains("services:"))
  }

  @Test func searchesThePluginPathVariable() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "\(CLI.directory)/libEcho.so",
      toPath: folder.appendingPathComponent("libParrot.so").path)
    let result = try await CLI.run(
      "inspect", "Parrot", environment: ["PATCHBAY_PLUGIN_PATH": folder.path])
    #expect(result.exitCode == 0)
    #expect(result.stdout.contains("file: \(folder.path)/libParrot.so"))
  }

  @Test func aPluginOthersCanWriteIsRefusedUnlessAllowed() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("libEcho.so").path
    try FileManager.default.copyItem(atPath: "\(CLI.directory)/libEcho.so", toPath: plugin)
    #expect(chmod(folder.path, 0o777) == 0)
    let refused = try await CLI.run("inspect", plugin)
    #expect(refused.exitCode == 1)
    #expect(refused.stderr.hasPrefix("Error: \(plugin): is in a folder that is writable by others"))
    #expect(refused.stderr.split(separator: "\n").count == 1)
    let allowed = try await CLI.run("inspect", plugin, "--allow-insecure-plugin-path")
    #expect(allowed.exitCode == 0, "\(allowed.stderr)")
  }

  @Test func missingPluginIsAOneLineErrorWithExitCode1() async throws {
    let result = try await CLI.run("inspect", "Nope", "--plugin-path", "/nowhere")
    #expect(result.exitCode == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: Nope: no libNope.so in /nowhere, "))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func badPluginFileNamesTheFile() async throws {
    // In a folder of its own: /tmp itself is writable by others, which is refused first.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("libGarbage.so")
    try Data("not a library".utf8).write(to: file)
    let result = try await CLI.run("inspect", file.path)
    #expect(result.exitCode == 1)
    #expect(result.stderr.contains("\(file.path): not a shared object"))
  }

  @Test func usageErrorsExitWith2() async throws {
    let result = try await CLI.run("inspect")
    #expect(result.exitCode == 2)
    #expect(result.stderr.contains("Missing expected argument '<plugin>'"))
    let unknown = try await CLI.run("frobnicate")
    #expect(unknown.exitCode == 2)
  }

  @Test func helpExitsWith0() async throws {
    let result = try await CLI.run("--help")
    #expect(result.exitCode == 0)
    #expect(result.stdout.contains("inspect"))
    #expect(
      result.stdout.contains(
        "Exit codes: 0 success, 1 failure, 2 usage error, 3 a plugin crashed the app"))
  }
}
