import Glibc

/// How long one reduce took on the app queue and how many effects it left running: what
/// DevTools' timeline shows beside each action. Taken only while someone journals the app's
/// actions (a page is attached): two clock reads, and the effect counts the caller passes
/// (for a plugin in this process, its `running_effects`; nil where asking would cost a round
/// trip to another process).
///
/// ```swift
/// let timing = ReduceTiming(effects: instance.effectCount)
/// _ = instance.reduce(action)
/// let taken = timing.ended(effects: instance.effectCount)  // .nanoseconds 1_830, .effects 1
/// ```
package struct ReduceTiming: Sendable {
  /// When the reduce started, in ``now``'s nanoseconds.
  package let start: UInt64
  /// How long it took.
  package private(set) var nanoseconds: UInt64 = 0
  /// The effects running before it; once ended, how many it added (nil: not known).
  package private(set) var effects: Int?

  package init(effects: Int?) {
    self.effects = effects
    self.start = Self.now
  }

  /// The same, finished, with the effects running now.
  package func ended(effects after: Int?) -> ReduceTiming {
    var ended = self
    ended.nanoseconds = Self.now &- self.start
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
