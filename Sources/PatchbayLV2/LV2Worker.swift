import CLilv
import PatchbayRealtime
import Synchronization

/// LV2's worker (`work:schedule`): what a plugin may not do in `run` — load a file, build a
/// table — it schedules, and a thread of the host's does it, and the answer comes back to the
/// plugin in the audio thread before its next period, as Ardour and Carla do it.
///
/// ```swift
/// // in the plugin's run:   schedule->schedule_work(schedule->handle, size, request)
/// // on the worker thread:  interface->work(handle, respond, …, size, request)
/// // after the next run:    interface->work_response(handle, size, answer); end_run(handle)
/// ```
///
/// Requests and answers travel through two rings of bytes, each message its size then its
/// bytes, so neither side allocates or locks: `schedule_work` is [audio-thread], and so are
/// ``deliverResponses()`` and the plugin's `work_response`. A message that does not fit is
/// refused with `LV2_WORKER_ERR_NO_SPACE`, as the extension says.
final class LV2Worker: @unchecked Sendable {
  static let capacity = 1 << 16
  /// The `work:schedule` feature's data, for `instantiate`.
  let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
  private let requests = SPSCRing<UInt8>(minimumCapacity: LV2Worker.capacity)
  private let responses = SPSCRing<UInt8>(minimumCapacity: LV2Worker.capacity)
  private let doorbell = Doorbell()
  private let stopping = Atomic<Bool>(false)
  private let requestScratch = UnsafeMutableRawPointer.allocate(
    byteCount: LV2Worker.capacity, alignment: 16)
  private let responseScratch = UnsafeMutableRawPointer.allocate(
    byteCount: LV2Worker.capacity, alignment: 16)
  private var interface: UnsafePointer<LV2_Worker_Interface>?
  private var handle: LV2_Handle?
  private var thread: RealtimeThread?

  init() {
    self.schedule = .allocate(capacity: 1)
    self.schedule.initialize(
      to: LV2_Worker_Schedule(
        handle: Unmanaged.passUnretained(self).toOpaque(), schedule_work: workerSchedule))
  }

  deinit {
    self.stop()
    self.schedule.deallocate()
    self.requestScratch.deallocate()
    self.responseScratch.deallocate()
  }

  /// Starts the worker thread for `instance`, whose `work` it calls. Returns false when the
  /// plugin, which required the feature, gives no worker interface.
  func start(_ instance: UnsafeMutablePointer<LilvInstance>) -> Bool {
    guard
      let raw = lilv_instance_get_extension_data(
        instance, "http://lv2plug.in/ns/ext/worker#interface")
    else { return false }
    self.interface = raw.assumingMemoryBound(to: LV2_Worker_Interface.self)
    self.handle = lilv_instance_get_handle(instance)
    self.thread = RealtimeThread(
      name: "patchbay-lv2-work", realtimeNotNeeded: "an LV2 worker does the plugin's slow work"
    ) { [self] in self.work() }
    return true
  }

  /// Stops the thread and waits for it.
  func stop() {
    guard let thread = self.thread else { return }
    self.stopping.store(true, ordering: .releasing)
    self.doorbell.ring()
    thread.join()
    self.thread = nil
  }

  /// A request from the plugin. [audio-thread, or any thread outside `run` before it starts]
  fileprivate func scheduleWork(size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
    guard Self.push(size: size, data: data, into: self.requests) else {
      return LV2_WORKER_ERR_NO_SPACE
    }
    self.doorbell.ring()
    return LV2_WORKER_SUCCESS
  }

  /// An answer from the plugin's `work`. [worker thread]
  fileprivate func respond(size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
    Self.push(size: size, data: data, into: self.responses)
      ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
  }

  /// Hands the plugin the answers that came back, then ends its run. [audio-thread]
  func deliverResponses() {
    guard let interface = self.interface else { return }
    while let size = Self.pop(from: self.responses, into: self.responseScratch) {
      _ = interface.pointee.work_response?(self.handle, size, self.responseScratch)
    }
    _ = interface.pointee.end_run?(self.handle)
  }

  /// The worker thread: each request to the plugin's `work`, one at a time.
  private func work() {
    let context = Unmanaged.passUnretained(self).toOpaque()
    while !self.stopping.load(ordering: .acquiring) {
      while let size = Self.pop(from: self.requests, into: self.requestScratch) {
        _ = self.interface?.pointee.work?(
          self.handle, workerRespond, context, size, self.requestScratch)
      }
      self.doorbell.wait(nanoseconds: 50_000_000)
    }
  }

  /// Writes `size` then the bytes, both or neither.
  private static func push(size: UInt32, data: UnsafeRawPointer?, into ring: SPSCRing<UInt8>)
    -> Bool
  {
    let total = MemoryLayout<UInt32>.size + Int(size)
    guard total <= Self.capacity, ring.availableToWrite >= total else { return false }
    var header = size
    _ = withUnsafeBytes(of: &header) { ring.write($0.bindMemory(to: UInt8.self)) }
    if let data, size > 0 {
      _ = ring.write(
        UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: Int(size)))
    }
    return true
  }

  /// Reads one whole message into `scratch`; nil when none has fully arrived.
  private static func pop(from ring: SPSCRing<UInt8>, into scratch: UnsafeMutableRawPointer)
    -> UInt32?
  {
    let headerSize = MemoryLayout<UInt32>.size
    guard ring.availableToRead >= headerSize else { return nil }
    var size: UInt32 = 0
    let (first, second) = ring.readableRegions()
    withUnsafeMutableBytes(of: &size) { header in
      for index in 0..<headerSize {
        header[index] = index < first.count ? first[index] : second[index - first.count]
      }
    }
    guard ring.availableToRead >= headerSize + Int(size) else { return nil }
    ring.commitRead(headerSize)
    _ = ring.read(
      into: UnsafeMutableBufferPointer(
        start: scratch.assumingMemoryBound(to: UInt8.self), count: Int(size)))
    return size
  }
}

private func workerSchedule(
  _ handle: LV2_Worker_Schedule_Handle?, _ size: UInt32, _ data: UnsafeRawPointer?
) -> LV2_Worker_Status {
  guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
  return Unmanaged<LV2Worker>.fromOpaque(handle).takeUnretainedValue()
    .scheduleWork(size: size, data: data)
}

private func workerRespond(
  _ handle: LV2_Worker_Respond_Handle?, _ size: UInt32, _ data: UnsafeRawPointer?
) -> LV2_Worker_Status {
  guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
  return Unmanaged<LV2Worker>.fromOpaque(handle).takeUnretainedValue()
    .respond(size: size, data: data)
}
