import Foundation
import PatchbayEncoding

/// What an action changed in a state, one line per changed value, from the two snapshots'
/// bytes: `/count: 0 → 1`, `/items/3: (none) → 7`. Empty when they are equal.
///
/// ```swift
/// stateDiff(before: counterAt0.bytes, after: counterAt1.bytes)
/// // "/count: 0 → 1"
/// ```
///
/// It costs what changed, not the whole state: equal parts are passed over with one
/// comparison of their bytes, and only changed values are decoded and written (as compact
/// JSON, cut at ``StateDiff/valueWidth`` characters). A state of 50 MB with one changed
/// counter costs a walk over its bytes, not 50 MB of JSON. At most ``StateDiff/maximumLines``
/// lines are written, then a count of the rest.
package enum StateDiff {
  package static let maximumLines = 40
  static let valueWidth = 120

  package static func lines(before: [UInt8]?, after: [UInt8], path: String = "") -> String {
    let shown = path.isEmpty ? "/" : path
    guard let before else { return "\(shown): (none) → " + Self.show(after[...]) }
    var differ = Differ(before: before, after: after)
    guard differ.compare(0..<before.count, 0..<after.count, path: path) else {
      return "\(shown): the state's bytes are not a value; `state` says where"
    }
    var lines = differ.lines
    if differ.more > 0 { lines.append("… and \(differ.more) more changed value(s)") }
    return lines.joined(separator: "\n")
  }

  /// What an action changed, for a program that keeps a copy of the state as JSON (DevTools):
  /// each changed value's JSON Pointer (RFC 6901) into ``WireValue/json(pretty:)``'s JSON, and
  /// its whole new JSON (nil: removed). Costs what changed, with no limit on how much; nil
  /// when the bytes are not values.
  ///
  /// ```swift
  /// StateDiff.changes(before: counterAt0.bytes, after: counterAt1.bytes)
  /// // [StateChange(pointer: "/count", json: "1")]
  /// ```
  package static func changes(before: [UInt8]?, after: [UInt8]) -> [StateChange]? {
    guard let before else {
      return Self.json(after[...]).map { [StateChange(pointer: "", json: $0)] }
    }
    var differ = Differ(before: before, after: after, forJSON: true)
    guard differ.compare(0..<before.count, 0..<after.count, path: ""), !differ.malformed else {
      return nil
    }
    return differ.changes
  }

  /// The fields of the record `bytes` encode, each with its value's bytes; nil when they are
  /// not a record.
  ///
  /// ```swift
  /// StateDiff.fields(of: counterAt1.bytes)   // [("count", [0x69, 1, 0, …]), ("step", …)]
  /// ```
  package static func fields(of bytes: [UInt8]) -> [(name: String, value: [UInt8])]? {
    guard bytes.first == WireValue.Tag.record.rawValue,
      let record = Extent.fields(of: bytes, 0..<bytes.count),
      (record.fields.last?.value.upperBound ?? 5) == bytes.count
    else { return nil }
    return record.fields.map { ($0.name, Array(bytes[$0.value])) }
  }

  /// A value's bytes as compact JSON, whole; nil when they are not a value.
  static func json(_ bytes: ArraySlice<UInt8>) -> String? {
    (try? WireValue(decoding: bytes))?.json()
  }

  /// A value's bytes as compact JSON, cut to ``valueWidth`` characters.
  static func show(_ bytes: ArraySlice<UInt8>) -> String {
    guard let value = try? WireValue(decoding: bytes) else { return "(not a value)" }
    let json = value.json()
    return json.count <= Self.valueWidth ? json : json.prefix(Self.valueWidth - 1) + "…"
  }
}

/// Walks two encodings side by side (patchbay/value.h), descending only where bytes differ.
private struct Differ {
  let before: [UInt8]
  let after: [UInt8]
  /// Whether paths follow the JSON (a case's fields under its name) and values are whole.
  let forJSON: Bool
  var lines: [String] = []
  var changes: [StateChange] = []
  /// Whether a changed value's bytes were not a value (the changes are then not told).
  var malformed = false
  var more = 0

  init(before: [UInt8], after: [UInt8], forJSON: Bool = false) {
    self.before = before
    self.after = after
    self.forJSON = forJSON
  }

