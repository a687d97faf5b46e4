import PatchbayPlugin

/// A build of ``Ticker`` with no `resume`, whose effect follows its file from the end, as
/// `tail -f` does, and which crashes on a second `start` or a second `pause`: run isolated,
/// its new process starts again the effect the crash ended, from the `start` that began it,
/// and nothing else (`libTickerTailing.so`).
///
/// `start` also ticks once at once, from an effect that has ended by the time the crash comes:
/// a restart that ran it again would show as one tick too many.
public struct TickerTailing: TickerBuild {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let source):
      if state.isRunning { fatalError("this build of the ticker crashes on a second start") }
      (state.isRunning, state.source) = (true, source)
      return .merge(
        .run { send in await send(.tick) },
        ticks(from: source, skipping: nil, as: .tick).cancellable(id: Ticker.CancelID.ticking))
    case .pause:
      if !state.isRunning { fatalError("this build of the ticker crashes on a second pause") }
      state.isRunning = false
      return .cancel(id: Ticker.CancelID.ticking)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}
