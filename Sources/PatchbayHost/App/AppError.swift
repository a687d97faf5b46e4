/// A command the running app refused: what was asked, why, and what to do. The app's state is
/// unchanged.
public struct AppError: Error, Equatable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
