import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayHost
import Testing

/// The Chord Trainer grading through the real Theory plugin: its `chord_name` resolved by the
/// host ("patchbay.functions/1") and called from the Trainer's reducer.
@Suite struct ChordTrainerTheoryTests {
  /// The Trainer, with Theory loaded from `theory` (a name, or a path: its wasm build);
  /// `isolate`, `[plugins] isolate`; `tables`, more of the config (`[limits]`).
  static func app(theory: String = "Theory", isolate: [String] = [], tables: String = "")
    throws -> AppRuntime
  {
    try makeApp(
      toml: """
        [app]
        name = "Trainer"
        root = "trainer"
        [plugins]
        load = ["ChordTrainer", "\(theory)"]
        isolate = [\(isolate.map { "\"\($0)\"" }.joined(separator: ", "))]
        \(tables)
        [[feature]]
        key = "trainer"
        id = "dev.patchbay.chord-trainer"
        [[feature]]
        key = "trainer-results"
        id = "dev.patchbay.trainer-results"
        parent = "trainer"
        kind = "stack"
        """, file: "trainer.toml")
  }

  @Test func everyInversionOfEveryMajorAndMinorTriadIsGradedRight() throws {
    let app = try Self.app()
    var graded = 0
    for root in 0..<12 {
      for minor in [false, true] {
        for inversion in 0..<3 {
          try app.send("trainer", "ask(root: \(root), minor: \(minor))")
          var notes = [48 + root, 48 + root + (minor ? 3 : 4), 48 + root + 7]
          for _ in 0..<inversion { notes.append(notes.removeFirst() + 12) }
          for note in notes {
            try app.send("trainer", "midi(noteOn(channel: 1, note: \(note), velocity: 90))")
          }
          let verdict = try app.state("trainer")[field: "verdict"]
          guard case .string(let text)? = verdict, text.hasPrefix("✓ ") else {
            Issue.record(
              "root \(root), minor \(minor), inversion \(inversion): \(String(describing: verdict))"
            )
            continue
          }
          graded += 1
          for note in notes {
            try app.send("trainer", "midi(noteOff(channel: 1, note: \(note), velocity: 0))")
          }
        }
      }
    }
    #expect(graded == 72)
    // Seven rounds of ten ended: Results were pushed each time.
    #expect(app.navigation.stack.count == 7)
  }

  @Test func aWrongChordIsNamedByTheory() throws {
    let app = try Self.app()
    try app.send("trainer", "ask(root: 3, minor: true)")  // E♭ minor
    for note in [64, 67, 71] {  // E minor
      try app.send("trainer", "midi(noteOn(channel: 1, note: \(note), velocity: 90))")
    }
    #expect(
      try app.state("trainer")[field: "verdict"]
        == .string("✗ E minor — not E♭ minor; try again"))
    #expect(try app.state("trainer")[field: "misses"] == 1)
  }
}
