import Foundation
import Synchronization
import Testing

@testable import PatchbayAppQueue
@testable import PatchbayHost
@testable import PatchbayLoader

@Suite struct AppExecutorTests {
  @Test func jobsRunOneAtATimeInOrder() {
    let executor = AppExecutor(name: "test-app")
    defer { executor.stop() }
    let order = Mutex<[Int]>([])
    let overlaps = Atomic<Int>(0)
    let running = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { producer in
      for index in 0..<250 {
        executor.enqueue {
          if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.add(1, ordering: .relaxed)
          }
          order.withLock { $0.append(producer * 1000 + index) }
          running.subtract(1, ordering: .acquiringAndReleasing)
        }
      }
    }
    executor.sync {}
    let seen = order.withLock { $0 }
    #expect(seen.count == 1000)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    for producer in 0..<4 {
      let mine = seen.filter { $0 / 1000 == producer }
      #expect(mine == mine.sorted())  // each producer's jobs in the order it enqueued them
    }
  }

  @Test func syncWaitsForEarlierJobsAndReturnsTheResult() throws {
    let executor = AppExecutor(name: "test-app")
    defer { executor.stop() }
    let log = Mutex<[String]>([])
    executor.enqueue { log.withLock { $0.append("first") } }
    let value = executor.sync { () -> Int in
      log.withLock { $0.append("second") }
      return 42
    }
    #expect(value == 42)
    #expect(log.withLock { $0 } == ["first", "second"])
    struct Refused: Error {}
    #expect(throws: Refused.self) { try executor.sync { () throws(Refused) in throw Refused() } }
  }

  @Test func syncFromAJobRunsInline() {
    let executor = AppExecutor(name: "test-app")
    defer { executor.stop() }
    let inner = executor.sync { () -> Bool in
      #expect(executor.isCurrent)
      return executor.sync { executor.isCurrent }
    }
    #expect(inner)
    #expect(!executor.isCurrent)
  }

  /// The ownership rule is enforced, not only written down: touching state an executor owns
  /// from outside its jobs traps (in a debug build, where `assert` runs), and inside one
  /// passes.
  @Test func touchingOwnedStateOffTheQueueTraps() async {
    await #expect(processExitsWith: .failure) {
      let executor = AppExecutor(name: "test-app")
      executor.assertCurrent("the test's state")
    }
    await #expect(processExitsWith: .success) {
      let executor = AppExecutor(name: "test-app")
      executor.sync { executor.assertCurrent("the test's state") }
      executor.stop()
    }
  }
}
