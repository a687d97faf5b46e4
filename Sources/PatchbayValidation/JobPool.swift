import Foundation
import Synchronization

/// Runs `count` jobs on up to `jobs` threads of its own, and hands their results back in
/// order, on the calling thread, as soon as each and every one before it is done.
///
/// ```swift
/// JobPool.run(tests.count, jobs: 2) { index in runner.run(tests[index], …) }
///   finished: { line in print(line) }      // tests[0]'s first, then tests[1]'s, …
/// ```
///
/// A thread ends only when no job is left to take, after its own jobs' children have ended:
/// a child process started with `PB_GROUP_DIE_WITH_PARENT` dies with the thread that started
/// it.
package enum JobPool {
  package static func run<Result: Sendable>(
    _ count: Int, jobs: Int, _ job: @escaping @Sendable (Int) -> Result,
    finished: (Result) -> Void
  ) {
    guard count > 0 else { return }
    let state = Mutex<(next: Int, results: [Int: Result])>((0, [:]))
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<max(1, min(jobs, count)) {
      Thread.detachNewThread {
        while true {
          let index = state.withLock { state -> Int? in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
          }
          guard let index else { return }
          let result = job(index)
          state.withLock { $0.results[index] = result }
          done.signal()
        }
      }
    }
    for index in 0..<count {
      while true {
        if let result = state.withLock({ $0.results.removeValue(forKey: index) }) {
          finished(result)
          break
        }
        done.wait()
      }
    }
  }
}
