import Foundation
import PatchbayRealtime
import Synchronization

/// Plays a ``StandardMIDIFile`` in real time: each message is parsed and pushed to ``events``
/// at its time (CLOCK_MONOTONIC, absolute sleeps, so delays do not add up).
///
/// ```swift
/// let player = SMFPlayer(file: try StandardMIDIFile(contentsOf: "tune.mid"))
/// player.start()
/// while let event = player.events.pop() { … }
/// ```
public final class SMFPlayer: @unchecked Sendable {
  public let file: StandardMIDIFile
  public let events = SPSCRing<MIDIEvent>(minimumCapacity: 8192)
  /// Rung after each message is in ``events``, and at the end (``MIDIInput/doorbell``).
  public let doorbell = Doorbell()
  private let finished = Atomic<Bool>(false)
  private let droppedEvents = Atomic<Int>(0)
  private var thread: RealtimeThread?
  /// When playback started (CLOCK_MONOTONIC ns); event times count from here.
  public private(set) var startTime: UInt64 = 0

  public init(file: StandardMIDIFile) { self.file = file }

  public var isFinished: Bool { self.finished.load(ordering: .acquiring) }
  public var dropped: Int { self.droppedEvents.load(ordering: .relaxed) }

  public func start() {
    self.startTime = monotonicNanoseconds()
    let start = self.startTime
    self.thread = RealtimeThread(name: "patchbay-smf", priority: 60) { [self] in
      self.run(from: start)
    }
  }

  public func wait() {
    self.thread?.join()
    self.thread = nil
  }

  private func run(from start: UInt64) {
    var parser = MIDIParser()
    for event in self.file.events {
      let due = start + event.nanoseconds
      var target = timespec(tv_sec: Int(due / 1_000_000_000), tv_nsec: Int(due % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
      event.bytes.withUnsafeBytes { bytes in
        parser.parse(bytes, at: monotonicNanoseconds()) { parsed in
          if !self.events.push(parsed) { self.droppedEvents.add(1, ordering: .relaxed) }
        }
      }
      self.doorbell.ring()
    }
    self.finished.store(true, ordering: .releasing)
    self.doorbell.ring()
  }
}
