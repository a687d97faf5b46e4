/// The description of one action, for `patchbay inspect`, the CLI and parents.
///
/// ```swift
/// static let actions: [ActionSchema] = [
///   "increment",
///   .init("setStep", ["by": .int], summary: "Sets how much increment adds"),
/// ]
/// ```
public struct ActionSchema: Sendable, Equatable, ExpressibleByStringLiteral {
  /// The type of an action's field, as the value encoding names it.
  public enum FieldType: String, Sendable {
    case int, double, bool, string, list, record
    case `case`
  }

  public let name: String
  public let fields: [(name: String, type: FieldType)]
  public let summary: String

  /// An action with fields, in order.
  public init(
    _ name: String, _ fields: KeyValuePairs<String, FieldType> = [:], summary: String = ""
  ) {
    self.name = name
    self.fields = fields.map { ($0.key, $0.value) }
    self.summary = summary
  }

  /// An action without fields.
  public init(stringLiteral name: String) {
    self.init(name)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.name == rhs.name && lhs.summary == rhs.summary
      && lhs.fields.map(\.name) == rhs.fields.map(\.name)
      && lhs.fields.map(\.type) == rhs.fields.map(\.type)
  }
}
