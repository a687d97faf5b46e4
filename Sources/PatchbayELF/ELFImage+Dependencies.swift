import Foundation

/// What a shared object needs and which build it is, read from its program headers alone (a
/// generation copy has no section headers).
///
/// ```swift
/// let fd = open(".build/debug/libCounter.so", O_RDONLY)
/// ELFImage.neededLibraries(of: fd)  // ["libswiftCore.so", …, "libPatchbaySDK.so", "libc.so.6"]
/// ELFImage.buildID(of: fd)          // "3a4b9ac60fa4b0679472399db5ffe23b3e33bab6"
/// ```
extension ELFImage {
  /// One program header's fields.
  struct Segment {
    let type: Int
    let offset: Int
    let address: Int
    let fileSize: Int

    static let load = 1  // PT_LOAD
    static let dynamic = 2  // PT_DYNAMIC
    static let note = 4  // PT_NOTE
  }

  /// The program headers of a little-endian ELF64 file; empty for any other file.
  static func segments(of fd: Int32) -> [Segment] {
    let (header, count) = Self.header(of: fd)
    guard count == 64, Self.isELF(header, count: count), header[4] == 2, header[5] == 1 else {
      return []
    }
    let start = Self.integer(header, Field.programHeaders)
    let entrySize = Self.integer(header, Field.programHeaderSize)
    let entries = Self.integer(header, Field.programHeaderCount)
    guard entrySize >= 56, (1..<256).contains(entries) else { return [] }
    var table = [UInt8](repeating: 0, count: entrySize * entries)
    guard pread(fd, &table, table.count, off_t(start)) == table.count else { return [] }
    return (0..<entries).map { index in
      let base = index * entrySize
      return Segment(
        type: Self.integer(table[base..<base + 4]),
        offset: Self.integer(table[base + 8..<base + 16]),
        address: Self.integer(table[base + 16..<base + 24]),
        fileSize: Self.integer(table[base + 32..<base + 40]))
    }
  }

  /// The bytes of `count` at file offset `offset`, or nil past the end of the file.
  private static func bytes(of fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= 0, count >= 0, count <= 1 << 24 else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    guard pread(fd, &bytes, count, off_t(offset)) == count else { return nil }
    return bytes
  }

  /// The `DT_NEEDED` names, in the order the dynamic linker loads them.
  package static func neededLibraries(of fd: Int32) -> [String] {
    let segments = Self.segments(of: fd)
    guard let dynamic = segments.first(where: { $0.type == Segment.dynamic }),
      let table = Self.bytes(of: fd, at: dynamic.offset, count: dynamic.fileSize)
    else { return [] }
    var needed: [Int] = []
    var stringTable: Int?
    for base in stride(from: 0, to: table.count - 15, by: 16) {
      let tag = Self.integer(table[base..<base + 8])
      let value = Self.integer(table[base + 8..<base + 16])
      if tag == 0 { break }  // DT_NULL
      if tag == 1 { needed.append(value) }  // DT_NEEDED: an offset into the string table
      if tag == 5 { stringTable = value }  // DT_STRTAB: a virtual address
    }
    // The string table's address, as a file offset: through the PT_LOAD segment holding it.
    guard let address = stringTable,
      let segment = segments.first(where: {
        $0.type == Segment.load && (($0.address)..<($0.address + $0.fileSize)).contains(address)
      })
    else { return [] }
    let offset = address - segment.address + segment.offset
    let end = segment.offset + segment.fileSize
    return needed.compactMap { name in
      guard let bytes = Self.bytes(of: fd, at: offset + name, count: min(256, end - offset - name)),
        let terminator = bytes.firstIndex(of: 0)
      else { return nil }
      return String(decoding: bytes[..<terminator], as: UTF8.self)
    }
  }

  /// The linker's build id (`NT_GNU_BUILD_ID`) as hex, or nil when the file has none.
  package static func buildID(of fd: Int32) -> String? {
    for note in Self.segments(of: fd) where note.type == Segment.note {
      guard let bytes = Self.bytes(of: fd, at: note.offset, count: note.fileSize) else { continue }
      var base = 0
      while base + 12 <= bytes.count {
        let nameSize = Self.integer(bytes[base..<base + 4])
        let descriptionSize = Self.integer(bytes[base + 4..<base + 8])
        let type = Self.integer(bytes[base + 8..<base + 12])
        let name = base + 12
        let description = name + (nameSize + 3) & ~3
        let next = description + (descriptionSize + 3) & ~3
        guard next <= bytes.count else { break }
        if type == 3, nameSize == 4, bytes[name..<name + 4] == [0x47, 0x4E, 0x55, 0] {  // "GNU"
          return Self.hex(bytes[description..<description + descriptionSize])
        }
        base = next
      }
    }
    return nil
  }

  /// `bytes` as lowercase hex, two digits a byte. By hand, not `String(format:)`: its
  /// arguments are cast to `CVarArg`, and a cast scans the conformances of every loaded image,
  /// which made loading P plugins cost O(P²) (docs/BENCHMARKS.md, "Growth").
  static func hex(_ bytes: ArraySlice<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
