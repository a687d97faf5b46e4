import PatchbayPlugin

/// A counter: the smallest useful feature, and the one every benchmark uses.
///
/// Actions: `increment`, `decrement`, `reset`, `setStep(by: 5)`, `incrementLater(ms: 250)`,
/// which increments after a delay from an effect running inside the plugin, and
/// `rampUp(times: 3)`, whose effect sends `setStep(by: i)` and `increment` for i in 1…3. The
/// count stops at ±2⁶³ rather than overflowing, a delay is at most a day and a ramp at most
/// 100 steps (`patchbay validate` sends the edges: an unbounded ramp flooded the app queue).
@Feature
public struct Counter {
  public static let id = "dev.patchbay.counter"
  public static let summary = "Counts up and down by a step."

  public struct State: Codable, Equatable, Sendable {
    public var count = 0
    public var step = 1
    public var pending = 0

    public init(count: Int = 0, step: Int = 1, pending: Int = 0) {
      (self.count, self.step, self.pending) = (count, step, pending)
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Adds the step
    case increment
    /// Subtracts the step
    case decrement
    /// Back to zero
    case reset
    /// Sets the step
    case setStep(by: Int)
    /// Adds the step after a delay
    case incrementLater(ms: Int)
    /// Adds 1, 2, …, times, from an effect
    case rampUp(times: Int)
    /// The delayed increment arriving
    @SentBy(.effect) case delayedIncrement
  }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count = state.count.saturating(plus: state.step)
      return .none
    case .decrement:
      state.count = state.count.saturating(plus: 0 &- state.step)
      return .none
    case .reset:
      state.count = 0
      return .none
    case .setStep(let step):
      state.step = step
      return .none
    case .incrementLater(let milliseconds):
      state.pending += 1
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(min(max(0, milliseconds), 86_400_000)))
        await send(.delayedIncrement)
      }
    case .rampUp(let times):
      // Sends setStep(by: i), increment pairs: the count is right only if they arrive in order.
      return .run { send in
        for step in 1...min(max(1, times), 100) {
          await send(.setStep(by: step))
          await send(.increment)
        }
      }
    case .delayedIncrement:
      state.pending -= 1
      state.count = state.count.saturating(plus: state.step)
      return .none
    }
  }

  /// Reads back the state of its alternative implementation: schema 2 is `CounterAlt`'s
  /// `{value, stride, history, waiting}`, so a swap there and back keeps the count and the
  /// delayed increments in flight (their effects go on across a swap). (`@Feature`
  /// sees this function and marks the feature as one that migrates.)
  public static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
    guard schemaVersion == 2 else {
      throw PluginFeatureError("\(Self.id) (Counter) knows schemas 1 and 2, not \(schemaVersion)")
    }
    guard case .int(let value)? = state[field: "value"],
      case .int(let stride)? = state[field: "stride"]
    else {
      throw PluginFeatureError(
        "a schema 2 counter state has integer 'value' and 'stride'; found \(state.json())")
    }
    let waiting: Int64
    if case .int(let value)? = state[field: "waiting"] { waiting = value } else { waiting = 0 }
    return .record(
      fields: ("count", .int(value)), ("step", .int(stride)), ("pending", .int(waiting)))
  }

  public static func render(_ state: State) -> String {
    var lines = ["Count: \(state.count)", "Step:  \(state.step)"]
    if state.pending > 0 { lines.append("Waiting for \(state.pending) delayed increment(s)…") }
    return lines.joined(separator: "\n")
  }
}

extension Int {
  /// `self + other`, stopping at `Int.max` or `Int.min` instead of trapping.
  fileprivate func saturating(plus other: Int) -> Int {
    let (sum, overflow) = self.addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}

#plugin(
  id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0", features: [Counter.self])
