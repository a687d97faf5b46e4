import Foundation
import Testing

/// `patchbay functions`, `patchbay call`, and `call` in a script.
@Suite struct FunctionCommandTests {
  @Test func callPrintsTheResult() async throws {
    let frequency = try await CLI.run(
      "call", "Theory", "note_frequency", "69", "440", "--plugin-path", CLI.directory)
    #expect(frequency.exitCode == 0, "\(frequency.stderr)")
    #expect(frequency.stdout == "440.0\n")
    let chord = try await CLI.run(
      "call", "Theory", "chord_name", "[64, 67, 72]", "--plugin-path", CLI.directory)
    #expect(chord.stdout == "C major/E\n")
    let name = try await CLI.run(
      "call", "Theory", "note_name", "61", "--plugin-path", CLI.directory)
    #expect(name.stdout == "C#4\n")
  }

  /// A Swift plugin exports a function too (an `@_cdecl` function and its declaration).
  @Test func aSwiftPluginsFunction() async throws {
    let result = try await CLI.run(
      "call", "Tuner", "cents", "880", "440", "--plugin-path", CLI.directory)
    #expect(result.stdout == "1200.0\n", "\(result.stderr)")
  }

  @Test func functionsListsSignatures() async throws {
    let result = try await CLI.run("functions", "Theory", "--plugin-path", CLI.directory)
    #expect(result.exitCode == 0)
    #expect(
      result.stdout.split(separator: "\n").first?.hasPrefix(
        "note_frequency  double(int32, double)     ") == true, "\(result.stdout)")
    #expect(result.stdout.split(separator: "\n").count == 4)
    let json = try await CLI.run("inspect", "Theory", "--json", "--plugin-path", CLI.directory)
    #expect(json.stdout.contains("\"signature\": \"int32(buffer, out_string)\""))
  }

  @Test func badCallsAreOneLineErrors() async throws {
    let unknown = try await CLI.run(
      "call", "Theory", "note_frequncy", "69", "--plugin-path", CLI.directory)
    #expect(unknown.exitCode == 1)
    #expect(unknown.stderr.hasPrefix("Error: Theory.note_frequncy: no such function."))
    let count = try await CLI.run(
      "call", "Theory", "note_frequency", "69", "--plugin-path", CLI.directory)
    #expect(
      count.stderr
        == "Error: Theory.note_frequency: takes 2 argument(s) (double(int32, double)), got 1\n")
    let type = try await CLI.run(
      "call", "Theory", "note_frequency", "\"A4\"", "440", "--plugin-path", CLI.directory)
    #expect(type.stderr.contains("argument 1 (int32) takes an integer, got \"A4\""))
    let value = try await CLI.run(
      "call", "Theory", "note_name", "[1,", "--plugin-path", CLI.directory)
    #expect(value.stderr.contains("argument 1 '[1,' is not a value"))
    let none = try await CLI.run("call", "Nowhere", "f", "--plugin-path", CLI.directory)
    #expect(none.exitCode == 1)
    #expect(none.stderr.split(separator: "\n").count == 1)
  }

  @Test func aScriptCallsInsideTheApp() async throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).script"
    ).path
    defer { unlink(script) }
    try """
    call note_frequency 57 440.0
    call chord_name [57, 60, 64, 67]
    call Theory.note_frequency 69 432.0
    call dev.patchbay.theory-plugin.note_frequency 81 440.0
    call note_name "x"

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let result = try await CLI.run(
      "run", SoundCommandTests.studio, "--audio", "none", "--script", script, "--plugin-path",
      CLI.directory)
    #expect(result.exitCode == 1)
    // The plugin may be named before the function, by its name or its id.
    #expect(result.stdout == "220.0\nA minor seventh\n432.0\n880.0\n")
    #expect(result.stderr.contains(":5: Theory.note_name: argument 1 (int32) takes an integer"))
  }
}
