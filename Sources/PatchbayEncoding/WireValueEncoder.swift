/// Turns `Encodable` values into ``WireValue``s: structs become records, arrays lists,
/// optionals `nil`, and an enum action `setStep(by: 5)` the case `setStep(by: 5)`.
///
/// ```swift
/// let value = try WireValueEncoder().encode(Counter.State(count: 2))
/// // .record(fields: ("count", 2))
/// let action = try WireValueEncoder().encodeAction(Counter.Action.setStep(by: 5))
/// // .action("setStep", ("by", 5))
/// ```
public struct WireValueEncoder: Sendable {
  public init() {}

  /// Encodes any value.
  public func encode(_ value: some Encodable) throws -> WireValue {
    let node = Node()
    try value.encode(to: NodeEncoder(node: node, codingPath: []))
    return node.resolved
  }

  /// Encodes an enum value as a case: Swift encodes `case name(label: …)` as a one-field
  /// record holding a record; this returns the case form actions use.
  public func encodeAction(_ action: some Encodable) throws -> WireValue {
    let value = try self.encode(action)
    if case .record(let fields) = value, fields.count == 1,
      case .record(let payload) = fields[0].value
    {
      return .case(fields[0].name, payload)
    }
    return value
  }
}

/// The value under construction at one coding path.
private final class Node {
  enum Content {
    case empty
    case value(WireValue)
    case keyed([(String, Node)])
    case unkeyed([Node])
  }

  var content = Content.empty

  var resolved: WireValue {
    switch self.content {
    case .empty: .record([])
    case .value(let value): value
    case .keyed(let fields): .record(fields.map { WireValue.Field($0.0, $0.1.resolved) })
    case .unkeyed(let nodes): .list(nodes.map(\.resolved))
    }
  }

  func child(forKey key: String) -> Node {
    var fields: [(String, Node)] = []
    if case .keyed(let existing) = self.content { fields = existing }
    if let existing = fields.first(where: { $0.0 == key }) { return existing.1 }
    let node = Node()
    fields.append((key, node))
    self.content = .keyed(fields)
    return node
  }

  func appendChild() -> Node {
    var nodes: [Node] = []
    if case .unkeyed(let existing) = self.content { nodes = existing }
    let node = Node()
    nodes.append(node)
    self.content = .unkeyed(nodes)
    return node
  }
}

private struct NodeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .empty = self.node.content { self.node.content = .keyed([]) }
    return KeyedEncodingContainer(
      KeyedNodeEncoder<Key>(node: self.node, codingPath: self.codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .empty = self.node.content { self.node.content = .unkeyed([]) }
    return UnkeyedNodeEncoder(node: self.node, codingPath: self.codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeEncoder(node: self.node, codingPath: self.codingPath)
  }
}

/// The `WireValue` of a primitive, or nil for types that encode themselves.
private func primitive(_ value: some Encodable, at path: [any CodingKey]) throws -> WireValue? {
  switch value {
  case let value as Bool: return .bool(value)
  case let value as String: return .string(value)
  case let value as Double: return .double(value)
  case let value as Float: return .double(Double(value))
  case let value as Int: return .int(Int64(value))
  case let value as Int8: return .int(Int64(value))
  case let value as Int16: return .int(Int64(value))
  case let value as Int32: return .int(Int64(value))
  case let value as Int64: return .int(value)
  case let value as UInt: return try unsigned(UInt64(value), at: path)
  case let value as UInt8: return .int(Int64(value))
  case let value as UInt16: return .int(Int64(value))
  case let value as UInt32: return .int(Int64(value))
  case let value as UInt64: return try unsigned(value, at: path)
  default: return nil
  }
}

private func unsigned(_ value: UInt64, at path: [any CodingKey]) throws -> WireValue {
  guard let int = Int64(exactly: value) else {
    throw EncodingError.invalidValue(
      value,
      .init(codingPath: path, debugDescription: "\(value) does not fit the encoding's 64-bit int")
    )
  }
  return .int(int)
}

private func encode(_ value: some Encodable, into node: Node, at path: [any CodingKey]) throws {
  if let primitive = try primitive(value, at: path) {
    node.content = .value(primitive)
  } else {
    try value.encode(to: NodeEncoder(node: node, codingPath: path))
  }
}

private struct KeyedNodeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {
    self.node.child(forKey: key.stringValue).content = .value(.nil)
  }

  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    try PatchbayEncoding.encode(
      value, into: self.node.child(forKey: key.stringValue), at: self.codingPath + [key]
    )
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = self.node.child(forKey: key.stringValue)
    child.content = .keyed([])
    return KeyedEncodingContainer(
      KeyedNodeEncoder<NestedKey>(node: child, codingPath: self.codingPath + [key])
    )
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = self.node.child(forKey: key.stringValue)
    child.content = .unkeyed([])
    return UnkeyedNodeEncoder(node: child, codingPath: self.codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: self.node.child(forKey: "super"), codingPath: self.codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    NodeEncoder(node: self.node.child(forKey: key.stringValue), codingPath: self.codingPath + [key])
  }
}

private struct UnkeyedNodeEncoder: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int {
    if case .unkeyed(let nodes) = self.node.content { return nodes.count }
    return 0
  }

  mutating func encodeNil() throws { self.node.appendChild().content = .value(.nil) }

  mutating func encode(_ value: some Encodable) throws {
    let path = self.codingPath + [IndexKey(self.count)]
    try PatchbayEncoding.encode(value, into: self.node.appendChild(), at: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let path = self.codingPath + [IndexKey(self.count)]
    let child = self.node.appendChild()
    child.content = .keyed([])
    return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = self.codingPath + [IndexKey(self.count)]
    let child = self.node.appendChild()
    child.content = .unkeyed([])
    return UnkeyedNodeEncoder(node: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: self.node.appendChild(), codingPath: self.codingPath)
  }
}

private struct SingleNodeEncoder: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { self.node.content = .value(.nil) }

  mutating func encode(_ value: some Encodable) throws {
    try PatchbayEncoding.encode(value, into: self.node, at: self.codingPath)
  }
}
