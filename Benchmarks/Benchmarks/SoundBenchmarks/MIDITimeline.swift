import Synchronization

/// When each MIDI message of a latency run was written and reduced, by the message's own
/// identity, so a reduce is only ever paired with its own write.
///
/// Message `index` is a note-on whose note and velocity name it: note `index % 128`,
/// velocity `1 + index / 128` (up to 16,256 messages).
///
/// ```swift
/// let timeline = MIDITimeline(messages: 1_000)
/// timeline.written(7, at: monotonicNanoseconds())   // the writer, just before writing
/// timeline.reduced(7, at: monotonicNanoseconds())   // onChange, when the Synth reduced it
/// timeline.result()   // latencies in µs of the matched pairs; lost, doubled, out of order
/// ```
final class MIDITimeline: Sendable {
  struct Result {
    /// Write → reduce, in µs, for each message written once and reduced once.
    var latencies: [UInt64]
    /// Messages written and never reduced.
    var lost: Int
    /// Reduces beyond a message's first.
    var doubled: Int
    /// Messages reduced before one written earlier.
    var reordered: Int
  }

  private struct Times {
    var written: [UInt64?]
    var reduced: [[UInt64]]
    var order: [Int] = []
  }

  private let times: Mutex<Times>

  init(messages: Int) {
    precondition(messages <= 128 * 127, "at most 16,256 messages have their own note-on")
    self.times = Mutex(
      Times(
        written: Array(repeating: nil, count: messages),
        reduced: Array(repeating: [], count: messages)))
  }

  /// The note and velocity of message `index`.
  static func noteOn(_ index: Int) -> (note: UInt8, velocity: UInt8) {
    (UInt8(index % 128), UInt8(1 + index / 128))
  }

  /// The message a reduced action's text names: `midi(noteOn(channel: 1, note: 7,
  /// velocity: 1))` is message 7; nil for any other action.
  static func index(ofNoteOn text: String) -> Int? {
    guard text.hasPrefix("midi(noteOn(") else { return nil }
    func field(_ name: String) -> Int? {
      guard let start = text.range(of: "\(name): ") else { return nil }
      return Int(text[start.upperBound...].prefix { $0.isNumber })
    }
    guard let note = field("note"), let velocity = field("velocity"), velocity > 0 else {
      return nil
    }
    return (velocity - 1) * 128 + note
  }

  func written(_ index: Int, at time: UInt64) {
    self.times.withLock { $0.written[index] = time }
  }

  func reduced(_ index: Int, at time: UInt64) {
    self.times.withLock {
      guard $0.reduced.indices.contains(index) else { return }
      $0.reduced[index].append(time)
      $0.order.append(index)
    }
  }

  func result() -> Result {
    self.times.withLock { times in
      var result = Result(latencies: [], lost: 0, doubled: 0, reordered: 0)
      for (written, reduced) in zip(times.written, times.reduced) {
        guard let written else { continue }
        guard let first = reduced.first else {
          result.lost += 1
          continue
        }
        result.doubled += reduced.count - 1
        if reduced.count == 1, first >= written {
          result.latencies.append((first - written) / 1_000)
        }
      }
      var highest = -1
      for index in times.order {
        if index < highest { result.reordered += 1 }
        highest = max(highest, index)
      }
      return result
    }
  }
}
