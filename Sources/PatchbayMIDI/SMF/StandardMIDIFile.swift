import Foundation

/// A Standard MIDI File (format 0 or 1), read into its events on one timeline with their
/// times from the tempo map.
///
/// ```swift
/// let song = try StandardMIDIFile(contentsOf: "tune.mid")
/// song.events.first   // (nanoseconds: 0, bytes: [0x90, 60, 100], track: 1)
/// song.duration       // nanoseconds to the last event
/// ```
///
/// Read: the `MThd` header (format 0 or 1, tracks, ticks per quarter note), every `MTrk`
/// chunk (other chunks are skipped, as the spec asks), delta times, running status, meta
/// events (tempo changes `FF 51` apply to every track; the rest are skipped), and SysEx
/// (`F0 len data`, `F7 len data`). Errors name the byte offset and what was expected.
public struct StandardMIDIFile: Sendable {
  /// One MIDI message of the file, when it plays.
  public struct Event: Sendable, Equatable {
    /// From the start of the file, following the tempo map.
    public var nanoseconds: UInt64
    public var tick: UInt64
    /// The message's bytes with their status byte (SysEx: F0 … F7).
    public var bytes: [UInt8]
    public var track: Int
  }

  public let format: Int
  public let ticksPerQuarterNote: Int
  public let trackCount: Int
  /// Every message, in time order (ties in track order).
  public let events: [Event]
  /// Tempo changes: (tick, microseconds per quarter note).
  public let tempoMap: [(tick: UInt64, microsecondsPerQuarter: Int)]

  /// The time of the last event.
  public var duration: UInt64 { self.events.last?.nanoseconds ?? 0 }

  public init(contentsOf path: String) throws(MIDIError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MIDIError("\(path): cannot read the file.")
    }
    do {
      try self.init(bytes: [UInt8](data))
    } catch {
      throw MIDIError("\(path): \(error.description)")
    }
  }

  public init(bytes: [UInt8]) throws(MIDIError) {
    var reader = Reader(bytes: bytes)
    try reader.expect("MThd", what: "a Standard MIDI File starts with \"MThd\"")
    let headerLength = try reader.uint32()
    guard headerLength >= 6 else {
      throw reader.error(at: 4, "the header length is \(headerLength); it is at least 6")
    }
    let headerStart = reader.offset
    let format = try reader.uint16()
    let tracks = try reader.uint16()
    let divisionOffset = reader.offset
    let division = try reader.uint16()
    guard format <= 1 else {
      throw reader.error(at: headerStart, "format \(format) is not supported (format 0 and 1 are)")
    }
    guard division & 0x8000 == 0, division > 0 else {
      throw reader.error(
        at: divisionOffset,
        "SMPTE time division (0x\(String(division, radix: 16))) is not supported; ticks per quarter note are"
      )
    }
    reader.offset = headerStart + Int(headerLength)

    var raw: [(tick: UInt64, bytes: [UInt8], track: Int, order: Int)] = []
    var tempos: [(tick: UInt64, microsecondsPerQuarter: Int)] = []
    var track = 0
    while track < Int(tracks) {
      let chunkStart = reader.offset
      guard reader.remaining >= 8 else {
        throw reader.error(
          at: chunkStart, "the header promises \(tracks) track(s); the file ends after \(track)")
      }
      let id = try reader.bytes(4)
      let length = Int(try reader.uint32())
      guard reader.remaining >= length else {
        throw reader.error(
          at: chunkStart + 4, "the chunk says \(length) bytes; only \(reader.remaining) are left")
      }
      guard id == Array("MTrk".utf8) else {
        reader.offset += length  // an unknown chunk: skip it
        continue
      }
      var chunk = Reader(bytes: bytes, offset: reader.offset, end: reader.offset + length)
      reader.offset += length
      var tick: UInt64 = 0
      var running: UInt8 = 0
      var ended = false
      while chunk.remaining > 0 && !ended {
        tick += UInt64(try chunk.variableLength())
        let eventStart = chunk.offset
        var status = try chunk.byte()
        if status < 0x80 {
          guard running != 0 else {
            throw chunk.error(
              at: eventStart,
              "data byte 0x\(String(status, radix: 16)) with no running status (expected a status byte)"
            )
          }
          chunk.offset -= 1
          status = running
        }
        switch status {
        case 0xFF:
          let type = try chunk.byte()
          let length = try chunk.variableLength()
          let data = try chunk.bytes(length)
          if type == 0x51 {
            guard length == 3 else {
              throw chunk.error(at: eventStart, "a tempo event has 3 bytes, not \(length)")
            }
            tempos.append((tick, Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])))
          }
          if type == 0x2F { ended = true }
          running = 0
        case 0xF0, 0xF7:
          let length = try chunk.variableLength()
          let data = try chunk.bytes(length)
          // An empty F7 escape sends nothing: no event.
          if status == 0xF0 || !data.isEmpty {
            raw.append((tick, status == 0xF0 ? [0xF0] + data : data, track, raw.count))
          }
          running = 0
        case 0x80...0xEF:
          running = status
          let count = (status & 0xE0) == 0xC0 ? 1 : 2
          let data = try chunk.bytes(count)
          if let bad = data.firstIndex(where: { $0 >= 0x80 }) {
            throw chunk.error(
              at: chunk.offset - count + bad,
              "expected a data byte (below 0x80) of a 0x\(String(status, radix: 16)) message, found 0x\(String(data[bad], radix: 16))"
            )
          }
          raw.append((tick, [status] + data, track, raw.count))
        default:
          throw chunk.error(
            at: eventStart,
            "0x\(String(status, radix: 16)) is not a track event (expected a MIDI, SysEx or meta event)"
          )
        }
      }
      track += 1
    }

    tempos.sort { $0.tick < $1.tick }
    raw.sort { ($0.tick, $0.track, $0.order) < ($1.tick, $1.track, $1.order) }
    let map = TempoMap(changes: tempos, ticksPerQuarter: Int(division))
    self.format = Int(format)
    self.ticksPerQuarterNote = Int(division)
    self.trackCount = Int(tracks)
    self.tempoMap = tempos
    self.events = raw.map {
      Event(
        nanoseconds: map.nanoseconds(at: $0.tick), tick: $0.tick, bytes: $0.bytes, track: $0.track)
    }
  }
}

