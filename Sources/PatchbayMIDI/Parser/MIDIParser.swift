/// A MIDI 1.0 byte-stream parser: bytes in, ``MIDIEvent``s out. No allocation, no locks; one
/// instance per stream.
///
/// ```swift
/// var parser = MIDIParser()
/// parser.parse([0x90, 60, 100, 62, 0], at: now) { event in print(event) }
/// // … ch1 note-on 60 100
/// // … ch1 note-off 62 0      (running status; velocity 0 is a note-off)
/// ```
///
/// The rules (docs/ARCHITECTURE.md, "Audio and MIDI"), each tested in `MIDIParserTests`:
/// - Running status: data bytes after a channel message repeat its status.
/// - Real-time bytes (F8 FA FB FC FE FF) are messages wherever they appear, even inside a
///   message or SysEx, and change nothing else; F9 and FD (undefined) are ignored and do not
///   cancel running status.
/// - FF (reset) also clears running status and drops a message half received (not a SysEx).
/// - Any status byte other than real-time ends a SysEx (a ``MIDIEvent/SysExFlags/cutOff``
///   chunk when it is not F7).
/// - System Common (F1–F6, and F7 outside SysEx) clears running status; F4 and F5 (undefined)
///   are ignored apart from that.
/// - Data bytes with no status to belong to are ignored.
/// - A note-on with velocity 0 is reported as a note-off with velocity 0.
/// - SysEx is reported in chunks of at most ``MIDIEvent/sysExChunkSize`` bytes.
public struct MIDIParser: Sendable {
  /// The status whose data bytes come next (0 when none). A channel status stays after its
  /// message: that is running status.
  @usableFromInline var status: UInt8 = 0
  @usableFromInline var needed: UInt8 = 0
  @usableFromInline var collected: UInt8 = 0
  @usableFromInline var first: UInt8 = 0
  @usableFromInline var inSysEx = false
  @usableFromInline var sysEx = MIDIEvent(sysEx: EmptyCollection(), flags: [])
  @usableFromInline var sysExStarted = false

  public init() {}

  /// Parses `bytes`, read at `timestamp` (CLOCK_MONOTONIC nanoseconds), calling `emit` for
  /// each complete message.
  ///
  /// Data bytes — most of any stream — take a fast path: SysEx data goes straight into the
  /// chunk, channel-message data keeps the parser's state in locals. Everything else goes
  /// through the byte-at-a-time path.
  @inlinable
  public mutating func parse(
    _ bytes: UnsafeRawBufferPointer, at timestamp: UInt64, emit: (MIDIEvent) -> Void
  ) {
    var status = self.status
    var collected = self.collected
    var first = self.first
    var needed = self.needed
    for byte in bytes {
      if byte < 0x80 && self.inSysEx && Int(self.sysEx.count) < MIDIEvent.sysExChunkSize {
        // SysEx data: into the chunk's two words.
        let index = Int(self.sysEx.count)
        let shift = UInt64((index & 7) * 8)
        if index < 8 {
          self.sysEx.bytes.0 |= UInt64(byte) << shift
        } else {
          self.sysEx.bytes.1 |= UInt64(byte) << shift
        }
        self.sysEx.count += 1
        continue
      }
      if byte < 0x80 && status & 0xF0 != 0xF0 && status != 0 && !self.inSysEx {
        if needed == 2 && collected == 0 {
          first = byte
          collected = 1
          continue
        }
        collected = 0
        let (data1, data2) = needed == 2 ? (first, byte) : (byte, UInt8(0))
        emit(
          MIDIEvent(
            Self.kind(status, data2), channel: status & 0x0F, data1, data2, count: needed,
            at: timestamp))
        continue
      }
      (self.status, self.collected, self.first, self.needed) = (status, collected, first, needed)
      self.parse(byte, at: timestamp, emit: emit)
      (status, collected, first, needed) = (self.status, self.collected, self.first, self.needed)
    }
    (self.status, self.collected, self.first, self.needed) = (status, collected, first, needed)
  }

  /// Parses `bytes` (an array, for tests and tools).
  @inlinable
  public mutating func parse(_ bytes: [UInt8], at timestamp: UInt64 = 0, emit: (MIDIEvent) -> Void)
  {
    bytes.withUnsafeBytes { self.parse($0, at: timestamp, emit: emit) }
  }

