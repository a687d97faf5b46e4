import Foundation
import PatchbayDigest
import PatchbayLoader

/// One instance's kept state on disk: which feature wrote it, at which state schema, and the
/// snapshot bytes, with their SHA-256, so a torn or damaged file is found and never loaded
/// half.
///
/// ```text
/// "PBST" · format 1 (u16) · schema (u32) · feature id (u16 length, UTF-8)
///        · state length (u64) · SHA-256 of the state (64 hex digits) · the state
/// (integers little-endian)
/// ```
///
/// ```swift
/// try StateFile(featureID: "dev.patchbay.counter", schema: 1, state: bytes).write(to: url)
/// let kept = try StateFile(reading: url)        // or why it is not a whole state file
/// ```
///
/// Written atomically: a temporary file in the same folder, `fsync`, `rename` over the old
/// one, `fsync` of the folder. A reader sees the old file or the new one, whole, whenever the
/// writer is killed.
package struct StateFile: Equatable {
  package let featureID: String
  package let schema: UInt32
  package let state: [UInt8]

  static let magic: [UInt8] = Array("PBST".utf8)
  static let format: UInt16 = 1

  package init(featureID: String, schema: UInt32, state: [UInt8]) {
    self.featureID = featureID
    self.schema = schema
    self.state = state
  }

  /// Why a file is not a state file to load.
  struct Damaged: Error, CustomStringConvertible, Equatable {
    let description: String
  }

  /// Reads and checks `url`; throws ``Damaged`` naming the byte or field that is wrong.
  package init(reading url: URL) throws {
    let bytes = [UInt8](try Data(contentsOf: url))
    var offset = 0
    func take(_ count: Int, _ what: String) throws(Damaged) -> ArraySlice<UInt8> {
      guard count >= 0, offset + count <= bytes.count else {
        throw Damaged(
          description: "it ends at byte \(bytes.count), inside its \(what) (a write cut short)")
      }
      defer { offset += count }
      return bytes[offset..<offset + count]
    }
    func integer<T: FixedWidthInteger>(_: T.Type, _ what: String) throws(Damaged) -> T {
      try take(MemoryLayout<T>.size, what).reversed().reduce(T(0)) { $0 << 8 | T($1) }
    }
    guard Array(try take(4, "header")) == Self.magic else {
      throw Damaged(description: "it does not start with \"PBST\": not a Patchbay state file")
    }
    let format = try integer(UInt16.self, "format")
    guard format == Self.format else {
      throw Damaged(description: "its format is \(format); this host reads format 1")
    }
    self.schema = try integer(UInt32.self, "schema")
    let idLength = Int(try integer(UInt16.self, "feature id"))
    self.featureID = String(decoding: try take(idLength, "feature id"), as: UTF8.self)
    let length = try integer(UInt64.self, "state length")
    guard length <= UInt64(bytes.count) else {
      throw Damaged(
        description: "it says its state is \(length) bytes, but the file has \(bytes.count)")
    }
    let digest = Array(try take(64, "checksum"))
    let state = Array(try take(Int(length), "state"))
    guard offset == bytes.count else {
      throw Damaged(description: "it has \(bytes.count - offset) bytes after its state")
    }
    guard Array(SHA256.hex(of: state).utf8) == digest else {
      throw Damaged(description: "its state does not match its SHA-256 (damaged on disk)")
    }
    self.state = state
  }

  /// The file's bytes.
  var bytes: [UInt8] {
    func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    let id = Array(self.featureID.utf8)
    return Self.magic + little(Self.format) + little(self.schema) + little(UInt16(id.count)) + id
      + little(UInt64(self.state.count)) + Array(SHA256.hex(of: self.state).utf8) + self.state
  }

  /// Writes the file atomically (see above); throws the system's reason.
  package func write(to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw Self.failure("create \(temporary.path)") }
    let bytes = self.bytes
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      guard count > 0 else {
        close(fd)
        unlink(temporary.path)
        throw Self.failure("write \(temporary.path)")
      }
      written += count
    }
    guard fsync(fd) == 0, close(fd) == 0 else {
      unlink(temporary.path)
      throw Self.failure("fsync \(temporary.path)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      unlink(temporary.path)
      throw Self.failure("rename to \(url.path)")
    }
    let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }

  private static func failure(_ what: String) -> Damaged {
    Damaged(description: "cannot \(what): \(String(cString: strerror(errno)))")
  }
}
