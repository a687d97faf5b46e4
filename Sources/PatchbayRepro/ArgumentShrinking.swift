import PatchbayEncoding

/// Simpler forms of an action's arguments, as QuickCheck's and Hypothesis's shrinkers try
/// them: a number toward 0, a string or a list shorter, `true` to `false`, one argument at a
/// time. `patchbay repro` keeps a form that still fails the same way, and tries again from it,
/// until none does.
///
/// ```swift
/// ArgumentShrinking.simpler(try WireValue(parsingAction: "play(note: 60, name: \"C4\")"))
///   .map(\.actionText)
/// // ["play(note: 0, name: \"C4\")", "play(note: 30, …", "play(note: 45, …", … "play(note: 59, …",
/// //  "play(note: 60, name: \"\")", "play(note: 60, name: \"C\")"]
/// ```
package enum ArgumentShrinking {
  /// Each simpler form, simplest first; none for a value as simple as it gets.
  package static func simpler(_ value: WireValue) -> [WireValue] {
    switch value {
    case .nil: []
    case .bool(let flag): flag ? [.bool(false)] : []
    case .int(let number): Self.towardZero(number).map(WireValue.int)
    case .double(let number):
      number == 0 || !number.isFinite
        ? [] : ([0, number.rounded(.towardZero)].filter { $0 != number }).map(WireValue.double)
    case .string(let text):
      text.isEmpty
        ? [] : Self.unique(["", String(text.prefix(text.count / 2))]).map(WireValue.string)
    case .list(let items):
      (items.isEmpty ? [] : Self.shorter(items).map(WireValue.list))
        + Self.eachSimpler(items).map(WireValue.list)
    case .record(let fields): Self.eachSimpler(fields).map(WireValue.record)
    case .case(let name, let fields): Self.eachSimpler(fields).map { .case(name, $0) }
    }
  }

  /// 0, then ever closer to `number`, as a binary search for the smallest that still
  /// fails: from 60, [0, 30, 45, 53, 57, 59].
  private static func towardZero(_ number: Int64) -> [Int64] {
    var forms: [Int64] = [0]
    var gap = number / 2
    while gap != 0 {
      forms.append(number - gap)
      gap /= 2
    }
    if number != 0 { forms.append(number - number.signum()) }
    return Self.unique(forms).filter { $0 != number }
  }

  /// Empty, then the first half.
  private static func shorter(_ items: [WireValue]) -> [[WireValue]] {
    items.count == 1 ? [[]] : [[], Array(items.prefix(items.count / 2))]
  }

  /// The list with one item made simpler, for each item and each of its simpler forms.
  private static func eachSimpler(_ items: [WireValue]) -> [[WireValue]] {
    items.indices.flatMap { index in
      Self.simpler(items[index]).map { simpler in
        var copy = items
        copy[index] = simpler
        return copy
      }
    }
  }

  private static func eachSimpler(_ fields: [WireValue.Field]) -> [[WireValue.Field]] {
    fields.indices.flatMap { index in
      Self.simpler(fields[index].value).map { simpler in
        var copy = fields
        copy[index].value = simpler
        return copy
      }
    }
  }

  private static func unique<T: Equatable>(_ values: [T]) -> [T] {
    values.reduce(into: []) { kept, value in if !kept.contains(value) { kept.append(value) } }
  }
}
