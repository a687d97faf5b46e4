import Foundation
import PatchbayABI
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import PatchbayTestWaiting
import Synchronization
import Testing

/// One owner for an instance's state: every call into the plugin runs on the handle's
/// executor, one at a time, whatever thread sends; a send the plugin makes while it reduces is
/// queued, not recursed; its effects' sends arrive in order; an error it reports outside any
/// call is logged, not kept for the next one.
///
/// The feature's code is Swift in this file (`Tally`, a `FeatureCode`), so these run without
/// `dlopen`: under ThreadSanitizer too (`make tsan`). Tally calls back through the same `pb_host`
/// table a plugin gets.
@Suite(.highPriority) struct OwnershipTests {
  @Test func sendsFromManyThreadsReduceOneAtATime() async throws {
    let handle = try Tally.handle()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<500 { handle.send(Tally.add(1)) } }
      }
    }
    #expect(handle.reducedCount == 2_000)
    #expect(try handle.stateValue()[field: "count"] == 2_000)
    #expect(try handle.stateValue()[field: "overlaps"] == 0)
  }

  /// Sends from outside run inline when nothing is queued; effects' sends queued meanwhile must
  /// wait for them, and the order of each sender's actions holds.
  @Test func effectsQueuedWhileASendRunsInlineWaitForIt() async throws {
    let handle = try Tally.handle()
    for _ in 0..<20 { handle.send(Tally.spawn(200)) }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<2 {
        group.addTask { for _ in 0..<1_000 { handle.send(Tally.add(1)) } }
      }
    }
    #expect(await eventually { handle.isQuiet && handle.reducedCount == 20 + 20 * 200 + 2_000 })
    #expect(try handle.stateValue()[field: "overlaps"] == 0)
    #expect(try handle.stateValue()[field: "count"] == .int(20 * (200 * 201 / 2) + 2_000))
  }

  @Test func aSendDuringReduceIsQueuedBehindIt() throws {
    let handle = try Tally.handle()
    handle.send(Tally.echo(3))  // reduce sends add(1), add(2), add(3) before it returns
    #expect(try handle.stateValue()[field: "log"] == .list([-3, 1, 2, 3]))
    #expect(try handle.stateValue()[field: "overlaps"] == 0)
  }

  @Test func effectThreadsSendsArriveInOrder() async throws {
    let handle = try Tally.handle()
    handle.send(Tally.spawn(300))  // a thread sends add(1) … add(300) through host->send
    #expect(await eventually { handle.isQuiet && handle.reducedCount == 301 })
    let log = try #require(try handle.stateValue()[field: "log"])
    #expect(log == .list([.int(-300)] + (1...300).map { .int(Int64($0)) }))
  }

  @Test func anErrorFromAnotherThreadIsLoggedNotKept() async throws {
    let logged = Mutex<[String]>([])
    let handle = try Tally.handle { _, message in logged.withLock { $0.append(message) } }
    handle.send(Tally.reportLater)
    #expect(await eventually { logged.withLock { $0 } == ["late, from an effect thread"] })
    handle.send(Tally.refuse)
    #expect(handle.failures == ["dev.patchbay.tally: reduce failed: refused"])
  }

  @Test func everyCallRunsOnTheHandlesExecutor() async throws {
    let handle = try Tally.handle()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<3 {
        group.addTask {
          for _ in 0..<200 {
            if index == 0 { handle.send(Tally.add(1)) }
            if index == 1 { _ = try? handle.snapshot() }
            if index == 2 { _ = try? handle.render() }
          }
        }
      }
    }
    #expect(try handle.stateValue()[field: "overlaps"] == 0)
    #expect(try handle.render() == "200")
  }

  /// A send queued from another thread (an effect's, a processor's) before the handle's last
  /// reference went runs while its `deinit` waits for the queue: it is dropped, and nothing
  /// stops. (With the context's reference to the handle `unowned`, reading it then stopped
  /// the process: once in a CI run, from the validator's processor that sends.)
  @Test func aSendQueuedAsTheHandleGoesIsDropped() throws {
    final class Holder: @unchecked Sendable { var handle: FeatureHandle? }
    let holder = Holder()
    holder.handle = try Tally.handle()
    let context = holder.handle!.withInstance { _ in holder.handle!.owned.implementation.context }
    // The queue is held by a job that waits until the handle closes, so the send queued next
    // runs after the `deinit` began, whatever the threads' timing.
    let closed = RunningCount()
    context.executor.enqueue {
      let deadline = ContinuousClock.now + .seconds(60)
      while context.owned.inbox != nil, ContinuousClock.now < deadline { usleep(100) }
      closed.value.store(context.owned.inbox == nil ? 1 : 0, ordering: .relaxed)
    }
    context.deliver(Tally.add(1))
    let released = DispatchSemaphore(value: 0)
    Thread {
      holder.handle = nil  // `deinit`: closes, then waits for the two jobs above
      released.signal()
    }.start()
    released.wait()
    #expect(closed.value.load(ordering: .relaxed) == 1)  // the send ran after the close
  }
}

