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
@propertyWrapper
public struct PresentationState<State> {
  private var value: State?

  public init(wrappedValue: State?) {
    self.value = wrappedValue
  }

  /// The presented feature's state, or nil.
  public var wrappedValue: State? {
    get { self.value }
    set { self.value = newValue }
  }

  /// The wrapper itself, so operators can find it: `\.$destination`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: self.value as Any)
  }
}
