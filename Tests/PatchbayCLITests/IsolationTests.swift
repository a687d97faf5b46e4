import Foundation
import Testing

/// `--isolate` and `[plugins] isolate`, run as a user would.
@Suite struct IsolationTests {
  static let studio = "\(CheckTests.root)/host-config/trio.toml"

  /// The studio, every plugin isolated, renders the demo song to the same bytes as in this
  /// process, and its tuner (isolated) still calls Theory (in the host) from its own process.
  @Test func theStudioIsolatedRendersTheSameBytes() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let song = "smf:\(CheckTests.root)/host-config/songs/demo.mid"
    var files: [Data] = []
    for isolate in [[], ["--isolate", "all"]] {
      let out = folder.appendingPathComponent("\(files.count).wav").path
      let result = try await CLI.run(
        arguments: ["render", Self.studio, "--midi", song, "--seconds", "4", "--out", out] + isolate
      )
      #expect(result.exitCode == 0, "\(result.stderr)")
      files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    #expect(files[0].count > 4 * 48_000 * 4)
    let same = files[0] == files[1]  // not #expect's ==: it would diff them byte by byte
    #expect(same, "two renders differ (\(files[0].count) and \(files[1].count) bytes)")

    let script = folder.appendingPathComponent("tuner.script").path
    try "send tuner setNote(60)\nstate tuner\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let tuner = try await CLI.run("run", Self.studio, "--script", script, "--isolate", "all")
    #expect(tuner.exitCode == 0, "\(tuner.stderr)")
    #expect(tuner.stdout.contains("\"name\": \"C4\""), "\(tuner.stdout)")
  }

  /// docs/SWAP.md's example ("Isolate a plugin"): a render that crashes fails the script with the report, exit 1.
  @Test func aCrashStopsTheScriptWithTheReport() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("crash.script").path
    try "send hostile loud\nsend hostile crashRender\nrender\nrender\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "run", "\(CheckTests.root)/host-config/hostile.toml", "--script", script)
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.contains(
        "crash.script:3: hostile: dev.patchbay.fixture-hostile: render failed: "
          + "dev.patchbay.fixture-hostile-plugin crashed: SIGSEGV"),
      "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "crashed: SIGSEGV (invalid memory access) in its render: feature "
          + "dev.patchbay.fixture-hostile ("))
    #expect(result.stderr.contains("Its process was started again"))
  }

  /// A plugin that only exports functions cannot be isolated by name: one line says why.
  @Test func isolatingAFunctionLibraryIsRefused() async throws {
    let result = try await CLI.run("check", Self.studio, "--isolate", "Theory")
    #expect(result.exitCode != 0)
    #expect(
      result.stderr.contains(
        "libTheory.so: has no features, only functions (note_frequency, note_name, "
          + "interval_name, chord_name), which other plugins call in their own process, so it "
          + "cannot run isolated."),
      "\(result.stderr)")
  }
}