/// A feature written in Swift in this test: it counts, and keeps the order of what it reduced.
/// Actions are a byte (what to do) and a little-endian Int64.
final class Tally: FeatureCode, @unchecked Sendable {
  static func add(_ value: Int64) -> [UInt8] { [0] + bytes(value) }
  /// Sends add(1) … add(n) from inside its reduce.
  static func echo(_ count: Int64) -> [UInt8] { [1] + bytes(count) }
  /// Starts a thread that sends add(1) … add(n).
  static func spawn(_ count: Int64) -> [UInt8] { [2] + bytes(count) }
  static let refuse: [UInt8] = [3]
  /// Starts a thread that reports an error, outside any call.
  static let reportLater: [UInt8] = [4]
  var cancelsByKey: Bool { false }

  static func bytes(_ value: Int64) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  /// A handle on a queue of its own, running Tally.
  static func handle(
    log: @escaping @Sendable (pb_log_level, String) -> Void = { _, _ in }
  ) throws -> FeatureHandle {
    let plugin = LoadedPlugin(
      path: "(in the test)", id: "dev.patchbay.tally-plugin",
      name: "Tally", version: "1"
    ) { plugin in
      [LoadedFeature(plugin: plugin, id: "dev.patchbay.tally", name: "Tally", code: Tally())]
    }
    return try FeatureHandle(feature: plugin.features[0], log: log)
  }

  let processor: pb_processor_desc? = nil
  let migrates = false
  let crashLabel = UnsafePointer(strdup("dev.patchbay.tally (in the test)")!)

  func create(state: [UInt8]?, context: HostContext, label: CrashLabel?)
    -> (any PluginInstance)?
  {
    TallyInstance(host: context.host)
  }

  func parseAction(_ text: String, context: HostContext) -> (pb_status, [UInt8]) {
    (PB_ERR_UNSUPPORTED, [])
  }

  func formatAction(_ action: [UInt8], context: HostContext) -> (pb_status, [UInt8]) {
    (PB_OK, Array("\(action)".utf8))
  }

  func migrate(from schema: UInt32, state: [UInt8], limit: Int, context: HostContext)
    -> (pb_status, [UInt8]?)
  {
    (PB_ERR_UNSUPPORTED, nil)
  }
}

/// The `pb_host` table, for Tally's threads.
struct HostTablePointer: @unchecked Sendable {
  let host: UnsafePointer<pb_host>

  func send(_ action: [UInt8]) {
    action.withUnsafeBufferPointer { self.host.pointee.send(self.host, $0.baseAddress, $0.count) }
  }

  func error(_ message: String) {
    self.host.pointee.error(self.host, message)
  }
}

final class TallyInstance: PluginInstance {
  let host: HostTablePointer
  var count: Int64 = 0
  var log: [Int64] = []
  /// Calls that began while another was running: the host's promise is that there are none.
  var overlaps = 0
  private var inCall = false
  /// Effect threads still running, which they count down themselves.
  private let running = RunningCount()

  init(host: UnsafePointer<pb_host>) { self.host = HostTablePointer(host: host) }

  /// Runs `body` as one call, counting calls that overlap it.
  private func call<R>(_ body: () -> R) -> R {
    if self.inCall { self.overlaps += 1 }
    self.inCall = true
    defer { self.inCall = false }
    return body()
  }

  func reduce(_ action: [UInt8]) -> pb_status {
    self.call {
      let value =
        action.count == 9 ? action[1...].withUnsafeBytes { $0.loadUnaligned(as: Int64.self) } : 0
      switch action.first {
      case 0:
        self.count += value
        self.log.append(value)
      case 1:
        self.log.append(-value)
        for index in 1...value { self.host.send(Tally.add(index)) }
      case 2:
        self.log.append(-value)
        self.running.value.add(1, ordering: .relaxed)
        let (host, running) = (self.host, self.running)
        Thread.detachNewThread {
          for index in 1...value { host.send(Tally.add(index)) }
          running.value.subtract(1, ordering: .relaxed)
        }
      case 3:
        self.host.error("refused")
        return PB_ERR_FAILED
      case 4:
        let host = self.host
        Thread.detachNewThread { host.error("late, from an effect thread") }
      default:
        return PB_ERR_FAILED
      }
      return PB_OK
    }
  }

  func snapshot(limit: Int) -> (pb_status, [UInt8]?) {
    self.call {
      let state = WireValue.record([
        .init("count", .int(self.count)), .init("log", .list(self.log.map { .int($0) })),
        .init("overlaps", .int(Int64(self.overlaps))),
      ])
      return (PB_OK, state.bytes)
    }
  }

  func render(limit: Int) -> (pb_status, [UInt8]?) {
    self.call { (PB_OK, Array("\(self.count)".utf8)) }
  }

  var runningEffects: Int { self.running.value.load(ordering: .relaxed) }
  func cancelEffects() {}
  func destroy() {}
  func createProcessor(_ config: pb_processor_config, offline: Bool) -> UnsafeMutableRawPointer? {
    nil
  }
  func writeParameters(_ block: UnsafeMutableRawPointer) {}
  func eventAction(_ event: pb_processor_event) -> (pb_status, [UInt8]) { (PB_ERR_UNSUPPORTED, []) }
}

final class RunningCount: Sendable {
  let value = Atomic<Int>(0)
}
