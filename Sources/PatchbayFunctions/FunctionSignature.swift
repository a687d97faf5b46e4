/// A function's C signature, parsed from its text (patchbay/functions.h):
/// `double(int32, double)`, `int32(int32, out_string)`, `void()`.
///
/// ```swift
/// let signature = try FunctionSignature(parsing: "double(int32, double)")
/// signature.returns       // .double
/// signature.parameters    // [.int32, .double]
/// signature.description   // "double(int32, double)"
/// ```
public struct FunctionSignature: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// One type of the grammar.
  public enum ValueType: String, Sendable, CaseIterable {
    case void, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, size, float
    case double, pointer, string, buffer
    case outString = "out_string"

    /// Types that may only be parameters.
    var isParameterOnly: Bool { self == .string || self == .buffer || self == .outString }
  }

  public let returns: ValueType
  public let parameters: [ValueType]

  public init(returns: ValueType, parameters: [ValueType]) {
    self.returns = returns
    self.parameters = parameters
  }

  /// The canonical text: single spaces after commas.
  public var description: String {
    "\(self.returns.rawValue)(\(self.parameters.map(\.rawValue).joined(separator: ", ")))"
  }

  /// The parameter the function writes its text into, if any.
  public var outStringIndex: Int? { self.parameters.firstIndex(of: .outString) }

  /// Parses `text`; errors name the column (1-based) and what was expected.
  public init(parsing text: String) throws(SignatureError) {
    var parser = SignatureParser(text: Array(text.utf8))
    let returns = try parser.type()
    if returns.isParameterOnly {
      throw SignatureError(
        column: 1,
        reason: "'\(returns.rawValue)' can only be a parameter; return void, a number, "
          + "bool or pointer (a function writes text through an out_string parameter)")
    }
    try parser.expect(UInt8(ascii: "("))
    var parameters: [ValueType] = []
    parser.skipSpaces()
    if parser.peek != UInt8(ascii: ")") {
      repeat {
        parser.skipSpaces()
        let column = parser.column
        let type = try parser.type()
        if type == .void {
          throw SignatureError(column: column, reason: "'void' can only be a return type")
        }
        if type == .outString, parameters.contains(.outString) {
          throw SignatureError(column: column, reason: "a function has at most one out_string")
        }
        parameters.append(type)
        parser.skipSpaces()
      } while parser.take(UInt8(ascii: ","))
    }
    try parser.expect(UInt8(ascii: ")"))
    parser.skipSpaces()
    if parser.peek != nil {
      throw SignatureError(column: parser.column, reason: "unexpected text after ')'")
    }
    if parameters.contains(.outString), ![.int32, .int64, .size].contains(returns) {
      throw SignatureError(
        column: 1,
        reason: "a function with an out_string returns the length it needs: int32, int64 or size")
    }
    self.init(returns: returns, parameters: parameters)
  }
}

/// Why a signature does not parse: the column (1-based) and what was expected there.
public struct SignatureError: Error, Equatable, CustomStringConvertible {
  public let column: Int
  public let reason: String
  public var description: String { "column \(self.column): \(self.reason)" }
}

private struct SignatureParser {
  let text: [UInt8]
  var index = 0

  var peek: UInt8? { self.index < self.text.count ? self.text[self.index] : nil }
  var column: Int { self.index + 1 }

  mutating func skipSpaces() {
    while let byte = self.peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
      self.index += 1
    }
  }

  mutating func take(_ byte: UInt8) -> Bool {
    self.skipSpaces()
    guard self.peek == byte else { return false }
    self.index += 1
    return true
  }

  mutating func expect(_ byte: UInt8) throws(SignatureError) {
    guard self.take(byte) else {
      let found = self.peek.map { "'\(Character(UnicodeScalar($0)))'" } ?? "the end"
      throw SignatureError(
        column: self.column, reason: "expected '\(Character(UnicodeScalar(byte)))', found \(found)")
    }
  }

  mutating func type() throws(SignatureError) -> FunctionSignature.ValueType {
    self.skipSpaces()
    let start = self.index
    while let byte = self.peek,
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    {
      self.index += 1
    }
    let word = String(decoding: self.text[start..<self.index], as: UTF8.self)
    guard let type = FunctionSignature.ValueType(rawValue: word) else {
      let known = FunctionSignature.ValueType.allCases.map(\.rawValue)
      throw SignatureError(
        column: start + 1,
        reason: word.isEmpty
          ? "expected a type"
          : "unknown type '\(word)'.\(suggestion(for: word, among: known)) Types: "
            + known.joined(separator: ", "))
    }
    return type
  }
}
