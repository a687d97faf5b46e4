import CPatchbayTicks
import Glibc

/// How long one reduce took on the app queue and how many effects it left running: what
/// DevTools' timeline shows beside each action. Taken only while someone journals the app's
/// actions (a page is attached): two reads of the CPU's tick counter (``TickClock`` turns
/// them into nanoseconds later, off the queue), and the effect counts the caller passes (for
/// a plugin in this process, its `running_effects`; nil where asking would cost a round trip
/// to another process).
///
/// ```swift
/// let timing = ReduceTiming(effects: instance.effectCount)
/// _ = instance.reduce(action)
/// let taken = timing.ended(effects: instance.effectCount)  // .ticks 5_310, .effects 1
/// clock.nanoseconds(taken.ticks)                           // 1_830
/// ```
package struct ReduceTiming: Sendable {
  /// When the reduce started, in ticks.
  package let start: UInt64
  /// How long it took, in ticks.
  package private(set) var ticks: UInt64 = 0
  /// The effects running before it; once ended, how many it added (nil: not known).
  package private(set) var effects: Int?

  package init(effects: Int?) {
    self.effects = effects
    self.start = pb_ticks()
  }

  /// The same, finished, with the effects running now.
  package func ended(effects after: Int?) -> ReduceTiming {
    var ended = self
    ended.ticks = pb_ticks() &- self.start
    ended.effects = self.effects.flatMap { before in after.map { max(0, $0 - before) } }
    return ended
  }

  /// The monotonic clock, in nanoseconds (one `clock_gettime`, no allocation).
  package static var now: UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}

/// Turns ticks (``ReduceTiming``) into the monotonic clock's nanoseconds, measuring the
/// counter's rate against that clock since it was made: the longer it runs, the closer.
///
/// ```swift
/// let clock = TickClock()
/// // … later …
/// clock.nanoseconds(timing.ticks)     // a duration
/// clock.time(of: timing.start)        // when, in ReduceTiming.now's nanoseconds
/// ```
package struct TickClock: Sendable {
  private let ticks0: UInt64
  private let nanoseconds0: UInt64

  package init() {
    self.nanoseconds0 = ReduceTiming.now
    self.ticks0 = pb_ticks()
  }

  /// Ticks per nanosecond, as measured since the clock was made (1 until a millisecond has
  /// passed).
  package var rate: Double {
    let (ticks, nanoseconds) = (pb_ticks() &- self.ticks0, ReduceTiming.now &- self.nanoseconds0)
    return nanoseconds < 1_000_000 ? 1 : Double(ticks) / Double(nanoseconds)
  }

  /// `ticks` as nanoseconds, at `rate`.
  package func nanoseconds(_ ticks: UInt64, rate: Double) -> UInt64 {
    UInt64(Double(ticks) / max(rate, 1e-9))
  }

  /// The tick count `ticks` as a time of ``ReduceTiming/now``.
  package func time(of ticks: UInt64, rate: Double) -> UInt64 {
    let since = Double(Int64(bitPattern: ticks &- self.ticks0)) / max(rate, 1e-9)
    return UInt64(max(0, Double(self.nanoseconds0) + since))
  }
}