/// Ticks to time, through tempo changes (default 120 bpm: 500,000 µs per quarter note).
struct TempoMap {
  /// (tick, nanoseconds at that tick, nanoseconds per tick from there).
  private var segments: [(tick: UInt64, start: Double, perTick: Double)] = []

  init(changes: [(tick: UInt64, microsecondsPerQuarter: Int)], ticksPerQuarter: Int) {
    var tick: UInt64 = 0
    var time = 0.0
    var perTick = 500_000.0 * 1_000 / Double(ticksPerQuarter)
    self.segments = [(0, 0, perTick)]
    for change in changes {
      time += Double(change.tick - tick) * perTick
      tick = change.tick
      perTick = Double(change.microsecondsPerQuarter) * 1_000 / Double(ticksPerQuarter)
      if self.segments.last?.tick == tick { self.segments.removeLast() }
      self.segments.append((tick, time, perTick))
    }
  }

  func nanoseconds(at tick: UInt64) -> UInt64 {
    let segment = self.segments.last { $0.tick <= tick }!
    return UInt64((segment.start + Double(tick - segment.tick) * segment.perTick).rounded())
  }
}

/// Big-endian reading with offsets for errors.
struct Reader {
  let bytes: [UInt8]
  var offset: Int
  let end: Int

  init(bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.offset = offset
    self.end = end ?? bytes.count
  }

  var remaining: Int { self.end - self.offset }

  func error(at offset: Int, _ reason: String) -> MIDIError {
    MIDIError("byte \(offset): \(reason).")
  }

  mutating func byte() throws(MIDIError) -> UInt8 {
    guard self.offset < self.end else {
      throw self.error(at: self.offset, "the data ends early (expected another byte)")
    }
    defer { self.offset += 1 }
    return self.bytes[self.offset]
  }

  mutating func bytes(_ count: Int) throws(MIDIError) -> [UInt8] {
    guard count <= self.remaining else {
      throw self.error(at: self.offset, "expected \(count) more byte(s); \(self.remaining) left")
    }
    defer { self.offset += count }
    return Array(self.bytes[self.offset..<self.offset + count])
  }

  mutating func expect(_ text: String, what: String) throws(MIDIError) {
    let start = self.offset
    guard (try? self.bytes(text.utf8.count)) == Array(text.utf8) else {
      throw self.error(at: start, what)
    }
  }

  mutating func uint16() throws(MIDIError) -> UInt16 {
    let value = try self.bytes(2)
    return UInt16(value[0]) << 8 | UInt16(value[1])
  }

  mutating func uint32() throws(MIDIError) -> UInt32 {
    let value = try self.bytes(4)
    return value.reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// A variable-length quantity: 7 bits a byte, high bit set on all but the last; at most 4.
  mutating func variableLength() throws(MIDIError) -> Int {
    let start = self.offset
    var value = 0
    for _ in 0..<4 {
      let byte = try self.byte()
      value = value << 7 | Int(byte & 0x7F)
      if byte < 0x80 { return value }
    }
    throw self.error(at: start, "a variable-length number is longer than 4 bytes")
  }
}
