/// The description of one action, for `patchbay inspect`, the CLI and parents.
///
/// `@Feature` derives a feature's list from its `enum Action` (names, fields and their types,
/// summaries from doc comments, `@SentBy` marks); written by hand it reads:
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

  /// Who sends an action people should not (`@SentBy(.processor)`).
  public enum Sender: String, Sendable {
    /// The host: MIDI (`midi(…)`), shared state, navigation's lifecycle.
    case host
    /// The feature's processor, through its events.
    case processor
    /// The feature's own effects, or itself to its parent (`delegate(…)`).
    case effect
  }

  public let name: String
  public let fields: [(name: String, type: FieldType)]
  public let summary: String
  /// nil for an action people send.
  public let sentBy: Sender?

  /// An action with fields, in order: the list written by hand, before `@Feature` derived it.
  @available(
    *, deprecated,
    message: "let @Feature derive the list from enum Action (docs/MIGRATING.md)"
  )
  public init(
    _ name: String, _ fields: KeyValuePairs<String, FieldType> = [:], summary: String = ""
  ) {
    self.name = name
    self.fields = fields.map { ($0.key, $0.value) }
    self.summary = summary
    self.sentBy = nil
  }

  /// An action as `@Feature` derives it.
  public init(
    _ name: String, fields: [(String, FieldType)], summary: String = "", sentBy: Sender? = nil
  ) {
    self.name = name
    self.fields = fields.map { (name: $0.0, type: $0.1) }
    self.summary = summary
    self.sentBy = sentBy
  }

  /// An action without fields.
  @available(
    *, deprecated,
    message: "let @Feature derive the list from enum Action (docs/MIGRATING.md)"
  )
  public init(stringLiteral name: String) {
    self.init(name)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.name == rhs.name && lhs.summary == rhs.summary
      && lhs.fields.map(\.name) == rhs.fields.map(\.name)
      && lhs.fields.map(\.type) == rhs.fields.map(\.type) && lhs.sentBy == rhs.sentBy
  }
}

/// The type of an action's field, from its Swift type (what `@Feature` writes for each field):
/// numbers, strings and booleans by name, arrays as lists, ``MIDIMessage`` and types marked
/// ``ActionCaseField`` (enums) as cases, anything else as a record.
extension ActionSchema.FieldType {
  public static func of<T: BinaryInteger>(_: T.Type) -> Self { .int }
  public static func of<T: BinaryFloatingPoint>(_: T.Type) -> Self { .double }
  public static func of(_: Bool.Type) -> Self { .bool }
  public static func of(_: String.Type) -> Self { .string }
  public static func of<T>(_: [T].Type) -> Self { .list }
  public static func of<T: ActionCaseField>(_: T.Type) -> Self { .case }
  public static func of<T>(_: T.Type) -> Self { .record }
}

/// An enum carried in an action's field (`case midi(MIDIMessage)`): its schema type is `case`.
///
/// ```swift
/// enum Voice: Codable { case kick, snare }
/// extension Voice: ActionCaseField {}
/// ```
public protocol ActionCaseField {}

extension MIDIMessage: ActionCaseField {}
