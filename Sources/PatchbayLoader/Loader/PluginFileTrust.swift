import Foundation

/// Refuses a plugin file that someone else could have written: code from there would run as
/// the user running Patchbay.
///
/// ```swift
/// try PluginFileTrust.check("/opt/plugins/libEcho.so")
/// // /opt/plugins/libEcho.so: is writable by others (mode 666): anyone here could replace the
/// // code Patchbay runs. chmod go-w it, or pass --allow-insecure-plugin-path.
/// ```
///
/// The file (a symbolic link is followed, and its target named) and the folder holding it
/// must belong to this user or to root, and be writable by neither group nor others. A
/// sticky folder (`/tmp`, mode 1777) counts as writable by others. `PluginLoader` runs this
/// before copying, unless its `allowsInsecurePaths` is set
/// (`--allow-insecure-plugin-path`).
enum PluginFileTrust {
  /// Why `path` is not to be trusted, or nil.
  static func problem(with path: String) -> String? {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
    let shown =
      target.path == URL(fileURLWithPath: path).standardizedFileURL.path
      ? "" : "(a link to \(target.path)) "
    for (what, url) in [
      ("is", target), ("is in a folder that is", target.deletingLastPathComponent()),
    ] {
      var info = stat()
      guard stat(url.path, &info) == 0 else { continue }  // locate and dlopen say what is missing
      if info.st_mode & 0o022 != 0 {
        let mode = String(info.st_mode & 0o7777, radix: 8)
        let writer = info.st_mode & 0o002 != 0 ? "others" : "its group"
        let place = what == "is" ? "" : " (\(url.path))"
        return "\(shown)\(what) writable by \(writer)\(place) (mode \(mode)): anyone who can "
          + "write there could replace the code Patchbay runs. chmod go-w it, move the plugin "
          + "to a folder of yours, or pass --allow-insecure-plugin-path."
      }
      if info.st_uid != 0, info.st_uid != geteuid() {
        let place = what == "is" ? "" : " (\(url.path))"
        return "\(shown)\(what) owned by uid \(info.st_uid)\(place), neither you nor root: that "
          + "user could replace the code Patchbay runs. Copy the plugin to a folder of yours, "
          + "or pass --allow-insecure-plugin-path."
      }
    }
    return nil
  }
}
