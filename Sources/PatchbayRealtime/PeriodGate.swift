import Synchronization

/// Tells the app side when the audio thread has let go of what it published before: the
/// audio thread marks each period it starts and ends, and something taken out of the audio
/// thread's view is freed only after the period that might still see it has ended (deferred
/// reclamation; docs/ARCHITECTURE.md, "Audio and MIDI").
///
/// ```swift
/// // app side: publish the new set, then ask what the audio thread may still hold
/// current.store(newSet); let mark = gate.mark()
/// // … later, on the app side
/// if gate.hasPassed(mark) { free(oldSet) }
/// // audio thread, each period
/// gate.enter(); let set = current.load(); …; gate.leave()
/// ```
public final class PeriodGate: Sendable {
  /// The number of the period the audio thread is in (odd) or last finished (even).
  private let state = Atomic<UInt64>(0)

  public init() {}

  /// Where the audio thread is now, to check against later. [app side; after publishing]
  public func mark() -> UInt64 {
    self.state.load(ordering: .sequentiallyConsistent)
  }

  /// Whether nothing published before `mark` was taken can still be in use: the audio thread
  /// was between periods then, or has finished the period it was in. [app side]
  public func hasPassed(_ mark: UInt64) -> Bool {
    mark & 1 == 0 || self.state.load(ordering: .acquiring) > mark
  }

  /// The audio thread starts a period: load what it uses after this. [audio-thread]
  @inline(__always)
  public func enter() {
    let now = self.state.load(ordering: .relaxed)
    self.state.store(now | 1, ordering: .sequentiallyConsistent)
  }

  /// The audio thread is done with everything it loaded this period. [audio-thread]
  @inline(__always)
  public func leave() {
    let now = self.state.load(ordering: .relaxed)
    self.state.store(now + 1, ordering: .releasing)
  }
}
