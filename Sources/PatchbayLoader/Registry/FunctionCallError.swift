/// A call to a plugin's exported function that failed: which function, and why.
///
/// ```swift
/// try theory.function("note_frequency")!.call([69])
/// // Theory.note_frequency: takes 2 argument(s) (double(int32, double)), got 1
/// ```
public struct FunctionCallError: Error, Equatable, CustomStringConvertible {
  /// `Plugin.function`.
  public let function: String
  public let reason: String

  public init(function: String, reason: String) {
    self.function = function
    self.reason = reason
  }

  public var description: String { "\(self.function): \(self.reason)" }
}
