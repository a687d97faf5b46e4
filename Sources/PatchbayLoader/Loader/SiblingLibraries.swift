import Foundation
import PatchbayELF

/// The libraries a plugin finds beside its own file through `$ORIGIN` — a Swift plugin's
/// `libPatchbaySDK.so` — resolved from the plugin's original folder although the host loads a
/// generation copy from elsewhere.
///
/// ```swift
/// let siblings = SiblingLibraries(of: URL(fileURLWithPath: ".build/debug/libCounter.so"))
/// siblings.libraries.map(\.name)  // ["libPatchbaySDK.so"]
/// try siblings.checkAgainstLoaded(plugin: "libCounter.so")
/// ```
///
/// Before `dlopen` of the copy, ``PluginLoader`` links each one into the copy's folder (a
/// symbolic link to the original file), so the copy's `$ORIGIN` finds the plugin's own.
///
/// The dynamic linker resolves a needed name once per process: every later plugin that needs
/// `libPatchbaySDK.so` gets the one already loaded, whichever folder it came from. A plugin
/// whose folder holds another build of a library the app already runs is therefore refused
/// (its symbols would bind to code it was not built against), with a one-line reason. Two
/// folders holding the same build (same GNU build id) are one library.
struct SiblingLibraries: Sendable {
  /// A library beside the plugin that the plugin needs.
  struct Library: Sendable, Equatable {
    /// The `DT_NEEDED` name, as `libPatchbaySDK.so`.
    let name: String
    /// The original file, with symbolic links resolved.
    let path: String
    /// The linker's build id, or the file's device, inode, size and time when it has none.
    let build: String
  }

  let libraries: [Library]

  /// The needed libraries of the plugin at `plugin` that exist in its folder.
  init(of plugin: URL) {
    let fd = open(plugin.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      self.libraries = []
      return
    }
    defer { close(fd) }
    let folder = plugin.resolvingSymlinksInPath().deletingLastPathComponent()
    self.libraries = ELFImage.neededLibraries(of: fd).compactMap { name in
      guard !name.contains("/") else { return nil }
      let path = folder.appendingPathComponent(name).resolvingSymlinksInPath().path
      return Self.library(name: name, path: path)
    }
  }

  /// The library at `path`, if it is a regular file there.
  private static func library(name: String, path: String) -> Library? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let build =
      ELFImage.buildID(of: fd)
      ?? "file \(info.st_dev):\(info.st_ino), \(info.st_size) bytes, \(info.st_mtim.tv_sec)"
    return Library(name: name, path: path, build: build)
  }

  /// Refuses a plugin whose folder holds a different build of a library already loaded
  /// (`loaded`: ``ProcessLoads/libraries``).
  func checkAgainstLoaded(_ loaded: [String: Library], plugin file: String)
    throws(PluginLoadError)
  {
    for library in self.libraries {
      guard let running = loaded[library.name], running.build != library.build else { continue }
      throw PluginLoadError(
        file: file,
        "needs \(library.name) from its folder (build \(library.build.prefix(12))), but this app "
          + "already runs \(running.path) (build \(running.build.prefix(12))). The plugins of "
          + "one app link one SDK: build this one where that one was built"
          + (Self.buildFolder(of: running.path).map {
            " (swift build --scratch-path \($0); a `patchbay new` package's make does)"
          } ?? "") + ", or restart the app to use the rebuilt SDK."
      )
    }
  }

  /// The SwiftPM build folder (`…/.build`) a library lies in, if it lies in one.
  static func buildFolder(of library: String) -> String? {
    var folder = URL(fileURLWithPath: library).deletingLastPathComponent()
    while folder.path != "/" {
      if folder.lastPathComponent == ".build" { return folder.path }
      folder.deleteLastPathComponent()
    }
    return nil
  }

  /// Links each library into `folder` under its needed name; returns the links made.
  func link(into folder: URL) -> [URL] {
    self.libraries.compactMap { library in
      let link = folder.appendingPathComponent(library.name)
      unlink(link.path)
      return symlink(library.path, link.path) == 0 ? link : nil
    }
  }

  /// Records the libraries as loaded (the first of each name stays).
  func recordLoaded(in loaded: inout [String: Library]) {
    for library in self.libraries where loaded[library.name] == nil {
      loaded[library.name] = library
    }
  }
}
