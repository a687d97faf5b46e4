import Synchronization

/// Callbacks told about new states, in the order they were added.
@usableFromInline
final class StateObservers<State>: @unchecked Sendable {
  private let table = LockedValue<(next: Int, callbacks: [(Int, (State) -> Void)])>((0, []))
  @usableFromInline let count = Atomic<Int>(0)

  /// Whether anyone is listening; checked before copying state for them.
  @inlinable var isActive: Bool { self.count.load(ordering: .relaxed) > 0 }

  @usableFromInline func add(_ callback: @escaping (State) -> Void) -> Int {
    self.table.withValue { table in
      let token = table.next
      table.next += 1
      table.callbacks.append((token, callback))
      self.count.add(1, ordering: .relaxed)
      return token
    }
  }

  @usableFromInline func remove(_ token: Int) {
    self.table.withValue { table in
      let before = table.callbacks.count
      table.callbacks.removeAll { $0.0 == token }
      self.count.subtract(before - table.callbacks.count, ordering: .relaxed)
    }
  }

  @usableFromInline func notify(_ state: State) {
    let callbacks = self.table.withValue { $0.callbacks }
    for (_, callback) in callbacks { callback(state) }
  }
}
