import Foundation
import PatchbayRealtime
import Synchronization

/// A MIDI reader thread: reads a ``MIDIByteSource``, parses, and hands ``MIDIEvent``s to the app
/// through a ring — no allocation, lock or logging on the reader thread (docs/ARCHITECTURE.md,
/// "Audio and MIDI").
///
/// ```swift
/// let input = MIDIInput(source: try FileByteSource(path: "/tmp/midi.fifo"), keepsRawBytes: true)
/// input.start()
/// while !input.isFinished || input.events.availableToRead > 0 {
///   while let event = input.events.pop() { print(event) }
/// }
/// ```
public final class MIDIInput: @unchecked Sendable {
  public let source: any MIDIByteSource
  /// Parsed events, oldest first. [consumer: the app]
  public let events = SPSCRing<MIDIEvent>(minimumCapacity: 8192)
  /// Rung after each read's events are in ``events``, and when the source ends: the consumer
  /// waits on it instead of polling.
  public let doorbell = Doorbell()
  /// The bytes as read, when asked for (`--raw`). [consumer: the app]
  public let rawBytes: SPSCRing<UInt8>?
  private let droppedEvents = Atomic<Int>(0)
  private let finished = Atomic<Bool>(false)
  private let readError = Atomic<Int>(0)
  private var thread: RealtimeThread?

  public init(source: any MIDIByteSource, keepsRawBytes: Bool = false) {
    self.source = source
    self.rawBytes = keepsRawBytes ? SPSCRing<UInt8>(minimumCapacity: 1 << 16) : nil
  }

  /// Events dropped because the app did not drain the ring in time.
  public var dropped: Int { self.droppedEvents.load(ordering: .relaxed) }
  /// Whether the source ended (or failed: see ``error``).
  public var isFinished: Bool { self.finished.load(ordering: .acquiring) }
  /// The errno of a failed read, or 0.
  public var error: Int32 { Int32(self.readError.load(ordering: .relaxed)) }

  /// Starts the reader thread.
  public func start() {
    let reason = self.source.isLive ? nil : "\(self.source.name) is not live"
    self.thread = RealtimeThread(name: "patchbay-midi", priority: 60, realtimeNotNeeded: reason) {
      [self] in
      self.run()
    }
  }

  /// Waits until the source ends.
  public func wait() {
    self.thread?.join()
    self.thread = nil
  }

  /// The reader loop. [MIDI reader thread]
  ///
  /// A live source (a port, a FIFO, a pipe) has a deadline: when the app falls behind, an
  /// event that does not fit is dropped and counted. A regular file has none: the reader
  /// waits for room, and every byte and event gets through.
  private func run() {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    defer { buffer.deallocate() }
    var parser = MIDIParser()
    let waits = !self.source.isLive
    while true {
      let count = self.source.read(into: buffer)
      if count < 0 { self.readError.store(-count, ordering: .relaxed) }
      if count <= 0 { break }
      let timestamp = monotonicNanoseconds()
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
      if let raw = self.rawBytes {
        var rest = bytes.bindMemory(to: UInt8.self)
        while !rest.isEmpty {
          let written = raw.write(rest)
          rest = UnsafeBufferPointer(rebasing: rest[written...])
          guard waits, !rest.isEmpty else { break }
          Self.pause()
        }
      }
      parser.parse(bytes, at: timestamp) { event in
        while !self.events.push(event) {
          guard waits else {
            self.droppedEvents.add(1, ordering: .relaxed)
            return
          }
          Self.pause()
        }
      }
      self.doorbell.ring()
    }
    self.finished.store(true, ordering: .releasing)
    self.doorbell.ring()
  }

  /// A short wait for the app to make room (a file's reader only).
  private static func pause() {
    var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
    nanosleep(&pause, nil)
  }
}
