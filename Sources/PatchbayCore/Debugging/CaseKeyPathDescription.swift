import CasePaths

/// A case key path written as the user wrote it: `\.decrementButtonTapped`,
/// `\.todos[id: 3].checkBoxToggled`, `\.binding.text`.
///
/// ```swift
/// describeCaseKeyPath(\Counter.Action.Cases.decrementButtonTapped)  // "\.decrementButtonTapped"
/// ```
///
/// Swift prints a case key path as `\Case<Action>.<computed 0x… (Case<()>)>`, because its
/// components are computed. This builds a sample action through the path instead — with `()`,
/// an empty collection, `nil`, zero, or the all-zero value of a plain-data payload — and reads
/// the case names back from it. When no sample can be made (a payload struct with references,
/// say), it names the types: `a '(Int, String)' case of 'Feature.Action'`.
public func describeCaseKeyPath<Root, Value>(_ keyPath: CaseKeyPath<Root, Value>) -> String {
  let `case` = Case(keyPath)
  guard
    let sample = sampleValue(of: Value.self),
    let root = `case`._embed(sample) as? Root,
    `case`._extract(from: root) != nil
  else {
    return "a '\(Value.self)' case of '\(Root.self)'"
  }
  var path = "\\"
  appendCaseNames(of: root, stoppingAt: Value.self, to: &path)
  return path == "\\" ? "\\.self" : path
}

/// How a value that sits between an enum and its child describes its step in a key path:
/// `[id: 3]` for an identified element, `.text` for a binding.
public protocol CaseKeyPathComponentDescribing {
  /// The step this value adds to a case key path, and the value the path continues into (nil
  /// where the path ends here).
  var _caseKeyPathComponent: (description: String, next: Any?) { get }
}

private func appendCaseNames<Value>(
  of value: Any, stoppingAt _: Value.Type, to path: inout String
) {
  var current: Any = value
  for _ in 0..<32 {
    if let describing = current as? any CaseKeyPathComponentDescribing {
      let (component, next) = describing._caseKeyPathComponent
      path += component
      guard let next, !(type(of: next) == Value.self && Value.self != Void.self) else { return }
      current = next
      continue
    }
    let mirror = Mirror(reflecting: current)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, let label = child.label
    else {
      if mirror.displayStyle == .enum { path += ".\(caseName(of: current))" }
      return
    }
    path += ".\(label)"
    if type(of: child.value) == Value.self { return }
    current = child.value
  }
}

/// The name of a case without associated values (Mirror lists no children for it).
private func caseName(of value: Any) -> String {
  let description = String(describing: value)
  return description.split(separator: "(").first.map(String.init) ?? description
}

/// A value of `T` to send through a case path, when one can be made without knowing `T`.
private func sampleValue<T>(of _: T.Type) -> T? {
  if T.self == Void.self { return (() as! T) }
  if let type = T.self as? any ExpressibleByNilLiteral.Type { return makeNil(type) as? T }
  if let type = T.self as? any RangeReplaceableCollection.Type { return makeEmpty(type) as? T }
  if let type = T.self as? any SetAlgebra.Type { return makeEmptySet(type) as? T }
  if let type = T.self as? any ExpressibleByDictionaryLiteral.Type {
    return makeEmptyDictionary(type) as? T
  }
  if _isPOD(T.self), T.self != Never.self {
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: max(MemoryLayout<T>.size, 1), alignment: MemoryLayout<T>.alignment
    )
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: max(MemoryLayout<T>.size, 1))
    return buffer.load(as: T.self)
  }
  return nil
}

private func makeNil<T: ExpressibleByNilLiteral>(_: T.Type) -> T { nil }
private func makeEmpty<T: RangeReplaceableCollection>(_: T.Type) -> T { T() }
private func makeEmptySet<T: SetAlgebra>(_: T.Type) -> T { T() }
private func makeEmptyDictionary<T: ExpressibleByDictionaryLiteral>(_: T.Type) -> T { [:] }
