import Foundation
import PatchbayPlot

/// What a growth curve is held to (issue 44's floors), and whether a run's curve holds it.
///
/// ```swift
/// GrowthFloor.of(curve)?.holds(curve, among: run)   // nil: the curve has no floor, only a picture
/// ```
enum GrowthFloor {
  /// The largest size's median is at most this many times the smallest's: flat.
  case flat(within: Double)
  /// The slope is at most this: O(log N) or better shows as under 0.1 across five decades.
  case slope(atMost: Double)
  /// Every size's median is at most this (in the curve's unit).
  case atMost(Double)
  /// At the largest size, the median is at most `ratio` times the reference curve's there:
  /// what grows is the reference's (a data structure the user chose), not Patchbay's.
  case withinReference(String, ratio: Double)

  static func of(_ curve: GrowthCurve) -> GrowthFloor? {
    switch curve.title {
    case "rows: send to one row, in process", "rows: send to one row, through the host",
      "effects: send while effects are in flight, in process",
      "plugins: send to one feature, Swift plugins loaded":
      .flat(within: 1.5)
    case "rows: remove and add a row, through the host": .slope(atMost: 0.1)
    case "rows: remove and add a row, in process":
      .withinReference("reference: remove and add a row of an identified array", ratio: 1.25)
    case "state: send a one-field change, changes printed",
      "state: send a one-field change, recorded":
      .flat(within: 2)
    case "rows: heap per row, through the host": .atMost(2_000)
    case "swap: counter to counter-alt or back: actions held": .atMost(10_000_000)
    default: nil
    }
  }

  /// Whether `curve` holds the floor; `curves` are the run's others (for a reference).
  func holds(_ curve: GrowthCurve, among curves: [GrowthCurve]) -> Bool {
    switch self {
    case .flat(let ratio): (curve.growth ?? 1) <= ratio
    case .slope(let most): (curve.slope ?? 0) <= most
    case .atMost(let most): curve.points.allSatisfy { $0.p50 <= most }
    case .withinReference(let title, let ratio):
      if let last = curve.points.last,
        let reference = curves.first(where: { $0.title == title })?.points.last(where: {
          $0.size == last.size
        })
      {
        last.p50 <= ratio * reference.p50
      } else {
        false
      }
    }
  }

  /// The floor as the table says it, in `curve`'s unit.
  func describe(for curve: GrowthCurve) -> String {
    switch self {
    case .flat(let ratio): String(format: "largest ≤ %.1f× smallest", ratio)
    case .slope(let most): String(format: "slope ≤ %.2f", most)
    case .atMost(let most): "every size ≤ \(curve.describe(most))"
    case .withinReference(let title, let ratio):
      String(format: "largest ≤ %.2f× ", ratio) + "“\(title)” there"
    }
  }
}
