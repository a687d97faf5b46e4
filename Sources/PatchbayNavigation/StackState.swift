import CustomDump
import IdentifiedCollections
import OrderedCollections
import PatchbayComposition
import PatchbayCore

/// The id of one screen in a ``StackState``: assigned in order (0, 1, 2, …) when the screen is
/// pushed, never reused within that stack, so tests can name screens deterministically.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  public let rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  public var description: String { "#\(self.rawValue)" }
}

/// A navigation stack as plain state: the screens pushed on top of a root, each with an id.
///
/// ```swift
/// struct App: Reducer {
///   struct State { var path = StackState<Path.State>() }
///   @CasePathable enum Action { case path(StackActionOf<Path>), openSettings }
///
///   var body: some Reducer<State, Action> {
///     Reduce { state, action in
///       if case .openSettings = action { state.path.append(.settings(Settings.State())) }
///       return .none
///     }
///     .forEach(\.path, action: \.path) { Path() }
///   }
/// }
/// ```
///
/// Removing a screen (``removeLast(_:)``, ``pop(from:)``, or a `popFrom` action) cancels its
/// effects.
public struct StackState<Element> {
  fileprivate struct Screen: Identifiable {
    let id: StackElementID
    var element: Element
  }

  fileprivate var screens: IdentifiedArrayOf<Screen>
  fileprivate var nextID: Int

  /// An empty stack.
  public init() {
    self.screens = []
    self.nextID = 0
  }

  /// A stack of `elements`, with ids 0, 1, 2, … from the bottom.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { self.append(element) }
  }

  /// The ids of the screens, from the bottom.
  public var ids: OrderedSet<StackElementID> {
    self.screens.ids
  }

  /// The id the next pushed screen gets.
  public var nextElementID: StackElementID {
    StackElementID(rawValue: self.nextID)
  }

  /// The screen with `id`, or nil; assigning nil removes it and the screens above it.
  public subscript(id id: StackElementID) -> Element? {
    get { self.screens[id: id]?.element }
    set {
      if let newValue {
        self.screens[id: id]?.element = newValue
      } else {
        self.pop(from: id)
      }
    }
  }

  /// Pushes a screen.
  public mutating func append(_ element: Element) {
    self.append(element, id: self.nextElementID)
  }

  /// Pushes a screen with a chosen id; ids after it are assigned from there.
  mutating func append(_ element: Element, id: StackElementID) {
    self.screens.append(Screen(id: id, element: element))
    self.nextID = Swift.max(self.nextID, id.rawValue + 1)
  }

  /// Removes the top `count` screens.
  public mutating func removeLast(_ count: Int = 1) {
    self.screens.removeLast(count)
  }

  /// Removes and returns the top screen, if any.
  @discardableResult
  public mutating func popLast() -> Element? {
    self.screens.popLast()?.element
  }

  /// Removes every screen.
  public mutating func removeAll() {
    self.screens.removeAll()
  }

  /// Removes the screen with `id` and every screen above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = self.screens.index(id: id) else { return }
    self.screens.removeSubrange(index...)
  }

  /// Removes every screen above the one with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = self.screens.index(id: id) else { return }
    self.screens.removeSubrange((index + 1)...)
  }
}

extension StackState: RandomAccessCollection, MutableCollection {
  public var startIndex: Int { self.screens.startIndex }
  public var endIndex: Int { self.screens.endIndex }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  public subscript(position: Int) -> Element {
    get { self.screens[position].element }
    set { self.screens[id: self.screens[position].id]?.element = newValue }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elementsEqual(rhs)
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(Array(self.ids))
    for element in self { hasher.combine(element) }
  }
}

extension StackState: Sendable where Element: Sendable {}
extension StackState.Screen: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: zip(self.ids, self).map { (label: $0.description, value: $1 as Any) },
      displayStyle: .dictionary
    )
  }
}

extension StackState: CustomStringConvertible {
  public var description: String {
    "StackState(\(zip(self.ids, self).map { "\($0): \($1)" }.joined(separator: ", ")))"
  }
}
