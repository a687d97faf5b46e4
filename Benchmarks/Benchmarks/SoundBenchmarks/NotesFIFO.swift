import Foundation

/// A FIFO a thread plays notes into, as a player on a MIDI keyboard would: a note on and off
/// every 125 ms for `seconds`, rising through two octaves from `lowest`. What the live
/// benchmarks give `SoundSettings.midi`.
///
/// ```swift
/// let notes = NotesFIFO(name: "live", seconds: 60, lowest: 48, velocity: 100)
/// defer { notes.remove() }
/// settings.midi = .file(notes.path)
/// ```
struct NotesFIFO {
  let path: String

  init(name: String, seconds: Int, lowest: UInt8, velocity: UInt8) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "patchbay-bench-\(name)-\(getpid()).fifo"
    ).path
    unlink(path)
    mkfifo(path, 0o600)
    self.path = path
    let writer = Thread {
      guard let handle = FileHandle(forWritingAtPath: path) else { return }
      for index in 0..<(seconds * 8) {
        let note = lowest + UInt8(index % 24)
        handle.write(Data([0x90, note, velocity]))
        usleep(60_000)
        handle.write(Data([0x80, note, 0]))
        usleep(65_000)
      }
      try? handle.close()
    }
    writer.start()
  }

  /// Removes the FIFO (the writer ends with its notes, or when nobody reads).
  func remove() { unlink(self.path) }
}
