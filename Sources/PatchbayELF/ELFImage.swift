import Foundation

/// Just enough ELF to know how much of a shared object `dlopen` reads, and whether a file is
/// whole.
package enum ELFImage {
  /// The ELF64 header's fields this type reads: offset and size in the header.
  enum Field {
    static let programHeaders = (0x20, 8)  // e_phoff
    static let sectionHeaders = (0x28, 8)  // e_shoff
    static let programHeaderSize = (0x36, 2)  // e_phentsize
    static let programHeaderCount = (0x38, 2)  // e_phnum
    static let sectionHeaderSize = (0x3A, 2)  // e_shentsize
    static let sectionHeaderCount = (0x3C, 2)  // e_shnum, followed by e_shstrndx
  }

  /// The little-endian integer in `bytes`.
  static func integer(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
  }

  static func integer(_ header: [UInt8], _ field: (Int, Int)) -> Int {
    Self.integer(header[field.0..<field.0 + field.1])
  }

  /// The first 64 bytes of the file, and how many of them there were.
  static func header(of fd: Int32) -> ([UInt8], Int) {
    var header = [UInt8](repeating: 0, count: 64)
    let count = pread(fd, &header, 64, 0)
    return (header, count)
  }

  static func isELF(_ header: [UInt8], count: Int) -> Bool {
    count >= 4 && header[0...3] == [0x7F, 0x45, 0x4C, 0x46]
  }

  /// The end of the last `PT_LOAD` segment of a little-endian ELF64 file, or nil for any other
  /// file (which is then copied whole; `dlopen` judges it).
  package static func loadableSize(of fd: Int32, fileSize: Int) -> Int? {
    let (header, count) = Self.header(of: fd)
    return Self.loadableSize(of: fd, header: header, count: count, fileSize: fileSize)
  }

  private static func loadableSize(of fd: Int32, header: [UInt8], count: Int, fileSize: Int) -> Int?
  {
    guard count == 64, Self.isELF(header, count: count),
      header[4] == 2, header[5] == 1  // ELFCLASS64, ELFDATA2LSB
    else { return nil }
    let programHeaders = Self.integer(header, Field.programHeaders)
    let entrySize = Self.integer(header, Field.programHeaderSize)
    let entries = Self.integer(header, Field.programHeaderCount)
    guard entrySize >= 56, entries > 0, entries < 256,
      programHeaders + entrySize * entries <= fileSize
    else {
      return nil
    }
    var table = [UInt8](repeating: 0, count: entrySize * entries)
    guard pread(fd, &table, table.count, off_t(programHeaders)) == table.count else { return nil }
    var end = programHeaders + table.count
    for index in 0..<entries {
      let base = index * entrySize
      guard Self.integer(table[base..<base + 4]) == 1 else { continue }  // PT_LOAD
      let offset = Self.integer(table[base + 8..<base + 16])  // p_offset
      let size = Self.integer(table[base + 32..<base + 40])  // p_filesz
      end = max(end, offset + size)
    }
    return end <= fileSize ? end : nil
  }

  /// Makes a (cut) copy's header say it has no section headers: e_shoff, e_shnum and
  /// e_shstrndx zero.
  package static func dropSectionHeaders(_ fd: Int32) {
    var zeroOffset: UInt64 = 0
    var zeroCounts: UInt32 = 0
    _ = pwrite(fd, &zeroOffset, Field.sectionHeaders.1, off_t(Field.sectionHeaders.0))
    _ = pwrite(fd, &zeroCounts, 4, off_t(Field.sectionHeaderCount.0))
  }

  /// Why the file at `path` is not (yet) a whole ELF shared object, or nil when it is: its
  /// header, program headers, loaded segments and section header table all fit in the file.
  /// A linker still writing, or a copy cut short, fails this.
  package static func incompleteness(of path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      return "cannot be read (\(String(cString: strerror(errno))))"
    }
    let size = Int(info.st_size)
    let (header, count) = Self.header(of: fd)
    guard Self.isELF(header, count: count) else {
      return count <= 0 ? "is empty" : "is not an ELF file"
    }
    guard let loadable = Self.loadableSize(of: fd, header: header, count: count, fileSize: size)
    else {
      return "is cut short: its ELF header or segments end past its \(size) bytes"
    }
    let sectionHeadersEnd =
      Self.integer(header, Field.sectionHeaders)
      + Self.integer(header, Field.sectionHeaderSize)
      * Self.integer(header, Field.sectionHeaderCount)
    let end = max(loadable, sectionHeadersEnd)
    return end <= size ? nil : "is cut short: \(size) of at least \(end) bytes"
  }
}
