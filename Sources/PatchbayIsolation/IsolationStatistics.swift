import CPatchbayChannel

/// How the isolated processors of this process have kept time, summed over all of them: the
/// periods they delivered, the ones not back by the deadline (silence for that processor),
/// and the ones skipped while a process was still late or being restarted (silence too).
///
/// ```swift
/// let before = IsolationStatistics.periods
/// // … play …
/// IsolationStatistics.periods.late - before.late   // 0 on a machine that keeps up
/// ```
public enum IsolationStatistics {
  public struct Periods: Sendable, Equatable {
    public var rendered: UInt64
    public var late: UInt64
    public var skipped: UInt64
  }

  public static var periods: Periods {
    var counts = Periods(rendered: 0, late: 0, skipped: 0)
    pb_isolated_totals(&counts.rendered, &counts.late, &counts.skipped)
    return counts
  }
}
