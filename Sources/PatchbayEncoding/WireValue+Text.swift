/// Why a text is not a valid action: the column (1-based) and what was expected there.
public struct ActionTextError: Error, Equatable, CustomStringConvertible {
  public let column: Int
  public let reason: String

  public var description: String { "column \(self.column): \(self.reason)" }
}

extension WireValue {
  /// Parses the text form of an action: `increment`, `setStep(by: 5)`, `say(text: "hi")`.
  ///
  /// Arguments without a label are labeled `_0`, `_1`, … by position, as Swift names
  /// unlabeled associated values. Values: integers, decimals, `true`, `false`, `nil`,
  /// double-quoted strings, `[lists]`, `{records: 1}` and nested `cases(…)`.
  ///
  /// The grammar is the one `patchbay/value.h` specifies, which `pb_parse_action_text` reads
  /// for plugins written in C: both accept the same texts and write the same bytes (the
  /// `action-text` fuzz target checks it).
  public init(parsingAction text: String) throws(ActionTextError) {
    var parser = TextParser(text)
    parser.skipSpaces()
    guard parser.peek != nil else {
      throw ActionTextError(column: 1, reason: "expected an action name, found nothing")
    }
    let value = try parser.caseValue(depth: 0)
    parser.skipSpaces()
    if let extra = parser.peek {
      throw ActionTextError(
        column: parser.column,
        reason: "unexpected '\(Character(extra))' after the action; put arguments in parentheses"
      )
    }
    self = value
  }

  /// The text form: `setStep(by: 5)` for a case, a literal for anything else.
  public var actionText: String {
    var text = ""
    self.writeText(to: &text)
    return text
  }

  private func writeText(to text: inout String) {
    switch self {
    case .nil:
      text += "nil"
    case .bool(let value):
      text += value ? "true" : "false"
    case .int(let value):
      text += String(value)
    case .double(let value):
      // Swift's shortest digits that read back: `2.5`, `100.0`, `1e-05`, `1e+16`.
      text += value.isFinite ? String(value) : value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
    case .string(let value):
      text += quoted(value)
    case .list(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += ", " }
        value.writeText(to: &text)
      }
      text += "]"
    case .record(let fields):
      text += "{"
      writeFields(fields, labelsAlways: true, to: &text)
      text += "}"
    case .case(let name, let fields):
      text += name
      if !fields.isEmpty {
        text += "("
        writeFields(fields, labelsAlways: false, to: &text)
        text += ")"
      }
    }
  }

  private func writeFields(_ fields: [Field], labelsAlways: Bool, to text: inout String) {
    for (index, field) in fields.enumerated() {
      if index > 0 { text += ", " }
      if labelsAlways || field.name != "_\(index)" { text += "\(field.name): " }
      field.value.writeText(to: &text)
    }
  }
}

/// `"a \"quoted\" string"` with `\\`, `\"`, `\n`, `\t`, `\r` and `\u{…}` escapes.
func quoted(_ string: String) -> String {
  escaped(string) { "\\u{\(String($0, radix: 16))}" }
}

/// `string` in double quotes, with quotes, backslashes, newlines, tabs and returns escaped
/// and other control characters written by `control`.
func escaped(_ string: String, control: (UInt32) -> String) -> String {
  var text = "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": text += "\\\""
    case "\\": text += "\\\\"
    case "\n": text += "\\n"
    case "\t": text += "\\t"
    case "\r": text += "\\r"
    case _ where scalar.value < 0x20 || scalar.value == 0x7F: text += control(scalar.value)
    default: text.unicodeScalars.append(scalar)
    }
  }
  return text + "\""
}

private struct TextParser {
  let scalars: [Unicode.Scalar]
  var index = 0

  init(_ text: String) { self.scalars = Array(text.unicodeScalars) }

  var column: Int { self.index + 1 }
  var peek: Unicode.Scalar? { self.index < self.scalars.count ? self.scalars[self.index] : nil }

  mutating func skipSpaces() {
    while let scalar = self.peek, scalar == " " || scalar == "\t" { self.index += 1 }
  }

  func fail(_ reason: String) -> ActionTextError {
    ActionTextError(column: self.column, reason: reason)
  }

  func found() -> String {
    self.peek.map { "'\(Character($0))'" } ?? "the end"
  }

  /// The deepest a value nests, as in the binary encoding (``WireValue/init(decoding:)``).
  static let maximumDepth = 64

  /// `[A-Za-z_][A-Za-z0-9_]*`.
  mutating func identifier() throws(ActionTextError) -> String {
    var name = ""
    while let scalar = self.peek, scalar.isNameStart || (!name.isEmpty && scalar.isDigit) {
      name.unicodeScalars.append(scalar)
      self.index += 1
    }
    guard !name.isEmpty else { throw self.fail("expected a name, found \(self.found())") }
    return name
  }

  mutating func caseValue(depth: Int) throws(ActionTextError) -> WireValue {
    let name = try self.identifier()
    self.skipSpaces()
    guard self.peek == "(" else { return .case(name, []) }
    self.index += 1
    return .case(
      name, try self.fields(closing: ")", inside: "'\(name)(…)'", depth: depth))
  }

