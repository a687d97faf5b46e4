import Foundation

/// A TOML syntax error: line, column and what was expected.
public struct TOMLSyntaxError: Error, Equatable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  public let reason: String

  public var description: String { "line \(self.line), column \(self.column): \(self.reason)" }
}

extension TOMLDocument {
  /// Parses TOML text (see ``TOMLDocument`` for the part of TOML supported).
  public init(parsing text: String) throws(TOMLSyntaxError) {
    var parser = TOMLParser(text)
    self = try parser.document()
  }
}

private struct TOMLParser {
  let scalars: [Unicode.Scalar]
  var index = 0
  var line = 1
  var lineStart = 0

  init(_ text: String) { self.scalars = Array(text.unicodeScalars) }

  var column: Int { self.index - self.lineStart + 1 }
  var peek: Unicode.Scalar? { self.index < self.scalars.count ? self.scalars[self.index] : nil }

  func fail(_ reason: String) -> TOMLSyntaxError {
    TOMLSyntaxError(line: self.line, column: self.column, reason: reason)
  }

  func found() -> String {
    guard let scalar = self.peek else { return "the end of the file" }
    return scalar == "\n" ? "the end of the line" : "'\(Character(scalar))'"
  }

  mutating func advance() {
    if self.peek == "\n" {
      self.line += 1
      self.lineStart = self.index + 1
    }
    self.index += 1
  }

  mutating func skipSpaces() {
    while let scalar = self.peek, scalar == " " || scalar == "\t" { self.index += 1 }
  }

