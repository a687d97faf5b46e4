import Foundation
import PatchbayPlugin

/// A timer whose ticks come from a file, for the tests of effects across a swap: its effect
/// reads the file from where it left off and sends one `tick` per byte, so a test makes each
/// tick happen (it appends a byte) and sees that none is lost or doubled, with no clock.
///
/// `libTicker.so` exports it, `libTickerRenamed.so` a build whose `tick` was renamed `beat`,
/// `libTickerResuming.so` one that restarts its effect itself (``PluginFeature/resume(_:)``),
/// `libTickerCrashing.so` one that also crashes on `pause`: four builds of one feature
/// (`dev.patchbay.fixture.ticker`), as a user's edits make them.
@Feature
public struct Ticker {
  public static let id = "dev.patchbay.fixture.ticker"

  public struct State: Codable, Equatable, Sendable {
    public var ticks = 0
    public var isRunning = false
    /// The file whose bytes are the ticks.
    public var source = ""
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Starts ticking: one tick per byte appended to `source`
    case start(source: String)
    /// Stops ticking
    case pause
    /// One tick
    @SentBy(.effect) case tick
  }

  enum CancelID { case ticking }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let source):
      guard !state.isRunning else { return .none }
      (state.isRunning, state.source) = (true, source)
      return ticks(from: source, skipping: state.ticks, as: Action.tick)
        .cancellable(id: CancelID.ticking, cancelInFlight: true)
    case .pause:
      state.isRunning = false
      return .cancel(id: CancelID.ticking)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// ``Ticker`` after an edit that renamed its `tick` to `beat`: the old build's effect sends
/// an action this one does not have.
@Feature
public struct TickerRenamed {
  public static let id = "dev.patchbay.fixture.ticker"
  public typealias State = Ticker.State

  public enum Action: Codable, Equatable, Sendable {
    /// Starts beating: one beat per byte appended to `source`
    case start(source: String)
    /// Stops beating
    case pause
    /// One beat
    @SentBy(.effect) case beat
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let source):
      guard !state.isRunning else { return .none }
      (state.isRunning, state.source) = (true, source)
      return ticks(from: source, skipping: state.ticks, as: Action.beat)
        .cancellable(id: Ticker.CancelID.ticking, cancelInFlight: true)
    case .pause:
      state.isRunning = false
      return .cancel(id: Ticker.CancelID.ticking)
    case .beat:
      state.ticks += 1
      return .none
    }
  }
}

/// ``Ticker`` with the lifecycle hook: after a swap its own code ticks, from where the state
/// says the old one stopped, and the old build's effect is cancelled.
public struct TickerResuming: TickerBuild {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Ticker().reduce(into: &state, action: action)
  }

  public static func resume(_ state: State) -> Effect<Action>? {
    guard state.isRunning else { return Effect.none }
    return ticks(from: state.source, skipping: state.ticks, as: Action.tick)
      .cancellable(id: Ticker.CancelID.ticking, cancelInFlight: true)
  }
}

/// ``TickerResuming`` in a build whose `pause` crashes: run isolated, a crash restarts its
/// process (and `resume` its tick), and a crash soon after a swap rolls the swap back.
public struct TickerCrashing: TickerBuild {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .pause = action { fatalError("this build of the ticker crashes on pause") }
    return Ticker().reduce(into: &state, action: action)
  }

  public static func resume(_ state: State) -> Effect<Action>? {
    TickerResuming.resume(state)
  }
}

/// A build of ``Ticker`` with its id, state and actions: only its code differs.
public protocol TickerBuild: PluginFeature where State == Ticker.State, Action == Ticker.Action {}

extension TickerBuild {
  public static var id: String { Ticker.id }
  public static var actions: [ActionSchema] { Ticker.actions }
  public static var initialState: State { State() }
}

/// Sends `action` once per byte of the file at `path` past its first `skipping` bytes (nil:
/// past those it has when the effect starts, as `tail -f` does), as bytes are appended, until
/// cancelled. It opens the file and seeks before its first suspension.
func ticks<Action: Sendable>(from path: String, skipping: Int?, as action: Action) -> Effect<Action>
{
  .run { send in
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    defer { close(file) }
    if let skipping { lseek(file, off_t(skipping), SEEK_SET) } else { lseek(file, 0, SEEK_END) }
    var buffer = [UInt8](repeating: 0, count: 64)
    while !Task.isCancelled {
      let count = read(file, &buffer, buffer.count)
      if count > 0 {
        for _ in 0..<count { await send(action) }
      } else {
        try? await Task.sleep(for: .milliseconds(2))
      }
    }
  }
}
