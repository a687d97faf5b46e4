/// A value in the encoding actions and state use across the plugin ABI (`patchbay/value.h`).
///
/// ```swift
/// let action = WireValue.action("setStep", ("by", 5))
/// action.bytes            // the encoding a plugin's `reduce` receives
/// action.actionText       // "setStep(by: 5)"
/// try WireValue(parsingAction: "setStep(by: 5)") == action  // true
/// ```
///
/// The encoding describes itself, so a host can print any state as JSON and any action as
/// text without knowing the feature that made it.
public indirect enum WireValue: Equatable, Hashable, Sendable {
  case `nil`
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case list([WireValue])
  /// Named fields in order: a struct.
  case record([Field])
  /// A named case with labeled fields: an action, or an enum value.
  case `case`(String, [Field])

  /// A named field of a record or case.
  public struct Field: Equatable, Hashable, Sendable {
    public var name: String
    public var value: WireValue

    public init(_ name: String, _ value: WireValue) {
      self.name = name
      self.value = value
    }
  }

  /// An action: a case value from label/value pairs, `.action("say", ("text", "hi"))`.
  public static func action(_ name: String, _ fields: (String, WireValue)...) -> WireValue {
    .case(name, fields.map { Field($0.0, $0.1) })
  }

  /// A record value from name/value pairs: `.record(fields: ("count", 2))`.
  public static func record(fields: (String, WireValue)...) -> WireValue {
    .record(fields.map { Field($0.0, $0.1) })
  }

  /// The kind of value, as `inspect` and error messages name it: "int", "string", ….
  public var kindName: String {
    switch self {
    case .nil: "nil"
    case .bool: "bool"
    case .int: "int"
    case .double: "double"
    case .string: "string"
    case .list: "list"
    case .record: "record"
    case .case: "case"
    }
  }

  /// The value of the field named `name`, for records and cases.
  public subscript(field name: String) -> WireValue? {
    switch self {
    case .record(let fields), .case(_, let fields):
      fields.first { $0.name == name }?.value
    default:
      nil
    }
  }
}

extension WireValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral
{
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
}
