import Foundation
import PatchbayPlugin

/// A combination lock with a fault that only four particular actions reach: what
/// `patchbay repro` is tested on (`libLock.so`; `libLockFixed.so` is the same lock mended: its
/// fourth digit is only a digit).
///
/// `dial(3)`, `dial(1)`, `dial(4)` open it, in that order, whatever comes between (`turn(by:)`
/// and other dials change nothing that matters); the fourth dial then picks the fault:
/// `dial(1)` crashes the reduce (an index past the end of the code), `dial(5)` hangs it, and
/// `dial(9)` makes the processor write NaN from then on. `dial(2)` crashes it only with the
/// dial at 10 or more (a `turn(by:)` is needed too: what shrinking arguments finds). `dial(7)` crashes once only: when the
/// file `$PATCHBAY_LOCK_FLAKY` names is there, and it removes it (a flaky failure).
///
/// ```text
/// dial(3) turn(by: 7) dial(8) dial(1) dial(4) dial(1)   → crash in reduce
/// ```
@Feature
public struct Lock: AudioFeature {
  public static let id = "dev.patchbay.fixture.lock"
  /// The first three digits; the fourth picks what goes wrong.
  static let code = [3, 1, 4]
  /// Whether this image is `libLockFixed.so` (its entry sets it before any call).
  nonisolated(unsafe) static var mended = false

  public struct State: Codable, Equatable, Sendable {
    /// How many of the code's digits were dialled, in order.
    public var progress = 0
    /// Where the dial points: what `turn(by:)` moves.
    public var position = 0
    /// Whether the processor writes NaN.
    public var jammed = false
  }

  public enum Action: Codable, Equatable, Sendable {
    /// Dials a digit
    case dial(Int)
    /// Turns the dial
    case turn(by: Int)
  }

  public struct Parameters: BitwiseCopyable, Sendable, Equatable {
    public var jammed: Bool
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .turn(let steps):
      state.position = (state.position + steps) % 100
    case .dial(let digit) where state.progress < Self.code.count:
      if digit == Self.code[state.progress] { state.progress += 1 }
    case .dial(let digit):
      Self.fault(digit, in: &state)
    }
    return .none
  }

  /// The fourth digit's fault: the bug `patchbay repro` finds. Mended in `libLockFixed.so`,
  /// and in a process whose `PATCHBAY_LOCK_MENDED` is set (the TestStore test repro writes).
  static func fault(_ digit: Int, in state: inout State) {
    guard !Self.mended, getenv("PATCHBAY_LOCK_MENDED") == nil else { return }
    switch digit {
    case 1: state.progress = Self.code[state.progress]  // past the end: a crash
    case 5: while state.progress > 0 { sched_yield() }  // never ends: a hang
    case 9: state.jammed = true  // NaN from the processor
    case 2 where state.position >= 10:  // a crash a turn must lead to
      state.progress = Self.code[state.progress]
    case 7:  // once: a flaky crash
      if let file = getenv("PATCHBAY_LOCK_FLAKY"), unlink(file) == 0 {
        state.progress = Self.code[state.progress]
      }
    default: return
    }
  }

  public static func render(_ state: State) -> String {
    "Lock: \(state.progress) of 4 digits, dial at \(state.position)"
  }

  public final class Processor: FeatureProcessor {
    public init(configuration: ProcessorConfiguration) {}

    public func process(_ period: ProcessorPeriod, parameters: Parameters) {
      guard parameters.jammed else { return }
      for index in 0..<period.frameCount * period.channelCount { period.output[index] += .nan }
    }
  }
}
