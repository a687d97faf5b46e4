import PatchbayEmbedded

/// The bundled Counter in Embedded Swift, built as a WebAssembly plugin by
/// `make wasm-plugins` (.build/wasm/Counter.wasm): the native Counter's state, actions and
/// reducer, and its state hash after every action (the side-by-side tests check it). What
/// differs, because Embedded Swift for wasm32 has no concurrency runtime: `incrementLater`'s
/// delay is a timer the host holds (`.send(_:after:)`) rather than a sleeping task, and
/// `rampUp` sends its actions from the reducer rather than from a running effect.
@Feature
struct Counter {
  static let id: StaticString = "dev.patchbay.counter"
  static let summary: StaticString = "Counts up and down by a step."

  // Int64, not Int: Int is 32 bits in wasm32, and the native Counter counts to ±2⁶³.
  struct State {
    var count: Int64 = 0
    var step: Int64 = 1
    var pending: Int64 = 0
  }

  enum Action {
    /// Adds the step
    case increment
    /// Subtracts the step
    case decrement
    /// Back to zero
    case reset
    /// Sets the step
    case setStep(by: Int64)
    /// Adds the step after a delay
    case incrementLater(ms: Int64)
    /// Adds 1, 2, …, times, from an effect
    case rampUp(times: Int64)
    /// The delayed increment arriving
    @SentBy(.effect) case delayedIncrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
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
      return .send(.delayedIncrement, after: min(max(0, milliseconds), 86_400_000))
    case .rampUp(let times):
      return .send((1...min(max(1, times), 100)).flatMap { [.setStep(by: $0), .increment] })
    case .delayedIncrement:
      state.pending -= 1
      state.count = state.count.saturating(plus: state.step)
      return .none
    }
  }

  /// Reads back the state of its alternative implementation, as the native Counter does:
  /// schema 2 is `CounterAlt`'s `{value, stride, history, waiting}`. (`@Feature` sees this
  /// function and marks the feature as one that migrates.)
  static func migrate(from schemaVersion: UInt32, _ old: inout WireReader) -> State? {
    guard schemaVersion == 2, let fields = old.record() else { return nil }
    var state = State()
    var (value, stride): (Int64?, Int64?) = (nil, nil)
    for _ in 0..<fields {
      guard let label = old.label() else { return nil }
      switch label {
      case "value": value = old.int()
      case "stride": stride = old.int()
      case "waiting": state.pending = old.int() ?? 0
      default: guard old.skip() else { return nil }
      }
    }
    guard let value, let stride else { return nil }
    (state.count, state.step) = (value, stride)
    return state
  }

  static func render(_ state: State) -> String {
    var lines = ["Count: \(state.count)", "Step:  \(state.step)"]
    if state.pending > 0 { lines.append("Waiting for \(state.pending) delayed increment(s)…") }
    return lines.joined(separator: "\n")
  }
}

extension Int64 {
  /// `self + other`, stopping at `Int64.max` or `Int64.min` instead of trapping.
  fileprivate func saturating(plus other: Int64) -> Int64 {
    let (sum, overflow) = self.addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}

#plugin(
  id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0", features: [Counter.self])
