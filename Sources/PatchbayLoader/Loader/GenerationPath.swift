import Foundation
import PatchbayELF
import Synchronization

/// Where each load of a plugin is copied before `dlopen`, so every load is new code.
///
/// `dlopen` of a path it already opened returns the old image, and Swift images are never
/// unloaded (swiftlang/swift#75889). Copying each load to a unique path — as cr.h does — makes a
/// rebuilt `.so` load as a new generation beside the old one:
/// `<private folder>/libCounter.<generation>.<load>.so`, where `load` numbers every copy the
/// process made. The folder is this process's ``PrivateDirectory`` (mode 0700, a random name,
/// checked before every copy), unless one is given; a given folder must be private too.
///
/// The copy is written with `O_EXCL|O_NOFOLLOW`, mode 0500, and removed right after `dlopen`
/// (the mapping stays valid) unless `PATCHBAY_KEEP_GENERATIONS=1` is set, for debuggers and
/// profilers that need the file; those stay until the process exits.
public struct GenerationPath: Sendable {
  /// The folder given at creation; nil for this process's private folder.
  public let givenDirectory: URL?

  public init(directory: URL? = nil) {
    self.givenDirectory = directory
  }

  /// The folder holding the copies, made private when it does not exist yet, and checked.
  public func directory() throws -> URL {
    guard let given = self.givenDirectory else { return try PrivateDirectory.forThisProcess() }
    if mkdir(given.path, 0o700) != 0, errno != EEXIST {
      throw GenerationCopyError(path: given.path, errno: errno)
    }
    try PrivateDirectory.check(given)
    return given
  }

  /// Every copy this process made, numbered.
  private static let loads = Atomic<Int>(0)

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
  public func copy(_ source: URL, generation: Int, whole: Bool = false) throws -> URL {
    let directory = try self.directory()
    let stem = source.deletingPathExtension().lastPathComponent
    // Unique in the process: two folders' libCounter.so at the same generation must not share
    // a path, or dlopen would hand back the image it already opened under that name.
    let load = Self.loads.add(1, ordering: .relaxed).newValue
    let destination = directory.appendingPathComponent("\(stem).\(generation).\(load).so")
    unlink(destination.path)
    try Self.copyFile(
      from: source.path, to: destination.path, loadableOnly: !whole && !Self.keepsFiles)
    return destination
  }

  /// glibc's `copy_file_range` (Glibc's module map leaves it out: it is a GNU extension).
  private typealias CopyFileRange =
    @convention(c) (
      Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
    ) -> Int
  private static let copyFileRange: CopyFileRange? = dlsym(
    UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range"
  )
  .map { unsafeBitCast($0, to: CopyFileRange.self) }

  /// Copies a file's bytes with `copy_file_range`, falling back to read/write where the file
  /// systems cannot (EXDEV on old kernels, ENOSYS, EINVAL).
  ///
  /// With `loadableOnly`, an ELF64 file is cut after its last loaded byte and its header says
  /// it has no section headers (``ELFImage/loadableSize(of:)``); other files copy whole.
  static func copyFile(from source: String, to destination: String, loadableOnly: Bool = false)
    throws
  {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw GenerationCopyError(path: source, errno: errno) }
    defer { close(input) }
    // Never through a link, never over a file someone else put there; readable and
    // executable by this user only.
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o500)
    guard output >= 0 else { throw GenerationCopyError(path: destination, errno: errno) }
    defer { close(output) }
    var info = stat()
    guard fstat(input, &info) == 0 else { throw GenerationCopyError(path: source, errno: errno) }
    var remaining = Int(info.st_size)
    let loadable = loadableOnly ? ELFImage.loadableSize(of: input, fileSize: remaining) : nil
    if let loadable { remaining = loadable }
    defer { if loadable != nil { ELFImage.dropSectionHeaders(output) } }
    while remaining > 0 {
      let copied =
        Self.copyFileRange.map { $0(input, nil, output, nil, remaining, 0) }
        ?? {
          errno = ENOSYS; return -1
        }()
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
          let result = buffer.withUnsafeBytes {
            write(output, $0.baseAddress! + written, count - written)
          }
          if result < 0, errno == EINTR { continue }
          guard result > 0 else { throw GenerationCopyError(path: destination, errno: errno) }
          written += result
        }
      }
      break
    }
  }
}

/// A generation copy that failed: which file, and the system's reason.
struct GenerationCopyError: Error, CustomStringConvertible {
  let path: String
  let errno: Int32
  var description: String { "\(self.path): \(String(cString: strerror(self.errno)))" }
}
