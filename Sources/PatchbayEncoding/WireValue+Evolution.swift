/// A state snapshot read by another build of its `State`: the fields the new build added take
/// the values of a template (the new build's start state), and the fields it no longer has
/// are named.
///
/// ```swift
/// let old: WireValue = .record(fields: ("seconds", 60), ("old", true))
/// let start: WireValue = .record(fields: ("seconds", 25), ("label", "practice"))
/// old.filled(from: start)      // {seconds: 60, old: true, label: "practice"}
/// old.fieldsNotIn(start)       // ["old"]
/// ```
///
/// Records are matched by field name at every depth (and an enum value's fields when both
/// hold the same case); lists and optionals that are nil in the template have no template for
/// what they hold.
extension WireValue {
  /// This value with every record field the template has and this one lacks added, with the
  /// template's value.
  public func filled(from template: WireValue) -> WireValue {
    switch (self, template) {
    case (.record(let fields), .record(let defaults)):
      return .record(Self.filled(fields, from: defaults))
    case (.case(let name, let fields), .case(let other, let defaults)) where name == other:
      return .case(name, Self.filled(fields, from: defaults))
    default:
      return self
    }
  }

  private static func filled(_ fields: [Field], from defaults: [Field]) -> [Field] {
    var result = fields.map { field in
      guard let template = defaults.first(where: { $0.name == field.name }) else { return field }
      return Field(field.name, field.value.filled(from: template.value))
    }
    for template in defaults where !fields.contains(where: { $0.name == template.name }) {
      result.append(template)
    }
    return result
  }

  /// The paths of the record fields this value has and `other` lacks (`old`, `timer.old`).
  public func fieldsNotIn(_ other: WireValue, at path: String = "") -> [String] {
    switch (self, other) {
    case (.record(let fields), .record(let others)),
      (.case(_, let fields), .case(_, let others)):
      return fields.flatMap { field -> [String] in
        let name = path.isEmpty ? field.name : "\(path).\(field.name)"
        guard let match = others.first(where: { $0.name == field.name }) else { return [name] }
        return field.value.fieldsNotIn(match.value, at: name)
      }
    default:
      return []
    }
  }

  /// The paths of the record fields `other` has and this value lacks.
  public func fieldsAdded(in other: WireValue) -> [String] {
    other.fieldsNotIn(self)
  }
}

extension WireValue {
  /// The value at a dotted path of record fields (`timer.lap`); nil when there is none.
  public func value(at path: String) -> WireValue? {
    path.split(separator: ".").reduce(Optional(self)) { value, name in
      guard case .record(let fields)? = value else { return nil }
      return fields.first { $0.name == name }?.value
    }
  }

  /// This value with the record field at the dotted path `old` renamed to the last part of
  /// `new` (both in one record), unless a field of that name is there already.
  public func renamingField(_ old: String, to new: String) -> WireValue {
    let path = old.split(separator: ".").map(String.init)
    guard let newName = new.split(separator: ".").last.map(String.init) else { return self }
    return self.renaming(path[...], to: newName)
  }

  private func renaming(_ path: ArraySlice<String>, to newName: String) -> WireValue {
    guard case .record(var fields) = self, let name = path.first,
      let index = fields.firstIndex(where: { $0.name == name })
    else { return self }
    if path.count == 1 {
      guard !fields.contains(where: { $0.name == newName }) else { return self }
      fields[index].name = newName
    } else {
      fields[index].value = fields[index].value.renaming(path.dropFirst(), to: newName)
    }
    return .record(fields)
  }
}
