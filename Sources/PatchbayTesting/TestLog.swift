import Patchbay

/// What a ``TestStore``'s reducer did, in order, for the test to assert.
final class TestLog<State, Action>: @unchecked Sendable {
  /// One reduced action and the state around it.
  struct Entry {
    let action: Action
    let before: State
    let after: State
    /// Whether reducing it returned an effect other than `.none` (sent actions only).
    var startedEffects = false
  }

  private struct Book {
    var lastState: State
    var sent: [Entry] = []
    var received: [Entry] = []
  }

  private let book: LockedValue<Book>

  init(initialState: State) {
    self.book = LockedValue(Book(lastState: initialState))
  }

  /// Records an action the test sent.
  func recordSent(_ action: Action, state: State, startedEffects: Bool) {
    self.book.withValue { book in
      book.sent.append(
        Entry(action: action, before: book.lastState, after: state, startedEffects: startedEffects)
      )
      book.lastState = state
    }
  }

  /// Records an action an effect sent.
  func recordReceived(_ action: Action, state: State) {
    self.book.withValue { book in
      book.received.append(Entry(action: action, before: book.lastState, after: state))
      book.lastState = state
    }
  }

  func takeSent() -> Entry? {
    self.book.withValue { $0.sent.isEmpty ? nil : $0.sent.removeFirst() }
  }

  var received: [Entry] {
    self.book.withValue { $0.received }
  }

  /// Removes and returns the received entries up to and including the first that `matches`;
  /// with `onlyFirst`, looks at the first entry only.
  func takeReceived(onlyFirst: Bool, where matches: (Action) -> Bool) -> (
    skipped: [Entry], match: Entry?
  ) {
    self.book.withValue { book in
      let candidates = onlyFirst ? book.received.prefix(1) : book.received[...]
      guard let index = candidates.firstIndex(where: { matches($0.action) }) else {
        return ([], nil)
      }
      let skipped = Array(book.received[..<index])
      let match = book.received[index]
      book.received.removeSubrange(...index)
      return (skipped, match)
    }
  }

  func takeAllReceived() -> [Entry] {
    self.book.withValue { book in
      defer { book.received.removeAll() }
      return book.received
    }
  }
}