  /// Whether two spans hold the same bytes (one memcmp).
  static func same(_ a: [UInt8], _ x: Range<Int>, _ b: [UInt8], _ y: Range<Int>) -> Bool {
    guard x.count == y.count else { return false }
    return a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        memcmp(a.baseAddress! + x.lowerBound, b.baseAddress! + y.lowerBound, x.count) == 0
      }
    }
  }

  /// Compares the values at `old` and `new`; false when either is malformed.
  mutating func compare(_ old: Range<Int>, _ new: Range<Int>, path: String) -> Bool {
    if Self.same(self.before, old, self.after, new) { return true }
    let oldTag = self.before[old.lowerBound]
    let newTag = self.after[new.lowerBound]
    if oldTag == newTag, oldTag == WireValue.Tag.list.rawValue {
      guard let oldItems = Extent.items(of: self.before, old),
        let newItems = Extent.items(of: self.after, new)
      else { return false }
      for index in 0..<max(oldItems.count, newItems.count) {
        let itemPath = "\(path)/\(index)"
        if index < oldItems.count && index < newItems.count {
          guard self.compare(oldItems[index], newItems[index], path: itemPath) else {
            return false
          }
        } else {
          self.changed(
            itemPath, index < oldItems.count ? oldItems[index] : nil,
            index < newItems.count ? newItems[index] : nil)
        }
      }
      return true
    }
    if oldTag == newTag,
      oldTag == WireValue.Tag.record.rawValue || oldTag == WireValue.Tag.case.rawValue,
      let oldFields = Extent.fields(of: self.before, old),
      let newFields = Extent.fields(of: self.after, new), oldFields.name == newFields.name
    {
      // In JSON, a case is an object with its name as the only key.
      let path =
        self.forJSON && oldTag == WireValue.Tag.case.rawValue
        ? "\(path)/\(StateChange.escaped(newFields.name))" : path
      for field in newFields.fields {
        let fieldPath = "\(path)/\(self.forJSON ? StateChange.escaped(field.name) : field.name)"
        if let match = oldFields.fields.first(where: { $0.name == field.name }) {
          guard self.compare(match.value, field.value, path: fieldPath) else { return false }
        } else {
          self.changed(fieldPath, nil, field.value)
        }
      }
      for field in oldFields.fields
      where !newFields.fields.contains(where: { $0.name == field.name }) {
        let name = self.forJSON ? StateChange.escaped(field.name) : field.name
        self.changed("\(path)/\(name)", field.value, nil)
      }
      return true
    }
    self.changed(path, old, new)
    return true
  }

  mutating func changed(_ path: String, _ old: Range<Int>?, _ new: Range<Int>?) {
    if self.forJSON {
      if let new {
        guard let json = StateDiff.json(self.after[new]) else {
          self.malformed = true
          return
        }
        self.changes.append(StateChange(pointer: path, json: json))
      } else {
        self.changes.append(StateChange(pointer: path, json: nil))
      }
      return
    }
    guard self.lines.count < StateDiff.maximumLines else {
      self.more += 1
      return
    }
    let shownOld = old.map { StateDiff.show(self.before[$0]) } ?? "(none)"
    let shownNew = new.map { StateDiff.show(self.after[$0]) } ?? "(none)"
    self.lines.append("\(path.isEmpty ? "/" : path): \(shownOld) → \(shownNew)")
  }
}

/// Where values lie in an encoding, found by skipping (no decoding, no copies).
private enum Extent {
  /// The end of the value starting at `start`, or nil when the bytes are malformed.
  static func end(of bytes: [UInt8], from start: Int, depth: Int = 0) -> Int? {
    guard depth <= 64, start < bytes.count, let tag = WireValue.Tag(rawValue: bytes[start])
    else { return nil }
    var at = start + 1
    switch tag {
    case .nil: return at
    case .bool: return at + 1 <= bytes.count ? at + 1 : nil
    case .int, .double: return at + 8 <= bytes.count ? at + 8 : nil
    case .string:
      guard let length = u32(bytes, at) else { return nil }
      return at + 4 + length <= bytes.count ? at + 4 + length : nil
    case .list:
      guard let count = u32(bytes, at) else { return nil }
      at += 4
      for _ in 0..<count {
        guard let end = end(of: bytes, from: at, depth: depth + 1) else { return nil }
        at = end
      }
      return at
    case .record, .case:
      if tag == .case {
        guard let name = nameEnd(bytes, at) else { return nil }
        at = name
      }
      guard let count = u32(bytes, at) else { return nil }
      at += 4
      for _ in 0..<count {
        guard let name = nameEnd(bytes, at), let end = end(of: bytes, from: name, depth: depth + 1)
        else { return nil }
        at = end
      }
      return at
    }
  }

  /// The items of the list at `range`.
  static func items(of bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>]? {
    guard let count = u32(bytes, range.lowerBound + 1) else { return nil }
    var items: [Range<Int>] = []
    var at = range.lowerBound + 5
    for _ in 0..<count {
      guard let end = end(of: bytes, from: at), end <= range.upperBound else { return nil }
      items.append(at..<end)
      at = end
    }
    return items
  }

  /// The case name (empty for a record) and fields of the record or case at `range`.
  static func fields(of bytes: [UInt8], _ range: Range<Int>)
    -> (name: String, fields: [(name: String, value: Range<Int>)])?
  {
    var at = range.lowerBound + 1
    var name = ""
    if bytes[range.lowerBound] == WireValue.Tag.case.rawValue {
      guard let end = nameEnd(bytes, at) else { return nil }
      name = String(decoding: bytes[(at + 2)..<end], as: UTF8.self)
      at = end
    }
    guard let count = u32(bytes, at) else { return nil }
    at += 4
    var fields: [(name: String, value: Range<Int>)] = []
    for _ in 0..<count {
      guard let nameEnd = nameEnd(bytes, at), let end = end(of: bytes, from: nameEnd),
        end <= range.upperBound
      else { return nil }
      fields.append((String(decoding: bytes[(at + 2)..<nameEnd], as: UTF8.self), nameEnd..<end))
      at = end
    }
    return (name, fields)
  }

  static func u32(_ bytes: [UInt8], _ at: Int) -> Int? {
    guard at + 4 <= bytes.count else { return nil }
    return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
      | Int(bytes[at + 3]) << 24
  }

  static func nameEnd(_ bytes: [UInt8], _ at: Int) -> Int? {
    guard at + 2 <= bytes.count else { return nil }
    let end = at + 2 + (Int(bytes[at]) | Int(bytes[at + 1]) << 8)
    return end <= bytes.count ? end : nil
  }
}
