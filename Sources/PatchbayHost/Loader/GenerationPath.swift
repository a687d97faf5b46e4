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
  func copy(_ source: URL, generation: Int) throws -> URL {
    try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    let stem = source.deletingPathExtension().lastPathComponent
    let destination = self.directory.appendingPathComponent("\(stem).\(generation).so")
    try? FileManager.default.removeItem(at: destination)
    try FileManager.default.copyItem(at: source, to: destination)
    return destination
  }
}
