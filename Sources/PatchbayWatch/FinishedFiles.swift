import Foundation

/// Tells, through inotify, when a file in one of some folders is finished: closed after
/// writing, or renamed into place (what a linker, a compiler or an editor's save does last).
///
/// ```swift
/// let events = FinishedFiles(folders: [".build/debug"], queue: queue) { paths in
///   print(paths)  // ["/…/.build/debug/libCounter.so"]
/// }
/// // events is nil where the system has no inotify: poll instead.
/// ```
///
/// `handler` runs on `queue` with the full paths of a batch of events. Watching stops when the
/// value is released or ``cancel()`` is called.
///
/// `@unchecked Sendable`: its properties are immutable; the dispatch source reads the inotify
/// descriptor on `queue` only.
package final class FinishedFiles: @unchecked Sendable {
  private let source: DispatchSourceRead
  private let descriptor: Int32
  private let folders: [Int32: String]

  /// Nil when inotify is missing or no folder could be watched.
  package init?(
    folders: some Sequence<String>, queue: DispatchQueue,
    handler: @escaping @Sendable ([String]) -> Void
  ) {
    #if canImport(Glibc)
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      var watches: [Int32: String] = [:]
      for folder in Set(folders) {
        let watch = inotify_add_watch(descriptor, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO))
        if watch >= 0 { watches[watch] = folder }
      }
      guard !watches.isEmpty else {
        close(descriptor)
        return nil
      }
      self.descriptor = descriptor
      self.folders = watches
      self.source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
      self.source.setEventHandler { [descriptor, watches] in
        let paths = Self.read(descriptor, folders: watches)
        if !paths.isEmpty { handler(paths) }
      }
      self.source.setCancelHandler { close(descriptor) }
      self.source.resume()
    #else
      return nil
    #endif
  }

  /// Stops watching.
  package func cancel() { self.source.cancel() }

  deinit { self.source.cancel() }

  /// The paths of the events waiting on `descriptor`.
  private static func read(_ descriptor: Int32, folders: [Int32: String]) -> [String] {
    var paths: [String] = []
    #if canImport(Glibc)
      let size = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = Glibc.read(descriptor, buffer, size)
        guard count > 0 else { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = (buffer + offset).load(as: inotify_event.self)
          let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
          let name =
            event.len > 0
            ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
          if let folder = folders[event.wd], !name.isEmpty { paths.append(folder + "/" + name) }
          offset += MemoryLayout<inotify_event>.size + Int(event.len)
        }
      }
    #endif
    return paths
  }
}
