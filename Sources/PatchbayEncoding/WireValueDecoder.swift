/// Turns ``WireValue``s back into `Decodable` values; the inverse of ``WireValueEncoder``.
///
/// ```swift
/// let state = try WireValueDecoder().decode(Counter.State.self, from: value)
/// let action = try WireValueDecoder().decodeAction(Counter.Action.self, from: .case("increment", []))
/// ```
///
/// Errors name the field path and what was expected: `field 'by': expected an int, found a
/// string`.
public struct WireValueDecoder: Sendable {
  /// Values a record of each type is filled from before it is decoded (``WireValue/filled(from:)``):
  /// a type's fields that a value lacks take the template's. Empty: a missing field is an error.
  let templates: Templates

  public init() { self.templates = [:] }

  /// A decoder that fills records from `templates`, by type: the start values of a state's
  /// structs, so a snapshot of an earlier build of them reads (docs/SWAP.md).
  public init(templates: [ObjectIdentifier: WireValue]) { self.templates = templates }

  public func decode<T: Decodable>(_ type: T.Type, from value: WireValue) throws -> T {
    try decodeValue(type, from: value, at: [], templates: self.templates)
  }

  /// Decodes an enum value from its case form (see ``WireValueEncoder/encodeAction(_:)``).
  public func decodeAction<T: Decodable>(_ type: T.Type, from value: WireValue) throws -> T {
    if case .case(let name, let fields) = value {
      return try self.decode(type, from: .record([WireValue.Field(name, .record(fields))]))
    }
    return try self.decode(type, from: value)
  }
}

/// A decoding failure, described for people: the field path and the mismatch.
public struct WireValueDecodingError: Error, CustomStringConvertible {
  public let path: String
  public let reason: String

  public var description: String {
    self.path.isEmpty ? self.reason : "field '\(self.path)': \(self.reason)"
  }
}

private func pathText(_ path: [any CodingKey]) -> String {
  path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
}

private func mismatch(_ expected: String, _ value: WireValue, at path: [any CodingKey]) -> any Error
{
  WireValueDecodingError(
    path: pathText(path), reason: "expected \(expected), found \(article(value.kindName))"
  )
}

private func article(_ kind: String) -> String {
  (kind.first.map { "aeiou".contains($0) } ?? false) ? "an \(kind)" : "a \(kind)"
}

typealias Templates = [ObjectIdentifier: WireValue]

private func decodeValue<T: Decodable>(
  _ type: T.Type, from value: WireValue, at path: [any CodingKey], templates: Templates
)
  throws -> T
{
  if let primitive = try decodePrimitive(type, from: value, at: path) { return primitive }
  var value = value
  if !templates.isEmpty, case .record = value, let template = templates[ObjectIdentifier(T.self)] {
    value = value.filled(from: template)
  }
  return try T(from: ValueDecoder(value: value, codingPath: path, templates: templates))
}

private func integer<I: FixedWidthInteger>(
  _: I.Type, from value: WireValue, at path: [any CodingKey]
)
  throws -> I
{
  guard case .int(let int) = value else { throw mismatch("an int", value, at: path) }
  guard let result = I(exactly: int) else {
    throw WireValueDecodingError(path: pathText(path), reason: "\(int) does not fit \(I.self)")
  }
  return result
}

private func decodePrimitive<T>(_ type: T.Type, from value: WireValue, at path: [any CodingKey])
  throws -> T?
{
  switch type {
  case is Bool.Type:
    guard case .bool(let bool) = value else { throw mismatch("a bool", value, at: path) }
    return bool as? T
  case is String.Type:
    guard case .string(let string) = value else { throw mismatch("a string", value, at: path) }
    return string as? T
  case is Double.Type, is Float.Type:
    let double: Double
    switch value {
    case .double(let value): double = value
    case .int(let value): double = Double(value)
    default: throw mismatch("a double", value, at: path)
    }
    return (type is Float.Type ? Float(double) as Any : double as Any) as? T
  case is Int.Type: return try integer(Int.self, from: value, at: path) as? T
  case is Int8.Type: return try integer(Int8.self, from: value, at: path) as? T
  case is Int16.Type: return try integer(Int16.self, from: value, at: path) as? T
  case is Int32.Type: return try integer(Int32.self, from: value, at: path) as? T
  case is Int64.Type: return try integer(Int64.self, from: value, at: path) as? T
  case is UInt.Type: return try integer(UInt.self, from: value, at: path) as? T
  case is UInt8.Type: return try integer(UInt8.self, from: value, at: path) as? T
  case is UInt16.Type: return try integer(UInt16.self, from: value, at: path) as? T
  case is UInt32.Type: return try integer(UInt32.self, from: value, at: path) as? T
  case is UInt64.Type: return try integer(UInt64.self, from: value, at: path) as? T
  default: return nil
  }
}

