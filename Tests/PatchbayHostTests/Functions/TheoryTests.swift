import Foundation
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import Testing

/// The Theory plugin's functions against a table.
@Suite struct TheoryTests {
  let theory: LoadedPlugin

  init() throws { self.theory = try BuiltPlugins.loader.load("Theory") }

  func call(_ name: String, _ values: [WireValue]) throws -> WireValue {
    try #require(self.theory.function(name)).call(values)
  }

  @Test func everyNotesFrequencyAndName() throws {
    let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    for note in 0...127 {
      let expected = 440 * pow(2, Double(note - 69) / 12)
      guard
        case .double(let frequency) = try self.call(
          "note_frequency", [.int(Int64(note)), .double(440)])
      else {
        Issue.record("note \(note): not a double")
        continue
      }
      #expect(abs(frequency - expected) < 1e-9 * expected, "note \(note)")
      #expect(
        try self.call("note_name", [.int(Int64(note))])
          == .string("\(names[note % 12])\(note / 12 - 1)"))
    }
    #expect(try self.call("note_frequency", [.int(69), .double(442)]) == .double(442))
  }

  @Test func intervals() throws {
    let expected = [
      0: "unison", 1: "minor second", 6: "tritone", 7: "perfect fifth", 11: "major seventh",
      12: "octave", -7: "perfect fifth", 19: "perfect fifth and 1 octave", 24: "2 octaves",
    ]
    for (semitones, name) in expected {
      #expect(try self.call("interval_name", [.int(Int64(semitones))]) == .string(name))
    }
  }

  /// 36 chords — 6 roots × the 6 shapes with a root — in every inversion; and augmented triads.
  @Test func chordsInEveryInversion() throws {
    let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    let shapes: [(String, [Int])] = [
      ("major", [0, 4, 7]), ("minor", [0, 3, 7]), ("diminished", [0, 3, 6]),
      ("dominant seventh", [0, 4, 7, 10]), ("major seventh", [0, 4, 7, 11]),
      ("minor seventh", [0, 3, 7, 10]),
    ]
    var checked = 0
    for root in [0, 2, 5, 7, 9, 11] {
      for (shape, intervals) in shapes {
        let notes = intervals.map { 48 + root + $0 }
        for inversion in 0..<notes.count {
          // Move the lowest `inversion` notes up an octave.
          let voiced = notes.enumerated().map {
            $0.offset < inversion ? $0.element + 12 : $0.element
          }
          let bass = voiced.min()!
          let name =
            bass % 12 == root % 12
            ? "\(names[root]) \(shape)" : "\(names[root]) \(shape)/\(names[bass % 12])"
          #expect(
            try self.call("chord_name", [.list(voiced.map { .int(Int64($0)) })]) == .string(name),
            "\(voiced)")
        }
        checked += 1
      }
    }
    #expect(checked == 36)
    // Augmented triads are symmetric: named from the bass.
    #expect(
      try self.call("chord_name", [.list([.int(60), .int(64), .int(68)])]) == .string("C augmented")
    )
    #expect(
      try self.call("chord_name", [.list([.int(64), .int(68), .int(72)])]) == .string("E augmented")
    )
    #expect(try self.call("chord_name", [.list([.int(60), .int(61)])]) == .string("unknown"))
    #expect(try self.call("chord_name", [.list([])]) == .string("no notes"))
  }
}
