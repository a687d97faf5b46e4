import PatchbayEmbedded

/// A feature in Embedded Swift whose timers are cancellable by id: `set` rings after a delay
/// (a set alarm set again starts over: `cancelInFlight`), `cancel` stops it, and `other` starts
/// a timer under another id, which `cancel` leaves running.
@Feature
struct Alarm {
  static let id: StaticString = "dev.patchbay.alarm"

  struct State {
    var rings: Int64 = 0
  }

  enum Action {
    /// Rings after `ms`, instead of when it was set to
    case set(ms: Int64)
    /// Stops the alarm
    case cancel
    /// Rings after `ms`, under another id
    case other(ms: Int64)
    /// The alarm ringing
    @SentBy(.effect) case ring
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let milliseconds):
      return .send(.ring, after: milliseconds).cancellable(id: "alarm", cancelInFlight: true)
    case .cancel: return .cancel(id: "alarm")
    case .other(let milliseconds): return .send(.ring, after: milliseconds).cancellable(id: "other")
    case .ring: state.rings += 1
    }
    return .none
  }

  static func render(_ state: State) -> String { "rang \(state.rings)" }
}

#plugin(id: "dev.patchbay.alarm-plugin", name: "Alarm", version: "1.0.0", features: [Alarm.self])
