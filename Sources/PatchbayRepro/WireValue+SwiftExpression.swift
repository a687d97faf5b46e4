import PatchbayEncoding

extension WireValue {
  /// The value as Swift source, where its type is known from context (an action sent to a
  /// `TestStore`, a state's field): `.setStep(by: 5)` for the action text `setStep(by: 5)`.
  ///
  /// ```swift
  /// try WireValue(parsingAction: #"say(text: "hi", [1.5, nan])"#).swiftExpression
  /// // .say(text: "hi", [1.5, .nan])
  /// ```
  ///
  /// Cases are written with a leading dot, records as `.init(field: …)` (a struct's memberwise
  /// initializer, its fields in the order they are encoded, which is the order they are
  /// declared), strings as Swift literals, NaN and infinities by name.
  var swiftExpression: String {
    switch self {
    case .nil: "nil"
    case .bool(let value): value ? "true" : "false"
    case .int(let value): String(value)
    case .double(let value):
      value.isNaN
        ? ".nan" : value.isInfinite ? (value < 0 ? "-.infinity" : ".infinity") : "\(value)"
    case .string(let value): String(reflecting: value)
    case .list(let values): "[" + values.map(\.swiftExpression).joined(separator: ", ") + "]"
    case .record(let fields): ".init(\(Self.arguments(fields)))"
    case .case(let name, let fields):
      "." + Self.identifier(name) + (fields.isEmpty ? "" : "(\(Self.arguments(fields)))")
    }
  }

  /// `label: value, value`: a field named `_0`, `_1`, … by its position has no label.
  private static func arguments(_ fields: [Field]) -> String {
    fields.enumerated().map { index, field in
      (field.name == "_\(index)" ? "" : "\(Self.identifier(field.name)): ")
        + field.value.swiftExpression
    }.joined(separator: ", ")
  }

  /// A name that is a Swift keyword, in backticks.
  private static func identifier(_ name: String) -> String {
    Self.keywords.contains(name) ? "`\(name)`" : name
  }

  private static let keywords: Set<String> = [
    "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else",
    "enum", "extension", "fallthrough", "false", "for", "func", "guard", "if", "import", "in",
    "init", "is", "let", "nil", "operator", "private", "protocol", "public", "repeat",
    "return", "self", "static", "struct", "subscript", "super", "switch", "throw", "throws",
    "true", "try", "var", "where", "while",
  ]
}
