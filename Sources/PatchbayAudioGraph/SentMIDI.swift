import PatchbayABI

/// The MIDI processors send each period (`pb_process.midi_out`, patchbay/process.h), and
/// the period's MIDI for the processors after them: what arrived, with what was sent merged
/// in by frame. Allocated once, on the app queue; filled and read on the audio thread only.
///
/// ```swift
/// sent.begin()                         // a new period
/// sent.append(event)                   // a sequencer's note-on at frame 17
/// let (events, count) = sent.merged(with: arrived, count: arrivedCount)
/// ```
final class SentMIDI: @unchecked Sendable {
  static let capacity = 512
  private let events: UnsafeMutablePointer<pb_midi_event>
  private let merged: UnsafeMutablePointer<pb_midi_event>
  private(set) var count = 0

  init() {
    self.events = .allocate(capacity: Self.capacity)
    self.merged = .allocate(capacity: 2 * Self.capacity)
  }

  deinit {
    self.events.deallocate()
    self.merged.deallocate()
  }

  /// Forgets the last period's events. [audio-thread]
  func begin() { self.count = 0 }

  /// Adds an event; false when the period's room is used up. [audio-thread]
  func append(_ event: pb_midi_event) -> Bool {
    guard self.count < Self.capacity else { return false }
    self.events[self.count] = event
    self.count += 1
    return true
  }

  /// The arrived events with the sent ones merged in, sorted by frame (at one frame, what
  /// arrived first); the arrived events themselves when nothing was sent. [audio-thread]
  func merged(with arrived: UnsafePointer<pb_midi_event>, count arrivedCount: Int) -> (
    UnsafePointer<pb_midi_event>, Int
  ) {
    guard self.count > 0 else { return (arrived, arrivedCount) }
    // Each processor's events come in frame order; several processors' need sorting (an
    // insertion sort: a few events, no allocation).
    for index in 1..<max(1, self.count) {
      let event = self.events[index]
      var slot = index
      while slot > 0, self.events[slot - 1].frame > event.frame {
        self.events[slot] = self.events[slot - 1]
        slot -= 1
      }
      self.events[slot] = event
    }
    var (a, s, out) = (0, 0, 0)
    while a < arrivedCount || s < self.count {
      if s == self.count || (a < arrivedCount && arrived[a].frame <= self.events[s].frame) {
        self.merged[out] = arrived[a]
        a += 1
      } else {
        self.merged[out] = self.events[s]
        s += 1
      }
      out += 1
    }
    return (UnsafePointer(self.merged), out)
  }
}