  /// Skips spaces, comments and newlines (between array elements).
  mutating func skipBlank() {
    while let scalar = self.peek {
      if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
        self.advance()
      } else if scalar == "#" {
        while let next = self.peek, next != "\n" { self.index += 1 }
      } else {
        return
      }
    }
  }

  /// After a statement: only spaces and a comment may follow on the line.
  mutating func endOfLine() throws(TOMLSyntaxError) {
    self.skipSpaces()
    if self.peek == "#" {
      while let next = self.peek, next != "\n" { self.index += 1 }
    }
    if self.peek == "\r" { self.index += 1 }
    guard self.peek == nil || self.peek == "\n" else {
      throw self.fail("expected the end of the line, found \(self.found())")
    }
    if self.peek == "\n" { self.advance() }
  }

  mutating func document() throws(TOMLSyntaxError) -> TOMLDocument {
    var document = TOMLDocument()
    // Where `key = value` lines go: the root, a [table], or the last [[array]] element.
    enum Target { case root, table(String), array(String) }
    var target = Target.root
    while true {
      self.skipBlank()
      guard let scalar = self.peek else { break }
      if scalar == "[" {
        let headerLine = self.line
        self.index += 1
        let isArray = self.peek == "["
        if isArray { self.index += 1 }
        self.skipSpaces()
        let name = try self.key()
        self.skipSpaces()
        guard self.peek == "]" else {
          throw self.fail("expected ']' after the table name, found \(self.found())")
        }
        self.index += 1
        if isArray {
          guard self.peek == "]" else { throw self.fail("expected ']]' to close '[[\(name)'") }
          self.index += 1
        }
        try self.endOfLine()
        document.headers.append((name, headerLine))
        if isArray {
          if document.tables[name] != nil {
            throw TOMLSyntaxError(
              line: headerLine, column: 1,
              reason: "'\(name)' is already a [table]; it cannot also be an [[array of tables]]")
          }
          let count = document.arrays[name, default: []].count
          document.arrays[name, default: []].append(
            TOMLDocument.Table(name: "\(name)[\(count)]", line: headerLine))
          target = .array(name)
        } else {
          if document.tables[name] != nil || document.arrays[name] != nil {
            throw TOMLSyntaxError(
              line: headerLine, column: 1, reason: "table [\(name)] is defined twice")
          }
          document.tables[name] = TOMLDocument.Table(name: name, line: headerLine)
          target = .table(name)
        }
        continue
      }
      let keyLine = self.line
      let keyColumn = self.column
      let key = try self.key()
      self.skipSpaces()
      guard self.peek == "=" else {
        throw self.fail(
          self.peek == "."
            ? "dotted keys are not supported; use a [table] header"
            : "expected '=' after key '\(key)', found \(self.found())")
      }
      self.index += 1
      self.skipSpaces()
      let value = try self.value()
      try self.endOfLine()
      func add(_ table: inout TOMLDocument.Table) throws(TOMLSyntaxError) {
        if table[key] != nil {
          throw TOMLSyntaxError(
            line: keyLine, column: keyColumn,
            reason:
              "key '\(key)' is defined twice in \(table.name.isEmpty ? "the top level" : "[\(table.name)]")"
          )
        }
        table.entries.append((key, value))
      }
      switch target {
      case .root: try add(&document.root)
      case .table(let name): try add(&document.tables[name]!)
      case .array(let name):
        var tables = document.arrays[name]!
        try add(&tables[tables.count - 1])
        document.arrays[name] = tables
      }
    }
    return document
  }

  mutating func key() throws(TOMLSyntaxError) -> String {
    if self.peek == "\"" { return try self.basicString() }
    if self.peek == "'" { return try self.literalString() }
    var key = ""
    while let scalar = self.peek,
      scalar == "_" || scalar == "-" || scalar.properties.isASCIIHexDigit
        || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar)
    {
      key.unicodeScalars.append(scalar)
      self.index += 1
    }
    guard !key.isEmpty else { throw self.fail("expected a key, found \(self.found())") }
    return key
  }

  /// How deep arrays may nest: a config needs two or three levels, and each level is a frame
  /// of this recursive parser, so a file of 100,000 `[` must be an error, not a crash.
  static let maximumDepth = 32

  mutating func value(depth: Int = 0) throws(TOMLSyntaxError) -> TOMLDocument.Value {
    guard depth <= Self.maximumDepth else {
      throw self.fail("arrays nest deeper than \(Self.maximumDepth) levels")
    }
    let line = self.line
    guard let scalar = self.peek, scalar != "\n" else {
      throw self.fail("expected a value, found \(self.found())")
    }
    switch scalar {
    case "\"":
      return .init(kind: .string(try self.basicString()), line: line)
    case "'":
      return .init(kind: .string(try self.literalString()), line: line)
    case "[":
      self.index += 1
      var values: [TOMLDocument.Value] = []
      while true {
        self.skipBlank()
        if self.peek == "]" {
          self.index += 1
          return .init(kind: .array(values), line: line)
        }
        values.append(try self.value(depth: depth + 1))
        self.skipBlank()
        if self.peek == "," {
          self.index += 1
        } else if self.peek != "]" {
          throw self.fail("expected ',' or ']' in an array, found \(self.found())")
        }
      }
    case "{":
      throw self.fail("inline tables are not supported; use a [table] header")
    default:
      var word = ""
      while let next = self.peek, !" \t\r\n,]#".unicodeScalars.contains(next) {
        word.unicodeScalars.append(next)
        self.index += 1
      }
      switch word {
      case "true": return .init(kind: .boolean(true), line: line)
      case "false": return .init(kind: .boolean(false), line: line)
      default: break
      }
      let digits = word.replacingOccurrences(of: "_", with: "")
      if let integer = Int64(digits) { return .init(kind: .integer(integer), line: line) }
      if let float = Double(digits), float.isFinite,
        digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
      {
        return .init(kind: .float(float), line: line)
      }
      throw TOMLSyntaxError(
        line: line, column: self.column - word.unicodeScalars.count,
        reason: "'\(word)' is not a value (strings need quotes: \"\(word)\")")
    }
  }

  mutating func basicString() throws(TOMLSyntaxError) -> String {
    let startColumn = self.column
    self.index += 1
    var text = ""
    while let scalar = self.peek, scalar != "\n" {
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
        case "u", "U":
          let length = escaped == "u" ? 4 : 8
          var hex = ""
          for _ in 0..<length {
            guard let digit = self.peek else { break }
            hex.unicodeScalars.append(digit)
            self.index += 1
          }
          guard let value = UInt32(hex, radix: 16), let unicode = Unicode.Scalar(value) else {
            throw self.fail("'\\\(escaped)\(hex)' is not a Unicode scalar")
          }
          text.unicodeScalars.append(unicode)
        default:
          throw self.fail("unknown escape '\\\(Character(escaped))' in a string")
        }
      default:
        text.unicodeScalars.append(scalar)
      }
    }
    throw TOMLSyntaxError(
      line: self.line, column: startColumn, reason: "this string has no closing '\"' on its line")
  }

  mutating func literalString() throws(TOMLSyntaxError) -> String {
    let startColumn = self.column
    self.index += 1
    var text = ""
    while let scalar = self.peek, scalar != "\n" {
      self.index += 1
      if scalar == "'" { return text }
      text.unicodeScalars.append(scalar)
    }
    throw TOMLSyntaxError(
      line: self.line, column: startColumn, reason: "this string has no closing \"'\" on its line")
  }
}
