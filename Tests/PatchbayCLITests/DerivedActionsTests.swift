import Foundation
import Testing

/// Every bundled Swift plugin's actions, derived by `@Feature` from its `enum Action`, against
/// what `inspect` printed when they were written by hand (Fixtures/inspect-before-feature-macro).
/// Unchanged, but for what was wrong before: actions people should not send were missing or
/// said so in their summary — they are now listed, marked `sentBy`.
@Suite struct DerivedActionsTests {
  struct Action: Decodable, Equatable {
    struct Field: Decodable, Equatable {
      var name: String
      var type: String
    }
    var name: String
    var summary: String
    var fields: [Field]
    var sentBy: String?
  }

  struct Feature: Decodable {
    var id: String
    var actions: [Action]
  }

  struct Plugin: Decodable {
    var id: String
    var features: [Feature]
  }

  static let plugins = [
    "Counter", "CounterAlt", "Home", "Practice", "Metronome", "Tuner", "PracticeRoom",
    "MIDIMonitor", "ChordTrainer", "Studio",
  ]

  @Test(arguments: Self.plugins)
  func inspectIsUnchangedButForWhatWasWrong(_ plugin: String) async throws {
    let fixture = URL(fileURLWithPath: CheckTests.root).appendingPathComponent(
      "Tests/PatchbayCLITests/Fixtures/inspect-before-feature-macro/\(plugin).json")
    let before = try JSONDecoder().decode(Plugin.self, from: Data(contentsOf: fixture))
    let result = try await CLI.run(
      "inspect", "\(CLI.directory)/lib\(plugin).so", "--json")
    #expect(result.exitCode == 0, "\(result.stderr)")
    let after = try JSONDecoder().decode(Plugin.self, from: Data(result.stdout.utf8))
    #expect(after.features.map(\.id) == before.features.map(\.id))
    for (old, new) in zip(before.features, after.features) {
      for action in old.actions {
        let derived = try #require(
          new.actions.first { $0.name == action.name }, "\(old.id): \(action.name) is gone")
        // "A beat played (sent by the processor)" is now "A beat played", sent by the processor.
        var summary = action.summary
        var sentBy: String?
        for sender in ["processor", "host", "itself", "host, live"] {
          let note = " (sent by the \(sender))".replacingOccurrences(
            of: "the itself", with: "itself")
          if summary.hasSuffix(note) {
            summary.removeLast(note.count)
            sentBy = sender == "itself" ? "effect" : sender == "host, live" ? "host" : sender
          }
        }
        #expect(derived.summary == summary, "\(old.id): \(action.name)")
        #expect(derived.sentBy == sentBy ?? derived.sentBy, "\(old.id): \(action.name)")
        // The Metronome listed `midi` without its message: wrong before.
        if !(action.fields.isEmpty && derived.sentBy != nil) {
          #expect(derived.fields == action.fields, "\(old.id): \(action.name)")
        }
      }
      // What the hand-written list left out: only actions people do not send.
      for action in new.actions where !old.actions.contains(where: { $0.name == action.name }) {
        #expect(action.sentBy != nil, "\(old.id): \(action.name) was missing and is not marked")
      }
    }
  }

  @Test func counterListsItsDelayedIncrementNowAsTheEffectsAction() async throws {
    let result = try await CLI.run("inspect", "\(CLI.directory)/libCounter.so")
    let line = result.stdout.split(separator: "\n").first { $0.contains("delayedIncrement") }
    #expect(line?.hasSuffix("The delayed increment arriving (sent by the effect)") == true)
  }
}