  /// Fields up to `closing`, of a value at `depth`. Labels may be left out in a case (they are
  /// then `_0`, `_1`, …), not in a record.
  mutating func fields(closing: Unicode.Scalar, inside what: String, depth: Int)
    throws(ActionTextError) -> [WireValue.Field]
  {
    var fields: [WireValue.Field] = []
    self.skipSpaces()
    if self.peek == closing {
      self.index += 1
      return fields
    }
    while true {
      self.skipSpaces()
      let start = self.index
      var label = "_\(fields.count)"
      if let scalar = self.peek, scalar.isNameStart {
        let name = try self.identifier()
        self.skipSpaces()
        if self.peek == ":" {
          self.index += 1
          label = name
        } else {
          self.index = start  // a bare case or keyword value, not a label
        }
      }
      if closing == "}" && self.index == start {
        throw self.fail("expected 'label: value' in a record, found \(self.found())")
      }
      if fields.contains(where: { $0.name == label }) {
        throw ActionTextError(column: start + 1, reason: "'\(label)' is given twice in \(what)")
      }
      self.skipSpaces()
      fields.append(WireValue.Field(label, try self.value(depth: depth + 1)))
      self.skipSpaces()
      if self.peek == "," {
        self.index += 1
        continue
      }
      if self.peek == closing {
        self.index += 1
        return fields
      }
      throw self.fail(
        "expected ',' or '\(Character(closing))' in \(what), found \(self.found())"
      )
    }
  }

  mutating func value(depth: Int) throws(ActionTextError) -> WireValue {
    guard depth <= Self.maximumDepth else {
      throw self.fail("values nest deeper than \(Self.maximumDepth) levels")
    }
    guard let scalar = self.peek else { throw self.fail("expected a value, found the end") }
    switch scalar {
    case "\"":
      return .string(try self.string())
    case "[":
      self.index += 1
      var values: [WireValue] = []
      self.skipSpaces()
      if self.peek == "]" {
        self.index += 1
        return .list(values)
      }
      while true {
        self.skipSpaces()
        values.append(try self.value(depth: depth + 1))
        self.skipSpaces()
        if self.peek == "," {
          self.index += 1
        } else if self.peek == "]" {
          self.index += 1
          return .list(values)
        } else {
          throw self.fail("expected ',' or ']' in a list, found \(self.found())")
        }
      }
    case "{":
      self.index += 1
      return .record(try self.fields(closing: "}", inside: "a record", depth: depth))
    case "-", "+", "0"..."9", ".":
      return try self.number()
    default:
      guard scalar.isNameStart else {
        throw self.fail(
          "expected a value (number, \"string\", true, false, nil, [list], {record}), found \(self.found())"
        )
      }
      let start = self.index
      let word = try self.identifier()
      self.skipSpaces()
      if self.peek != "(" {
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil": return .nil
        default: break
        }
      }
      self.index = start
      return try self.caseValue(depth: depth)
    }
  }

  mutating func number() throws(ActionTextError) -> WireValue {
    let start = self.index
    var text = ""
    while let scalar = self.peek,
      scalar == "-" || scalar == "+" || scalar == "." || scalar == "e" || scalar == "E"
        || scalar == "_" || ("0"..."9").contains(scalar)
    {
      if scalar != "_" { text.unicodeScalars.append(scalar) }
      self.index += 1
    }
    if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
      if let int = Int64(text) { return .int(int) }
      let digits = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
      if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
        throw ActionTextError(
          column: start + 1,
          reason: "'\(text)' does not fit in a 64-bit integer; write \(text).0 for a decimal")
      }
    } else if let double = Double(text), double.isFinite {
      return .double(double)
    }
    throw ActionTextError(column: start + 1, reason: "'\(text)' is not a number")
  }

  mutating func string() throws(ActionTextError) -> String {
    let start = self.index
    self.index += 1
    var text = ""
    while let scalar = self.peek {
      self.index += 1
      switch scalar {
      case "\"":
        return text
      case "\\":
        guard let escaped = self.peek else { break }
        self.index += 1
        switch escaped {
        case "n": text += "\n"
        case "t": text += "\t"
        case "r": text += "\r"
        case "\"": text += "\""
        case "\\": text += "\\"
        case "u":
          text.unicodeScalars.append(try self.unicodeEscape())
        default:
          throw ActionTextError(
            column: self.index, reason: "unknown escape '\\\(Character(escaped))' in a string"
          )
        }
      default:
        text.unicodeScalars.append(scalar)
      }
    }
    throw ActionTextError(column: start + 1, reason: "a string starting here has no closing '\"'")
  }

  mutating func unicodeEscape() throws(ActionTextError) -> Unicode.Scalar {
    guard self.peek == "{" else { throw self.fail("expected '{' after '\\u'") }
    self.index += 1
    var hex = ""
    while let scalar = self.peek, scalar.properties.isASCIIHexDigit, hex.count < 8 {
      hex.unicodeScalars.append(scalar)
      self.index += 1
    }
    guard self.peek == "}", let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value)
    else {
      throw self.fail("expected a hexadecimal Unicode scalar in '\\u{…}'")
    }
    self.index += 1
    return scalar
  }
}

extension Unicode.Scalar {
  /// `A-Z`, `a-z` or `_`: what starts a name.
  fileprivate var isNameStart: Bool {
    ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_"
  }

  fileprivate var isDigit: Bool { ("0"..."9").contains(self) }
}