private struct ValueDecoder: Decoder {
  let value: WireValue
  let codingPath: [any CodingKey]
  let templates: Templates
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch self.value {
    case .record(let fields):
      return KeyedDecodingContainer(
        KeyedValueDecoder<Key>(
          fields: fields, codingPath: self.codingPath, templates: self.templates)
      )
    case .case(let name, let fields):
      // An enum value nested inside a state or action.
      return KeyedDecodingContainer(
        KeyedValueDecoder<Key>(
          fields: [WireValue.Field(name, .record(fields))], codingPath: self.codingPath,
          templates: self.templates)
      )
    default:
      throw mismatch("a record", self.value, at: self.codingPath)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .list(let values) = self.value else {
      throw mismatch("a list", self.value, at: self.codingPath)
    }
    return UnkeyedValueDecoder(
      values: values, codingPath: self.codingPath, templates: self.templates)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueDecoder(value: self.value, codingPath: self.codingPath, templates: self.templates)
  }
}

private struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let fields: [WireValue.Field]
  let codingPath: [any CodingKey]
  let templates: Templates

  var allKeys: [Key] { self.fields.compactMap { Key(stringValue: $0.name) } }

  func contains(_ key: Key) -> Bool { self.fields.contains { $0.name == key.stringValue } }

  func field(_ key: Key) throws -> WireValue {
    guard let field = self.fields.first(where: { $0.name == key.stringValue }) else {
      let known = self.fields.map { "'\($0.name)'" }.joined(separator: ", ")
      throw WireValueDecodingError(
        path: pathText(self.codingPath + [key]),
        reason: "missing (the value has \(known.isEmpty ? "no fields" : known))"
      )
    }
    return field.value
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    (try? self.field(key)) == .nil
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(
      type, from: try self.field(key), at: self.codingPath + [key], templates: self.templates)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard self.contains(key), let value = try? self.field(key), value != .nil else { return nil }
    return try decodeValue(
      type, from: value, at: self.codingPath + [key], templates: self.templates)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try ValueDecoder(
      value: try self.field(key), codingPath: self.codingPath + [key], templates: self.templates
    )
    .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(
      value: try self.field(key), codingPath: self.codingPath + [key], templates: self.templates
    )
    .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(
      value: (try? self.field(Key(stringValue: "super")!)) ?? .nil, codingPath: self.codingPath,
      templates: self.templates)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(
      value: try self.field(key), codingPath: self.codingPath + [key], templates: self.templates)
  }
}

private struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
  let values: [WireValue]
  let codingPath: [any CodingKey]
  let templates: Templates
  var currentIndex = 0

  init(values: [WireValue], codingPath: [any CodingKey], templates: Templates) {
    self.values = values
    self.codingPath = codingPath
    self.templates = templates
  }

  var count: Int? { self.values.count }
  var isAtEnd: Bool { self.currentIndex >= self.values.count }

  mutating func next() throws -> (WireValue, [any CodingKey]) {
    guard !self.isAtEnd else {
      throw WireValueDecodingError(
        path: pathText(self.codingPath), reason: "the list has only \(self.values.count) elements"
      )
    }
    defer { self.currentIndex += 1 }
    return (self.values[self.currentIndex], self.codingPath + [IndexKey(self.currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !self.isAtEnd, self.values[self.currentIndex] == .nil else { return false }
    self.currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, path) = try self.next()
    return try decodeValue(type, from: value, at: path, templates: self.templates)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (value, path) = try self.next()
    return try ValueDecoder(value: value, codingPath: path, templates: self.templates).container(
      keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, path) = try self.next()
    return try ValueDecoder(value: value, codingPath: path, templates: self.templates)
      .unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, path) = try self.next()
    return ValueDecoder(value: value, codingPath: path, templates: self.templates)
  }
}

private struct SingleValueDecoder: SingleValueDecodingContainer {
  let value: WireValue
  let codingPath: [any CodingKey]
  let templates: Templates

  func decodeNil() -> Bool { self.value == .nil }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeValue(type, from: self.value, at: self.codingPath, templates: self.templates)
  }
}
