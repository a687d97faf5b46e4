import CasePaths
import CustomDump
import PatchbayCore

/// An action that sets one field of a feature's state: what a text field or a toggle sends.
///
/// ```swift
/// @Reducer
/// struct Settings {
///   @ObservableState
///   struct State: Equatable { var name = ""; var isOn = false }
///   enum Action: BindableAction { case binding(BindingAction<State>) }
///
///   var body: some ReducerOf<Self> {
///     BindingReducer()
///   }
/// }
///
/// store.send(.binding(.set(\.name, "Blob")))
/// ```
///
/// In a test, `await store.send(\.binding.name, "Blob") { $0.name = "Blob" }` sends the same.
/// Two binding actions are equal when they set the same field to equal values.
public struct BindingAction<Root>: CasePathable, Equatable, Sendable {
  /// The field this action sets.
  public let keyPath: _SendablePartialKeyPath<Root>

  @usableFromInline let set: @Sendable (inout Root) -> Void
  let value: any Sendable
  let valueIsEqualTo: @Sendable (Any) -> Bool

  /// An action that sets the field at `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: _SendableWritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      set: { $0[keyPath: keyPath] = value },
      value: value,
      valueIsEqualTo: { ($0 as? Value) == value }
    )
  }

  /// Whether this action sets the field at `keyPath`: `case .binding(\.name):` in a reducer.
  public static func ~= <Value>(
    keyPath: _SendableWritableKeyPath<Root, Value>, bindingAction: Self
  ) -> Bool {
    keyPath == bindingAction.keyPath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.valueIsEqualTo(rhs.value)
  }

  /// The binding actions of each field, so `\.binding.name` is a case key path.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: _SendableWritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> {
      AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: { $0.keyPath == keyPath ? $0.value as? Value : nil }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

/// A key path that may cross isolation domains (key path literals without captured state are).
public typealias _SendablePartialKeyPath<Root> = PartialKeyPath<Root> & Sendable

/// A writable key path that may cross isolation domains.
public typealias _SendableWritableKeyPath<Root, Value> = WritableKeyPath<Root, Value> & Sendable

extension BindingAction: CustomDumpStringConvertible {
  public var customDumpDescription: String {
    var value = ""
    customDump(self.value, to: &value, maxDepth: 0)
    return ".set(\\.\(self.fieldName), \(value))"
  }
}

extension BindingAction: CaseKeyPathComponentDescribing {
  public var _caseKeyPathComponent: (description: String, next: Any?) {
    (".\(self.fieldName)", nil)
  }
}

extension BindingAction {
  /// The field's path from the root, `name` or `settings.name`, read from the key path's
  /// description (`\Settings.State.name`).
  var fieldName: String {
    let description = String(describing: self.keyPath)
    let root = "\\\(String(reflecting: Root.self))."
    if description.hasPrefix(root) { return String(description.dropFirst(root.count)) }
    let shortRoot = "\\\(String(describing: Root.self))."
    if description.hasPrefix(shortRoot) { return String(description.dropFirst(shortRoot.count)) }
    return description.split(separator: ".").last.map(String.init) ?? description
  }
}
