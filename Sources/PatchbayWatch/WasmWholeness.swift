import Foundation

/// Whether a `.wasm` file is a whole module yet, for the watcher (``PluginWatcher``), as
/// ``ELFImage/incompleteness(of:)`` says for a shared object: the 8-byte header, then sections
/// (an id byte, a LEB128 size, that many bytes) that end exactly at the file's end. A linker
/// still writing it leaves a section that ends past the end.
///
/// ```swift
/// WasmWholeness.incompleteness(of: "Counter.wasm")   // nil: whole
/// // "is cut short: a section ends at byte 9120 of its 4096"
/// ```
enum WasmWholeness {
  static func incompleteness(of path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return "cannot be read" }
    let bytes = [UInt8](data)
    guard !bytes.isEmpty else { return "is empty" }
    guard bytes.count >= 8, bytes[0..<4] == [0x00, 0x61, 0x73, 0x6D] else {
      return "is not a WebAssembly module (no \\0asm header)"
    }
    guard bytes[4..<8] == [1, 0, 0, 0] else {
      return "is a WebAssembly module of version \(bytes[4]), not 1"
    }
    var offset = 8
    while offset < bytes.count {
      offset += 1  // the section's id
      var size = 0
      var shift = 0
      while true {
        guard offset < bytes.count, shift < 35 else {
          return "is cut short: a section's size runs past its \(bytes.count) bytes"
        }
        let byte = bytes[offset]
        offset += 1
        size |= Int(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 { break }
      }
      offset += size
      if offset > bytes.count {
        return "is cut short: a section ends at byte \(offset) of its \(bytes.count)"
      }
    }
    return nil
  }
}
