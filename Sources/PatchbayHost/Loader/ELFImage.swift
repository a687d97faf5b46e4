import Foundation

/// Just enough ELF to know how much of a shared object `dlopen` reads.
public enum ELFImage {
  /// The end of the last `PT_LOAD` segment of a little-endian ELF64 file, or nil for any other
  /// file (which is then copied whole; `dlopen` judges it).
  static func loadableSize(of fd: Int32, fileSize: Int) -> Int? {
    var header = [UInt8](repeating: 0, count: 64)
    guard pread(fd, &header, 64, 0) == 64, header[0...3] == [0x7F, 0x45, 0x4C, 0x46],
      header[4] == 2, header[5] == 1  // ELFCLASS64, ELFDATA2LSB
    else { return nil }
    func integer(_ bytes: ArraySlice<UInt8>) -> Int {
      bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
    let programHeaders = integer(header[0x20..<0x28])
    let entrySize = integer(header[0x36..<0x38])
    let count = integer(header[0x38..<0x3A])
    guard entrySize >= 56, count > 0, count < 256, programHeaders + entrySize * count <= fileSize else {
      return nil
    }
    var table = [UInt8](repeating: 0, count: entrySize * count)
    guard pread(fd, &table, table.count, off_t(programHeaders)) == table.count else { return nil }
    var end = programHeaders + table.count
    for index in 0..<count {
      let entry = table[(index * entrySize)...]
      let base = entry.startIndex
      guard integer(entry[base..<base + 4]) == 1 else { continue }  // PT_LOAD
      let offset = integer(entry[base + 8..<base + 16])
      let size = integer(entry[base + 32..<base + 40])
      end = max(end, offset + size)
    }
    return end <= fileSize ? end : nil
  }

  /// Why the file at `path` is not (yet) a whole ELF shared object, or nil when it is: its
  /// header, program headers, loaded segments and section header table all fit in the file.
  /// A linker still writing, or a copy cut short, fails this.
  public static func incompleteness(of path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
    let size = Int(info.st_size)
    var header = [UInt8](repeating: 0, count: 64)
    let count = pread(fd, &header, 64, 0)
    guard count >= 4, header[0...3] == [0x7F, 0x45, 0x4C, 0x46] else {
      return count <= 0 ? "is empty" : "is not an ELF file"
    }
    guard count == 64, let loadable = Self.loadableSize(of: fd, fileSize: size) else {
      return "is cut short: its ELF header or segments end past its \(size) bytes"
    }
    func integer(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reversed().reduce(0) { $0 << 8 | Int($1) } }
    let sectionHeadersEnd = integer(header[0x28..<0x30]) + integer(header[0x3A..<0x3C]) * integer(header[0x3C..<0x3E])
    let end = max(loadable, sectionHeadersEnd)
    return end <= size ? nil : "is cut short: \(size) of at least \(end) bytes"
  }
}

