/// A parsed TOML file, keeping the line of every key so that config errors can point at it.
///
/// Patchbay reads the part of TOML that configs need: comments, `[tables]`,
/// `[[arrays of tables]]`, `key = value` with bare or quoted keys, and values that are strings
/// (basic and literal), integers, floats, booleans and arrays (one line or several).
/// Dotted keys, inline tables and dates are refused with a clear error.
public struct TOMLDocument: Sendable {
  /// A value and where it was written.
  public struct Value: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
      case string(String)
      case integer(Int64)
      case float(Double)
      case boolean(Bool)
      case array([Value])
    }

    public let kind: Kind
    public let line: Int

    /// What the value is, for error messages: "a string", "an integer", ….
    public var typeName: String {
      switch self.kind {
      case .string: "a string"
      case .integer: "an integer"
      case .float: "a float"
      case .boolean: "a boolean"
      case .array: "an array"
      }
    }
  }

  /// Keys and values of one table, in file order.
  public struct Table: Sendable {
    /// The table's name: "plugins", or "features[2]" for the third of an array of tables.
    public let name: String
    /// The line of the table's header (0 for the top level).
    public let line: Int
    public internal(set) var entries: [(key: String, value: Value)] = []

    public subscript(key: String) -> Value? {
      self.entries.first { $0.key == key }?.value
    }
  }

  /// Keys before the first header.
  public internal(set) var root = Table(name: "", line: 0)
  /// `[name]` tables.
  public internal(set) var tables: [String: Table] = [:]
  /// `[[name]]` arrays of tables.
  public internal(set) var arrays: [String: [Table]] = [:]
  /// Header names in file order, for "unknown table" errors.
  public internal(set) var headers: [(name: String, line: Int)] = []
}
