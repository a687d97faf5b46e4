import PatchbayEncoding
import PatchbayLoader

/// Random actions a feature declares, as values: every action whose fields have types the
/// validator can make (int, double, bool, string, list), with values from the ordinary to the
/// edges (0, ±2⁶³, NaN, ±∞, "", long and escaped strings, nested lists).
///
/// ```swift
/// var generator = ActionGenerator(feature)
/// let actions = generator.sequence(100, seed: 7)   // the same 100 for seed 7, every run
/// ```
///
/// Actions with a `record` or `case` field are left out (nothing says which values they take);
/// ``skipped`` names them.
package struct ActionGenerator: Sendable {
  package let actions: [ActionInfo]
  package let skipped: [String]

  package init(_ feature: LoadedFeature) {
    let makeable: Set = ["int", "double", "bool", "string", "list"]
    self.actions = feature.actions.filter { $0.fields.allSatisfy { makeable.contains($0.type) } }
    self.skipped = feature.actions.filter { !$0.fields.allSatisfy { makeable.contains($0.type) } }
      .map(\.signature)
  }

  /// `count` actions drawn from `seed`: one in eight fields takes an edge value.
  package func sequence(_ count: Int, seed: UInt64) -> [WireValue] {
    guard !self.actions.isEmpty else { return [] }
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in
      let action = self.actions[Int(random.next() % UInt64(self.actions.count))]
      return self.value(of: action, edges: random.next() % 8 == 0, &random)
    }
  }

  /// `action` with a value for each field.
  package func value(of action: ActionInfo, edges: Bool, _ random: inout SeededRandom) -> WireValue
  {
    .case(
      action.name,
      action.fields.map { field in
        WireValue.Field(field.name, Self.value(field.type, edges: edges, &random))
      })
  }

  /// Every edge value of a field type, for the schema test.
  package static func edges(_ type: String) -> [WireValue] {
    switch type {
    case "int": [0, 1, -1, .int(.max), .int(.min)]
    case "double":
      [
        0.0, .double(-0.0), .double(.nan), .double(.infinity), .double(-.infinity),
        .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
      ]
    case "bool": [true, false]
    case "string":
      [
        "", "\u{1F600} é", "quote \" backslash \\ newline \n tab \t",
        .string(String(repeating: "x", count: 4_096)),
        "\u{1b}[31m",
      ]
    case "list":
      [.list([]), .list([1, 2, 3]), .list([.list([.list([1])])]), .list(["a", 1, 2.5])]
    default: []
    }
  }

  private static func value(_ type: String, edges: Bool, _ random: inout SeededRandom) -> WireValue
  {
    if edges {
      let all = Self.edges(type)
      return all[Int(random.next() % UInt64(all.count))]
    }
    switch type {
    case "int": return .int(Int64(random.next() % 41) - 20)
    case "double": return .double(Double(Int64(random.next() % 4_001) - 2_000) / 8)
    case "bool": return .bool(random.next() % 2 == 0)
    case "string":
      let words = ["", "a", "hello", "C major", "ü", "12"]
      return .string(words[Int(random.next() % UInt64(words.count))])
    default:
      return .list((0..<Int(random.next() % 4)).map { _ in .int(Int64(random.next() % 128)) })
    }
  }
}
