import PatchbayEncoding
import PatchbaySharedBoard
import Testing

@testable import PatchbayHost

/// The app's shared-state bookkeeping (SharedBoard.swift): publishers, readers, and holders
/// (ABI 2.6, TCA's `@Shared` between plugins), each outcome as the app delivers it.
@Suite struct SharedBoardTests {
  /// Three live instances to stand for features, named in what they are told.
  let a: FeatureHandle
  let b: FeatureHandle
  let c: FeatureHandle

  init() throws {
    let loader = BuiltPlugins.loader
    let plugin = try loader.load("Counter")
    (self.a, self.b, self.c) = (
      try FeatureHandle(feature: plugin.features[0]),
      try FeatureHandle(feature: plugin.features[0]),
      try FeatureHandle(feature: plugin.features[0])
    )
  }

  func name(_ handle: FeatureHandle) -> String {
    handle === self.a ? "a" : handle === self.b ? "b" : handle === self.c ? "c" : "?"
  }

  /// An outcome as text: each delivery as `who action`, or what stopped it.
  func told(_ outcome: SharedBoard<FeatureHandle>.Outcome) -> [String] {
    switch outcome {
    case .changed(let deliveries):
      deliveries.map {
        "\(self.name($0.reader)) \((try? WireValue(decoding: $0.action))?.actionText ?? "?")"
      }
    case .unchanged: ["unchanged"]
    case .refused(let owner): ["refused: \(owner)"]
    case .notHeld: ["not held"]
    case .malformed: ["malformed"]
    }
  }

  @Test func theFirstHolderGivesTheValueAndLaterOnesAreToldIt() {
    var board = SharedBoard<FeatureHandle>()
    _ = board.subscribe("tally", action: "tallied", by: self.c)
    #expect(
      self.told(board.hold("tally", initial: WireValue.int(1).bytes, by: self.a, at: "a")) == [
        "c tallied(1)"
      ])
    // The same value: nothing to tell; another one: the holder is sent the app's.
    #expect(
      self.told(board.hold("tally", initial: WireValue.int(1).bytes, by: self.b, at: "b")) == [
        "unchanged"
      ])
    #expect(
      self.told(board.hold("tally", initial: WireValue.int(0).bytes, by: self.b, at: "b"))
        == [#"b _shared(name: "tally", value: 1)"#])
  }

  @Test func aWriteTellsEveryOtherHolderAndReaderOnce() {
    var board = SharedBoard<FeatureHandle>()
    _ = board.hold("tally", initial: WireValue.int(0).bytes, by: self.a, at: "a")
    _ = board.hold("tally", initial: WireValue.int(0).bytes, by: self.b, at: "b")
    _ = board.subscribe("tally", action: "tallied", by: self.c)
    #expect(
      self.told(board.write("tally", value: WireValue.int(5).bytes, by: self.a, at: "a"))
        == ["c tallied(5)", #"b _shared(name: "tally", value: 5)"#])
    #expect(
      self.told(board.write("tally", value: WireValue.int(5).bytes, by: self.b, at: "b")) == [
        "unchanged"
      ])
    #expect(board.names.first { $0.name == "tally" }?.owner == "written by a")
  }

  @Test func whatAWriteIsRefused() {
    var board = SharedBoard<FeatureHandle>()
    _ = board.publish("transport", value: WireValue.int(120).bytes, by: self.a, at: "metronome")
    _ = board.hold("transport", initial: WireValue.int(120).bytes, by: self.b, at: "b")
    // Held to read it, but a name with a live publisher is its alone.
    #expect(
      self.told(board.write("transport", value: WireValue.int(90).bytes, by: self.b, at: "b"))
        == ["refused: metronome"])
    // A publisher's change reaches its holders as it reaches its readers.
    #expect(
      self.told(
        board.publish("transport", value: WireValue.int(100).bytes, by: self.a, at: "metronome"))
        == [#"b _shared(name: "transport", value: 100)"#])
    #expect(
      self.told(board.write("host.midi", value: WireValue.int(1).bytes, by: self.b, at: "b")) == [
        "refused: the host (names beginning host.)"
      ])
    #expect(
      self.told(board.write("tally", value: WireValue.int(1).bytes, by: self.c, at: "c")) == [
        "not held"
      ])
    #expect(
      self.told(board.hold("tally", initial: [0xFF, 0x00], by: self.c, at: "c")) == ["malformed"])
    _ = board.hold("tally", initial: WireValue.int(0).bytes, by: self.c, at: "c")
    #expect(self.told(board.write("tally", value: [0xFF], by: self.c, at: "c")) == ["malformed"])
  }
}
