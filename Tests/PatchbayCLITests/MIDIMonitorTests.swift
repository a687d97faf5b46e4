import Foundation
import Testing

/// `patchbay midi monitor` as a new user tried it: a big file, `--raw`, and a killed `smf:` run.
@Suite struct MIDIMonitorTests {
  /// 30,000 note-ons (90,000 bytes): a file has no deadline, so its reader waits for the
  /// printer instead of dropping what does not fit.
  static let noteOns = Data((0..<30_000).flatMap { [0x90, UInt8($0 % 128), 100] as [UInt8] })

  func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      .path
  }

  @Test func aBigFileArrivesWhole() async throws {
    let file = self.temporary("notes.raw")
    defer { unlink(file) }
    try #require(FileManager.default.createFile(atPath: file, contents: Self.noteOns))
    let result = try await CLI.run("midi", "monitor", "--input", "file:\(file)", "--raw")
    #expect(result.exitCode == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    let events = lines.filter { !$0.hasPrefix("raw: ") }
    #expect(events.count == 30_000)
    #expect(events.last?.hasSuffix("ch1 note-on \(29_999 % 128) 100") == true)
    // --raw prints every byte it read, in order.
    let raw = lines.filter { $0.hasPrefix("raw: ") }.flatMap {
      $0.dropFirst(5).split(separator: " ")
    }
    #expect(raw.count == 90_000)
    #expect(raw.prefix(3) == ["90", "00", "64"])
    #expect(!result.stderr.contains("dropped"))
  }

  @Test func standardInputFromAFileArrivesWhole() async throws {
    let file = self.temporary("stdin.raw")
    defer { unlink(file) }
    try #require(FileManager.default.createFile(atPath: file, contents: Self.noteOns))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "\(CLI.directory)/patchbay")
    process.arguments = ["midi", "monitor", "--input", "stdin"]
    process.standardInput = FileHandle(forReadingAtPath: file)
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: stdout, as: UTF8.self).split(separator: "\n").count == 30_000)
  }

  /// A song played in real time, killed once it has printed two events: those lines are on
  /// stdout already, not in a buffer that dies with the process. (Before the fix nothing came
  /// until the song ended, so this waited out its deadline and saw no line.)
  @Test func aKilledSongRunHasPrintedWhatItPlayed() async throws {
    let file = self.temporary("long.mid")
    defer { unlink(file) }
    // 96 ticks a quarter at 120 BPM: a note-on every 48 ticks (0.25 s) for 100 s.
    var track: [UInt8] = []
    for index in 0..<400 { track += [index == 0 ? 0 : 48, 0x90, 60, 100] }
    track += [0, 0xFF, 0x2F, 0]
    let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0, 96]
    let length = UInt32(track.count)
    try #require(
      FileManager.default.createFile(
        atPath: file,
        contents: Data(
          header + Array("MTrk".utf8)
            + [
              UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
              UInt8(length & 0xFF),
            ] + track)))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "\(CLI.directory)/patchbay")
    process.arguments = ["midi", "monitor", "--input", "smf:\(file)"]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let reader = out.fileHandleForReading
    // The deadline: a run whose output never comes is killed, and shows nothing.
    let killer = Task.detached {
      try await Task.sleep(for: .seconds(300))
      process.terminate()
    }
    var printed = Data()
    while printed.filter({ $0 == 0x0A }).count < 2 {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      printed += chunk
    }
    killer.cancel()
    process.terminate()
    process.waitUntilExit()
    let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
    #expect(lines.count >= 2, "printed \(lines.count) line(s) before it was killed")
    #expect(lines.allSatisfy { $0.hasSuffix("ch1 note-on 60 100") })
  }
}
