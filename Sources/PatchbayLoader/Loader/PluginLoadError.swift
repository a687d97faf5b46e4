/// Why a plugin could not be loaded: one line naming the file, what was wrong, and what to do.
public struct PluginLoadError: Error, Equatable, CustomStringConvertible {
  /// The file (or name) the error is about.
  public let file: String
  /// What was wrong and what to do.
  public let reason: String

  public init(file: String, _ reason: String) {
    self.file = file
    self.reason = reason
  }

  public var description: String { "\(self.file): \(self.reason)" }
}
