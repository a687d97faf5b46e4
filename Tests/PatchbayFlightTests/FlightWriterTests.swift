import Foundation
import Testing

@testable import PatchbayFlight

/// The flight file: what is written is in the file at once, segments take turns, the history
/// starts at a whole checkpoint, and a damaged file is named where it is damaged.
@Suite struct FlightWriterTests {
  final class Generation {}

  static func temporary() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).flight")
      .path
  }

  /// Writes `count` actions `[n]`, taking checkpoints as asked, each the count so far.
  static func run(_ flight: FlightWriter, actions count: Int, from first: Int = 0) {
    let generation = Generation()
    for n in first..<first + count {
      let bytes: [UInt8] = [UInt8(truncatingIfNeeded: n)]
      if flight.needsCheckpoint(forAction: bytes.count) {
        flight.begin(checkpoint: [.kept(path: "counter", state: Array("\(n)".utf8))])
      }
      let site = flight.site(for: ObjectIdentifier(generation)) {
        (generation, "counter", "dev.patchbay.counter", "/plugins/libCounter.so")
      }
      bytes.withUnsafeBytes { flight.action(site: site, source: 0, bytes: $0) }
    }
  }

  static func actions(_ history: [FlightRecord]) -> [UInt8] {
    history.flatMap { record -> [UInt8] in
      if case .action(_, _, let bytes) = record { return bytes }
      return []
    }
  }

  @Test func aShortRunReadsBackWhole() throws {
    let file = Self.temporary()
    defer { unlink(file) }
    let flight = try FlightWriter(file: file, config: "/apps/counter.toml", actions: 100)
    flight.begin(checkpoint: [.kept(path: "counter", state: [1, 2])])
    Self.run(flight, actions: 10)
    flight.write(.failed)
    // Read while the writer is still alive: nothing waits for a flush.
    let log = try FlightLog(file: file)
    #expect(log.config == "/apps/counter.toml")
    #expect(log.pid == getpid())
    #expect(
      Array(log.history.prefix(4)) == [
        .checkpoint(actions: 0), .kept(path: "counter", state: [1, 2]), .checkpointEnd,
        .site(
          id: 0, path: "counter", feature: "dev.patchbay.counter", plugin: "/plugins/libCounter.so"),
      ])
    #expect(Self.actions(log.history) == Array(0..<10))
    #expect(log.history.last == .failed)
  }

  /// 1,000 actions through a recorder of 100: the history is the last 50 to 100, from the
  /// older segment's checkpoint, in order, with nothing missing between the segments.
  @Test func aLongRunKeepsTheLastSegmentsFromACheckpoint() throws {
    let file = Self.temporary()
    defer { unlink(file) }
    let flight = try FlightWriter(file: file, config: "app.toml", actions: 100)
    Self.run(flight, actions: 1_000)
    let log = try FlightLog(file: file)
    guard case .checkpoint(let at) = log.history.first else {
      Issue.record("no checkpoint first: \(log.history.prefix(3))")
      return
    }
    #expect(at == 900)  // segments of 50: the older began at action 900, the newer at 950
    #expect(log.history[1] == .kept(path: "counter", state: Array("900".utf8)))
    #expect(Self.actions(log.history) == (900..<1_000).map { UInt8(truncatingIfNeeded: $0) })
    // The newer segment's checkpoint is left out; its site is defined again.
    #expect(log.history.filter { $0 == .checkpointEnd }.count == 1)
    #expect(log.history.filter { if case .site = $0 { true } else { false } }.count == 2)
  }

  /// A checkpoint larger than a segment grows both; what the older one held is kept.
  @Test func aCheckpointLargerThanASegmentGrowsIt() throws {
    let file = Self.temporary()
    defer { unlink(file) }
    // Segments of 20 actions (more than 16 for a checkpoint of one record).
    let flight = try FlightWriter(file: file, config: "app.toml", actions: 40, segmentBytes: 0)
    Self.run(flight, actions: 15)
    let big = [UInt8](repeating: 7, count: 200_000)
    flight.begin(checkpoint: [.kept(path: "big", state: big)])
    Self.run(flight, actions: 3, from: 15)
    // The older segment moved whole when the file grew.
    let before = try FlightLog(file: file)
    #expect(before.history.first == .checkpoint(actions: 0))
    #expect(Self.actions(before.history) == Array(0..<18))
    // Once the next begins (at action 35), the big checkpoint is the history's.
    Self.run(flight, actions: 19, from: 18)
    let after = try FlightLog(file: file)
    #expect(after.history.first == .checkpoint(actions: 15))
    #expect(after.history.dropFirst().first == .kept(path: "big", state: big))
    #expect(Self.actions(after.history) == Array(15..<37))
  }

  /// A checkpoint of many instances makes its segment hold 16 actions for each before the
  /// next, growing the segment when the actions outgrow it instead of checkpointing early: a
  /// big app's checkpoints cost each action the same as a small app's.
  @Test func aBigAppsCheckpointIsTakenSeldomEnough() throws {
    let file = Self.temporary()
    defer { unlink(file) }
    let flight = try FlightWriter(file: file, config: "app.toml", actions: 20, segmentBytes: 0)
    let instances = (0..<200).map { FlightRecord.kept(path: "rows#\($0)", state: [1]) }
    flight.begin(checkpoint: instances)
    // 3,200 actions of 100 bytes: five times the segment's first 64 KiB.
    let generation = Generation()
    var checkpoints = 0
    for n in 0..<3_200 {
      let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: 100)
      if flight.needsCheckpoint(forAction: bytes.count) {
        checkpoints += 1
        flight.begin(checkpoint: instances)
      }
      let site = flight.site(for: ObjectIdentifier(generation)) {
        (generation, "rows#0", "dev.patchbay.counter", "/plugins/libCounter.so")
      }
      bytes.withUnsafeBytes { flight.action(site: site, source: 0, bytes: $0) }
    }
    #expect(checkpoints == 0)
    #expect(flight.needsCheckpoint(forAction: 100))  // its share held: the next is due
    let log = try FlightLog(file: file)
    #expect(log.history.first == .checkpoint(actions: 0))
    #expect(log.history.filter { if case .action = $0 { true } else { false } }.count == 3_200)
  }

  /// The run stopped while writing a checkpoint: the older segment is the history.
  @Test func aCheckpointCutShortLeavesTheOlderSegment() throws {
    let records: [(UInt64, [FlightRecord])] = [
      (1, [.checkpoint(actions: 0), .checkpointEnd, .action(site: 0, source: 0, bytes: [1])]),
      (2, [.checkpoint(actions: 1), .kept(path: "a", state: [])]),
    ]
    #expect(FlightLog.history(records) == records[0].1)
  }

  @Test func everyRecordReadsBackAsWritten() {
    let records: [FlightRecord] = [
      .checkpoint(actions: 1 << 40), .checkpointEnd,
      .site(id: 65_535, path: "home/tallies#a", feature: "f", plugin: "p"),
      .action(site: 2, source: 4, bytes: []), .failed, .kept(path: "x", state: [0, 255]),
      .navigation(name: "deepLink", nodes: ["a", "b"], state: nil),
      .navigation(name: "push", nodes: ["echo"], state: [9]),
      .collection(path: "home/tallies", id: "c", added: true, state: nil),
      .collection(path: "home/tallies", id: "c", added: false, state: []),
      .swap(feature: "dev.patchbay.counter", plugin: "/p/libCounterAlt.so"),
      .report("patchbay: a plugin crashed the app with SIGSEGV"),
      .routes(stack: ["echo#7", "practice#9"], presented: "settings#10", next: 11),
      .routes(stack: [], presented: nil, next: 1),
    ]
    for record in records {
      let (kind, payload) = record.payload
      #expect(FlightRecord(kind: kind.rawValue, payload: payload[...]) == record)
      // One byte short is not a record.
      if !payload.isEmpty, kind != .action {
        #expect(FlightRecord(kind: kind.rawValue, payload: payload.dropLast()) == nil)
      }
    }
    #expect(FlightRecord(kind: 200, payload: []) == nil)
  }

  @Test func damageIsNamedWhereItIs() throws {
    let file = Self.temporary()
    defer { unlink(file) }
    let flight = try FlightWriter(file: file, config: "app.toml", actions: 100)
    Self.run(flight, actions: 5)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    #expect(
      throws: FlightError(file: "x", "not a flight recording (it does not start with PBFLIGHT)")
    ) {
      try FlightLog(bytes: Array("#!/bin/sh\n".utf8), file: "x")
    }
    #expect(
      throws: FlightError(
        file: "x", "the header's sizes do not match the file (100 bytes): cut short?")
    ) {
      try FlightLog(bytes: Array(bytes.prefix(100)), file: "x")
    }
    bytes[FlightLayout.segmentStart(0, size: 64 << 10) + 4] = 99  // the checkpoint's kind
    #expect(throws: FlightError(file: "x", "segment 0, byte 0: a record that does not read")) {
      try FlightLog(bytes: bytes, file: "x")
    }
    bytes[8] = 2
    #expect(
      throws: FlightError(
        file: "x", "format version 2 is not 1; read it with the patchbay that wrote it")
    ) { try FlightLog(bytes: bytes, file: "x") }
    #expect(throws: FlightError(file: "/nowhere.flight", "cannot read it; check the path")) {
      try FlightLog(file: "/nowhere.flight")
    }
  }
}