  /// Parses one byte.
  @inlinable @inline(__always)
  public mutating func parse(_ byte: UInt8, at timestamp: UInt64, emit: (MIDIEvent) -> Void) {
    if byte >= 0xF8 {
      self.realTime(byte, at: timestamp, emit: emit)
    } else if byte >= 0x80 {
      self.statusByte(byte, at: timestamp, emit: emit)
    } else if self.inSysEx {
      self.sysExByte(byte, at: timestamp, emit: emit)
    } else {
      self.dataByte(byte, at: timestamp, emit: emit)
    }
  }

  @inlinable
  mutating func realTime(_ byte: UInt8, at timestamp: UInt64, emit: (MIDIEvent) -> Void) {
    let kind: MIDIEvent.Kind
    switch byte {
    case 0xF8: kind = .clock
    case 0xFA: kind = .start
    case 0xFB: kind = .continue
    case 0xFC: kind = .stop
    case 0xFE: kind = .activeSensing
    case 0xFF:
      kind = .reset
      (self.status, self.collected) = (0, 0)
    default: return  // F9, FD: undefined
    }
    emit(MIDIEvent(kind, at: timestamp))
  }

  @inlinable
  mutating func statusByte(_ byte: UInt8, at timestamp: UInt64, emit: (MIDIEvent) -> Void) {
    if self.inSysEx {
      self.endSysEx(byte == 0xF7 ? .end : .cutOff, at: timestamp, emit: emit)
      if byte == 0xF7 {
        self.status = 0
        return
      }
    }
    self.collected = 0
    if byte < 0xF0 {
      self.status = byte
      self.needed = (byte & 0xE0) == 0xC0 ? 1 : 2  // Cn, Dn: one data byte
      return
    }
    self.status = 0
    switch byte {
    case 0xF0:
      self.inSysEx = true
      self.sysExStarted = false
      self.sysEx.count = 0
      self.sysEx.bytes = (0, 0)
    case 0xF1, 0xF3:
      (self.status, self.needed) = (byte, 1)
    case 0xF2:
      (self.status, self.needed) = (byte, 2)
    case 0xF6:
      emit(MIDIEvent(.tuneRequest, at: timestamp))
    default: break  // F4, F5 undefined; F7 without a SysEx
    }
  }

  @inlinable
  mutating func dataByte(_ byte: UInt8, at timestamp: UInt64, emit: (MIDIEvent) -> Void) {
    guard self.status != 0 else { return }  // orphan data
    if self.collected == 0 && self.needed == 2 {
      self.first = byte
      self.collected = 1
      return
    }
    let status = self.status
    let (data1, data2) = self.needed == 2 ? (self.first, byte) : (byte, UInt8(0))
    self.collected = 0
    if status >= 0xF0 { self.status = 0 }  // System Common: no running status
    let kind: MIDIEvent.Kind
    switch status {
    case 0xF1: kind = .timeCodeQuarterFrame
    case 0xF2: kind = .songPosition
    case 0xF3: kind = .songSelect
    default: kind = Self.kind(status, data2)
    }
    emit(MIDIEvent(kind, channel: status < 0xF0 ? status & 0x0F : 0, data1, data2, at: timestamp))
  }

  /// The kind of a channel message (status 0x80–0xEF); a note-on with velocity 0 is a note-off.
  @inlinable @inline(__always)
  static func kind(_ status: UInt8, _ data2: UInt8) -> MIDIEvent.Kind {
    switch status >> 4 {
    case 0x8: .noteOff
    case 0x9: data2 == 0 ? .noteOff : .noteOn
    case 0xA: .polyPressure
    case 0xB: .controlChange
    case 0xC: .programChange
    case 0xD: .channelPressure
    default: .pitchBend
    }
  }

  @inlinable
  mutating func sysExByte(_ byte: UInt8, at timestamp: UInt64, emit: (MIDIEvent) -> Void) {
    if Int(self.sysEx.count) == MIDIEvent.sysExChunkSize {
      self.sysEx.sysExFlags = self.sysExStarted ? [] : .start
      self.sysEx.timestamp = timestamp
      emit(self.sysEx)
      self.sysExStarted = true
      self.sysEx.count = 0
      self.sysEx.bytes = (0, 0)
    }
    self.sysEx[data: Int(self.sysEx.count)] = byte
    self.sysEx.count += 1
  }

  @inlinable
  mutating func endSysEx(
    _ how: MIDIEvent.SysExFlags, at timestamp: UInt64, emit: (MIDIEvent) -> Void
  ) {
    self.sysEx.sysExFlags = self.sysExStarted ? how : how.union(.start)
    self.sysEx.timestamp = timestamp
    emit(self.sysEx)
    self.inSysEx = false
    self.sysEx.count = 0
    self.sysEx.bytes = (0, 0)
  }
}
