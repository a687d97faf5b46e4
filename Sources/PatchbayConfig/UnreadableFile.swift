import Foundation

/// Why a file cannot be read, in the system's words and with what to do: what a config, a
/// script or a recording that will not open is reported with.
///
/// ```swift
/// UnreadableFile.reason("song.script")   // "no such file or directory (check the path)"
/// ```
package enum UnreadableFile {
  public static func reason(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    let code = errno
    var info = stat()
    if descriptor >= 0 {
      defer { close(descriptor) }
      if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        return "it is a folder (give a file)"
      }
      return "it is not UTF-8 text"
    }
    let words = String(cString: strerror(code)).lowercased()
    switch code {
    case ENOENT: return "\(words) (check the path)"
    case EACCES: return "\(words) (make it readable: chmod u+r \(path))"
    default: return words
    }
  }
}
