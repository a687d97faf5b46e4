import PatchbayPlugin

/// Another implementation of `dev.patchbay.counter`: the same actions, a different state
/// (schema 2) and view. Swap it in while the app runs — `swap counter CounterAlt` — and the
/// count carries over through ``migrate(from:_:)``.
///
/// Schema 2 keeps the value, the step (as `stride`), the last five values (`history`), and
/// the delayed increments in flight (`waiting`): a swap keeps the effects that will finish
/// them, and their `delayedIncrement` reaches this code.
@Feature
public struct CounterAlt {
  public static let id = "dev.patchbay.counter"
  public static let name = "Counter (alternative)"
  public static let summary = "Counts up and down by a step, and shows where it has been."
  public static let schemaVersion: UInt32 = 2

  public struct State: Codable, Equatable, Sendable {
    public var value = 0
    public var stride = 1
    /// The last five values, oldest first.
    public var history: [Int] = []
    public var waiting = 0

    public init(value: Int = 0, stride: Int = 1, history: [Int] = [], waiting: Int = 0) {
      (self.value, self.stride, self.history, self.waiting) = (value, stride, history, waiting)
    }

    mutating func set(_ value: Int) {
      self.history = Array((self.history + [self.value]).suffix(5))
      self.value = value
    }
  }

  /// The same actions as `Counter`: a feature id is a promise about its actions.
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
      state.set(state.value.saturating(plus: state.stride))
      return .none
    case .decrement:
      state.set(state.value.saturating(plus: 0 &- state.stride))
      return .none
    case .reset:
      state.set(0)
      return .none
    case .setStep(let stride):
      state.stride = stride
      return .none
    case .incrementLater(let milliseconds):
      state.waiting += 1
      return .run { [clock] send in
        try await clock.sleep(for: .milliseconds(min(max(0, milliseconds), 86_400_000)))
        await send(.delayedIncrement)
      }
    case .rampUp(let times):
      return .run { send in
        for stride in 1...min(max(1, times), 100) {
          await send(.setStep(by: stride))
          await send(.increment)
        }
      }
    case .delayedIncrement:
      state.waiting = max(0, state.waiting - 1)
      state.set(state.value.saturating(plus: state.stride))
      return .none
    }
  }

  /// Schema 1 is `Counter`'s `{count, step, pending}`.
  public static func migrate(from schemaVersion: UInt32, _ state: WireValue) throws -> WireValue {
    guard schemaVersion == 1 else {
      throw PluginFeatureError(
        "\(Self.id) (CounterAlt) knows schemas 1 and 2, not \(schemaVersion)")
    }
    guard case .int(let count)? = state[field: "count"], case .int(let step)? = state[field: "step"]
    else {
      throw PluginFeatureError(
        "a schema 1 counter state has integer 'count' and 'step'; found \(state.json())")
    }
    let pending: Int64
    if case .int(let value)? = state[field: "pending"] { pending = value } else { pending = 0 }
    return .record(
      fields: ("value", .int(count)), ("stride", .int(step)), ("history", .list([])),
      ("waiting", .int(pending)))
  }

  public static func render(_ state: State) -> String {
    let trail = state.history.map(String.init).joined(separator: " → ")
    var lines = ["Value \(state.value) (step \(state.stride))"]
    if !trail.isEmpty { lines.append("Was: \(trail)") }
    if state.waiting > 0 { lines.append("\(state.waiting) increment(s) on the way") }
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
  id: "dev.patchbay.counter-alt-plugin", name: "CounterAlt", version: "2.0.0",
  features: [CounterAlt.self])
