import Foundation
import PatchbayEncoding
import PatchbayHost
import Synchronization
import Testing

/// Swaps under load, and many generations in one process.
@Suite struct SwapLoadTests {
  /// 100,000 actions — `setStep(by: 1…7)` and `increment` pairs, so the count depends on their
  /// order — from another thread while the counter swaps 50 times between Counter and
  /// CounterAlt, with an effect running at the first swap. Every action is reduced once, in
  /// order.
  @Test func noActionIsLostReorderedOrDuplicatedUnder50Swaps() async throws {
    let app = try makeDemoApp()
    let counter = try app.instance("counter")
    try app.send("counter", "incrementLater(ms: 86400000)")  // a day: running until cancelled
    let steps = try (1...7).map { try counter.parseAction("setStep(by: \($0))") }
    let increment = try counter.parseAction("increment")
    let pairs = 50_000
    let sent = Atomic<Int>(0)
    Thread.detachNewThread {
      for index in 0..<pairs {
        counter.send(steps[index % 7])
        counter.send(increment)
        sent.store(index + 1, ordering: .releasing)
      }
    }
    var reports: [SwapReport] = []
    for swap in 0..<50 {
      // Spread the swaps over the load.
      while sent.load(ordering: .acquiring) < swap * pairs / 50 {
        try await Task.sleep(for: .microseconds(200))
      }
      reports.append(try app.swap("counter", to: swap.isMultiple(of: 2) ? "CounterAlt" : "Counter"))
    }
    while sent.load(ordering: .acquiring) < pairs { try await Task.sleep(for: .milliseconds(1)) }
    // The first code's effect went on across the 50 swaps; cancelled, so the count is known.
    #expect(counter.earlierGenerations == 1)
    counter.cancelEffects()
    #expect(await app.settle(timeout: .seconds(300)))

    let expected = (0..<pairs).reduce(0) { $0 + $1 % 7 + 1 }
    // 50 swaps: Counter again.
    #expect(try app.state("counter")[field: "count"] == .int(Int64(expected)))
    // + incrementLater, whose effect was cancelled before it sent.
    #expect(counter.reducedCount == UInt64(2 * pairs + 1))
    #expect(counter.failures.isEmpty)
    #expect(reports.count == 50)
    #expect(reports.allSatisfy { $0.instances == ["counter"] })
  }

  /// A swap of 100 instances makes their successors in batches, between which actions
  /// reduce: 20,000 increments to rows in the middle and at the end, from another thread,
  /// across 20 swaps, all reduced, by whichever code ran when each arrived.
  @Test func actionsBetweenASwapsBatchesAreAllReduced() async throws {
    let app = try makeFullDemoApp()
    for id in 0..<98 { try app.add(to: "home/tallies", id: "\(id)") }
    let rows = try ["tallies#49", "tallies#97"].map { try app.instance($0) }
    let increment = try rows[0].parseAction("increment")
    let count = 10_000
    let sent = Atomic<Int>(0)
    Thread.detachNewThread {
      for index in 0..<count {
        rows.forEach { $0.send(increment) }
        sent.store(index + 1, ordering: .releasing)
      }
    }
    for swap in 0..<20 {
      while sent.load(ordering: .acquiring) < swap * count / 20 {
        try await Task.sleep(for: .microseconds(200))
      }
      let report = try app.swap("counter", to: swap.isMultiple(of: 2) ? "CounterAlt" : "Counter")
      #expect(report.instances.count == 100)
    }
    while sent.load(ordering: .acquiring) < count { try await Task.sleep(for: .milliseconds(1)) }
    #expect(await app.settle(timeout: .seconds(300)))
    // 20 swaps: Counter again.
    for row in ["tallies#49", "tallies#97"] {
      #expect(try app.state(row)[field: "count"] == .int(Int64(count)))
    }
    #expect(rows.allSatisfy { $0.reducedCount == UInt64(count) && $0.failures.isEmpty })
  }

  /// 100 new generations (each swap loads a file that changed), state carried through all.
  @Test func aHundredGenerationsInOneProcess() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try ["Counter", "CounterAlt"].map { name in
      let copy = folder.appendingPathComponent("lib\(name).so").path
      try BuiltPlugins.copy(name, to: copy)
      return copy
    }
    let app = try makeDemoApp()
    let before = residentBytes()
    var generations: Set<String> = []
    for index in 0..<100 {
      let file = files[index % 2]
      // A rebuilt file: a new modification time makes it a new generation.
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))],
        ofItemAtPath: file)
      let report = try app.swap("counter", to: file)
      generations.insert("\(report.to)#\(report.generation)")
      try app.send("counter", "increment")
    }
    let growth = residentBytes() - before
    print(
      "100 generations: resident memory +\(growth / 1_048_576) MB, \(growth / 100 / 1024) KB per generation"
    )
    #expect(generations.count == 100)
    #expect(try app.state("counter")[field: "value"] == 100)  // the last was CounterAlt
  }
}

/// This process's resident memory, from /proc/self/statm.
func residentBytes() -> Int {
  let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
  let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
