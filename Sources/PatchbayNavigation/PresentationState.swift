import PatchbayComposition
import PatchbayCore

/// Optional state for a feature that is presented (a sheet, a popover, a dialog): nil while
/// nothing is on screen.
///
/// ```swift
/// struct Inventory: Reducer {
///   struct State: Equatable {
///     @PresentationState var addItem: AddItem.State?
///   }
///   @CasePathable enum Action { case addItem(PresentationAction<AddItem.Action>), addTapped }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       if case .addTapped = action { state.addItem = AddItem.State() }
///       return .none
///     }
///     .ifLet(\.$addItem, action: \.addItem) { AddItem() }
///   }
/// }
/// ```
///
/// Dismissing (the `dismiss` action, or setting the state to nil) cancels the presented
/// feature's effects.
///
/// The state is kept in a box, copied on write, so a feature can present itself: a sheet that
/// opens a sheet of its own kind (`@PresentationState var child: State?` inside `State`).
@propertyWrapper
public struct PresentationState<State> {
  private var storage: Storage

  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented feature's state, or nil.
  public var wrappedValue: State? {
    get { self.storage.value }
    set {
      if isKnownUniquelyReferenced(&self.storage) {
        self.storage.value = newValue
      } else {
        self.storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&self.storage) { self.storage = Storage(self.storage.value) }
      yield &self.storage.value
    }
  }

  /// The wrapper itself, so operators can find it: `\.$destination`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  private final class Storage: @unchecked Sendable {
    var value: State?
    init(_ value: State?) { self.value = value }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}
extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(self.wrappedValue) }
}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: self.wrappedValue as Any)
  }
}

/// Optional presented state, written as TCA writes it: `@Presents var destination:
/// Destination.State?`. The same wrapper as ``PresentationState``.
public typealias Presents<State> = PresentationState<State>
