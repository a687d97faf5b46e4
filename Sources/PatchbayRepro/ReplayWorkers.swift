import Foundation
import Synchronization

/// Threads that each keep a ``ReplayServer`` for the whole of a `patchbay repro`, and replay
/// candidates on them, as many at once as there are threads. A thread of its own per server:
/// the server's process dies with the thread that started it.
///
/// ```swift
/// let workers = ReplayWorkers(count: 2) { ReplayServer(executable: …, arguments: …) }
/// let outcomes = workers.run(candidates.count) { index, server in server.replay(files[index]) }
/// workers.stop()
/// ```
final class ReplayWorkers: Sendable {
  private typealias Job = @Sendable (ReplayServer) -> Void
  private let jobs = Mutex<[Job?]>([])
  private let waiting = DispatchSemaphore(value: 0)
  private let stopped = DispatchSemaphore(value: 0)
  let count: Int

  init(count: Int, server: @escaping @Sendable () -> ReplayServer) {
    self.count = max(1, count)
    for _ in 0..<self.count {
      Thread.detachNewThread { [self] in
        let replays = server()
        while true {
          self.waiting.wait()
          guard let job = self.jobs.withLock({ $0.removeFirst() }) else { break }
          job(replays)
        }
        replays.stop()
        self.stopped.signal()
      }
    }
  }

  /// Runs `job` for each index in `0..<count`, spread over the servers; the results in order.
  func run<Result: Sendable>(
    _ count: Int, _ job: @escaping @Sendable (Int, ReplayServer) -> Result
  ) -> [Result] {
    let results = Mutex<[Int: Result]>([:])
    let done = DispatchSemaphore(value: 0)
    self.jobs.withLock { jobs in
      for index in 0..<count {
        jobs.append { server in
          let result = job(index, server)
          results.withLock { $0[index] = result }
          done.signal()
        }
      }
    }
    for _ in 0..<count { self.waiting.signal() }
    for _ in 0..<count { done.wait() }
    return results.withLock { results in (0..<count).map { results[$0]! } }
  }

  /// Ends the servers and their threads.
  func stop() {
    self.jobs.withLock { $0 += Array(repeating: nil, count: self.count) }
    for _ in 0..<self.count { self.waiting.signal() }
    for _ in 0..<self.count { self.stopped.wait() }
  }
}
