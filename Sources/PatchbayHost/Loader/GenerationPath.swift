import Foundation

/// Where each load of a plugin is copied before `dlopen`, so every load is new code.
///
/// `dlopen` of a path it already opened returns the old image, and Swift images are never
/// unloaded (swiftlang/swift#75889). Copying each load to a unique path — as cr.h does — makes a
/// rebuilt `.so` load as a new generation beside the old one:
/// `$TMPDIR/patchbay-<pid>/Counter.3.so`.
///
/// The copy is removed right after `dlopen` (the mapping stays valid) unless
/// `PATCHBAY_KEEP_GENERATIONS=1` is set, for debuggers and profilers that need the file.
public struct GenerationPath: Sendable {
  /// The folder holding this process's generation copies.
  public let directory: URL

  public init(directory: URL? = nil) {
    self.directory =
      directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "patchbay-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true
      )
  }

  /// Whether generation copies are kept after loading.
  public static var keepsFiles: Bool {
    ProcessInfo.processInfo.environment["PATCHBAY_KEEP_GENERATIONS"] == "1"
  }

  /// Copies `source` to the path of `generation`; returns the copy.
  ///
  /// Only the bytes `dlopen` maps are copied — the file up to the end of its last `PT_LOAD`
  /// segment, with the section header table dropped — because a Swift plugin is two-thirds
  /// debug information (4 of 13 MB are loaded). The copy happens in the kernel
  /// (`copy_file_range`). With `PATCHBAY_KEEP_GENERATIONS=1` the whole file is copied, so
  /// debuggers and profilers find its symbols.
  public func copy(_ source: URL, generation: Int) throws -> URL {
    try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    let stem = source.deletingPathExtension().lastPathComponent
    let destination = self.directory.appendingPathComponent("\(stem).\(generation).so")
    unlink(destination.path)
    try Self.copyFile(from: source.path, to: destination.path, loadableOnly: !Self.keepsFiles)
    return destination
  }

  /// glibc's `copy_file_range` (Glibc's module map leaves it out: it is a GNU extension).
  private typealias CopyFileRange = @convention(c) (
    Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
  ) -> Int
  private static let copyFileRange: CopyFileRange? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range")
    .map { unsafeBitCast($0, to: CopyFileRange.self) }

  /// Copies a file's bytes with `copy_file_range`, falling back to read/write where the file
  /// systems cannot (EXDEV on old kernels, ENOSYS, EINVAL).
  ///
  /// With `loadableOnly`, an ELF64 file is cut after its last loaded byte and its header says
  /// it has no section headers (``ELFImage/loadableSize(of:)``); other files copy whole.
  static func copyFile(from source: String, to destination: String, loadableOnly: Bool = false) throws {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw GenerationCopyError(path: source, errno: errno) }
    defer { close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard output >= 0 else { throw GenerationCopyError(path: destination, errno: errno) }
    defer { close(output) }
    var info = stat()
    guard fstat(input, &info) == 0 else { throw GenerationCopyError(path: source, errno: errno) }
    var remaining = Int(info.st_size)
    let loadable = loadableOnly ? ELFImage.loadableSize(of: input, fileSize: remaining) : nil
    if let loadable { remaining = loadable }
    defer {
      if loadable != nil {
        // e_shoff, then (after e_flags, e_ehsize, e_phentsize, e_phnum, e_shentsize) e_shnum
        // and e_shstrndx: zero means "no section headers".
        var zero64: UInt64 = 0
        var zeroCounts: UInt32 = 0
        _ = pwrite(output, &zero64, 8, 0x28)
        _ = pwrite(output, &zeroCounts, 4, 0x3C)
      }
    }
    while remaining > 0 {
      let copied = Self.copyFileRange.map { $0(input, nil, output, nil, remaining, 0) } ?? { errno = ENOSYS; return -1 }()
      if copied > 0 {
        remaining -= copied
        continue
      }
      if copied == 0 { break }  // the file shrank while we copied; the ELF checks will say so
      if errno == EINTR { continue }
      guard errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP else {
        throw GenerationCopyError(path: destination, errno: errno)
      }
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { throw GenerationCopyError(path: source, errno: errno) }
        if count == 0 { break }
        var written = 0
        while written < count {
          let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
          if result < 0, errno == EINTR { continue }
          guard result > 0 else { throw GenerationCopyError(path: destination, errno: errno) }
          written += result
        }
      }
      break
    }
  }
}

/// Just enough ELF to know how much of a shared object `dlopen` reads.
enum ELFImage {
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
}

/// A generation copy that failed: which file, and the system's reason.
struct GenerationCopyError: Error, CustomStringConvertible {
  let path: String
  let errno: Int32
  var description: String { "\(self.path): \(String(cString: strerror(self.errno)))" }
}
