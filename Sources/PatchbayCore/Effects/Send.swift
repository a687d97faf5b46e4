/// Sends actions from an effect back into the store that started it.
///
/// ```swift
/// return .run { send in
///   for await reading in sensor.readings() {
///     await send(.readingArrived(reading))
///   }
/// }
/// ```
///
/// Actions sent by one effect reach the reducer in the order they were sent. Sending to a
/// store that has gone away, or from an effect that was cancelled, does nothing.
public struct Send<Action>: @unchecked Sendable {
  @usableFromInline
  let send: @Sendable (Action) -> Void

  /// Creates a sender from a function; tests and adapters use it to observe what an effect
  /// sends.
  public init(send: @escaping @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends an action. Does nothing once the effect is cancelled.
  @inlinable
  nonisolated(nonsending) public func callAsFunction(_ action: Action) async {
    guard !Task.isCancelled else { return }
    self.send(action)
  }
}
