/// Any action, kept by its name (`beat`, `increment`): a parent hears a child's actions
/// (the config's `observe = ["metronome"]`) without knowing the child's action type.
///
/// ```swift
/// enum Action: Codable { case metronome(ActionName) … }
/// // reduce: case .metronome(let action) where action.name == "beat": …
/// ```
///
/// Decoding keeps the case's name and skips its fields; encoding writes the case without them.
public struct ActionName: Codable, Equatable, Sendable, ActionCaseField {
  public var name: String

  public init(_ name: String) { self.name = name }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Name.self)
    guard let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "expected an action"))
    }
    self.name = key.stringValue
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Name.self)
    try container.encode([String: Int](), forKey: Name(stringValue: self.name))
  }

  struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
