/// One MIDI 1.0 message, timestamped: what the parser emits and the MIDI sources deliver.
/// Fixed size (32 bytes) and trivially copyable, so it travels through an `SPSCRing`.
///
/// ```swift
/// let event = MIDIEvent(.noteOn, channel: 0, 60, 100, at: 1_000)
/// event.note      // 60
/// event.velocity  // 100
/// event.description  // "0.000001000 ch1 note-on 60 100"
/// ```
///
/// System Exclusive arrives in chunks of at most ``sysExChunkSize`` data bytes (without the
/// F0/F7 framing): ``Kind/sysEx`` events whose ``sysExFlags`` say which chunk starts the
/// message and which ends it, and whether it ended with F7 or was cut off by another status.
@frozen
public struct MIDIEvent: Equatable, Sendable, BitwiseCopyable, CustomStringConvertible {
  /// What kind of message.
  public enum Kind: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    case noteOff, noteOn, polyPressure, controlChange, programChange, channelPressure, pitchBend
    case sysEx
    case timeCodeQuarterFrame, songPosition, songSelect, tuneRequest
    case clock, start, `continue`, stop, activeSensing, reset

    /// The name used in `patchbay midi monitor` output.
    public var name: String {
      switch self {
      case .noteOff: "note-off"
      case .noteOn: "note-on"
      case .polyPressure: "poly-pressure"
      case .controlChange: "control-change"
      case .programChange: "program-change"
      case .channelPressure: "channel-pressure"
      case .pitchBend: "pitch-bend"
      case .sysEx: "sysex"
      case .timeCodeQuarterFrame: "mtc-quarter-frame"
      case .songPosition: "song-position"
      case .songSelect: "song-select"
      case .tuneRequest: "tune-request"
      case .clock: "clock"
      case .start: "start"
      case .continue: "continue"
      case .stop: "stop"
      case .activeSensing: "active-sensing"
      case .reset: "reset"
      }
    }

    /// Whether the message belongs to a channel (status 0x80–0xEF).
    public var hasChannel: Bool { self.rawValue <= Kind.pitchBend.rawValue }
  }

  /// Bits of ``sysExFlags``.
  public struct SysExFlags: OptionSet, Sendable, BitwiseCopyable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The chunk right after F0.
    public static let start = SysExFlags(rawValue: 1)
    /// The last chunk: the message ended with F7.
    public static let end = SysExFlags(rawValue: 2)
    /// The last chunk: another status byte cut the message off before any F7.
    public static let cutOff = SysExFlags(rawValue: 4)
  }

  /// The most data bytes one sysex chunk carries.
  public static let sysExChunkSize = 16

  /// CLOCK_MONOTONIC nanoseconds when the message's last byte was read.
  public var timestamp: UInt64
  public var kind: Kind
  /// 0–15 for channel messages (shown as 1–16), else 0.
  public var channel: UInt8
  /// Data bytes used: 0–2 for most messages, up to ``sysExChunkSize`` for sysex.
  public var count: UInt8
  public var sysExFlags: SysExFlags
  /// The data bytes (status excluded), in order.
  public var bytes: (UInt64, UInt64) = (0, 0)

  /// A message with up to two data bytes.
  @inlinable
  public init(
    _ kind: Kind, channel: UInt8 = 0, _ data1: UInt8 = 0, _ data2: UInt8 = 0, count: UInt8? = nil,
    at timestamp: UInt64 = 0
  ) {
    self.timestamp = timestamp
    self.kind = kind
    self.channel = channel
    self.count = count ?? kind.dataCount
    self.sysExFlags = []
    self.bytes = (UInt64(data1) | UInt64(data2) << 8, 0)
  }

  /// A sysex chunk.
  public init(sysEx data: some Collection<UInt8>, flags: SysExFlags, at timestamp: UInt64 = 0) {
    precondition(data.count <= Self.sysExChunkSize)
    self.timestamp = timestamp
    self.kind = .sysEx
    self.channel = 0
    self.count = UInt8(data.count)
    self.sysExFlags = flags
    for (index, byte) in data.enumerated() { self[data: index] = byte }
  }

  /// Data byte `index`.
  @inlinable
  public subscript(data index: Int) -> UInt8 {
    get {
      let word = index < 8 ? self.bytes.0 : self.bytes.1
      return UInt8(truncatingIfNeeded: word >> UInt64((index & 7) * 8))
    }
    set {
      let shift = UInt64((index & 7) * 8)
      let mask = ~(UInt64(0xFF) << shift)
      if index < 8 {
        self.bytes.0 = self.bytes.0 & mask | UInt64(newValue) << shift
      } else {
        self.bytes.1 = self.bytes.1 & mask | UInt64(newValue) << shift
      }
    }
  }

  /// The data bytes used.
  public var data: [UInt8] { (0..<Int(self.count)).map { self[data: $0] } }

  public var note: UInt8 { self[data: 0] }
  public var velocity: UInt8 { self[data: 1] }
  public var controller: UInt8 { self[data: 0] }
  public var value: UInt8 {
    self.kind == .controlChange || self.kind == .polyPressure ? self[data: 1] : self[data: 0]
  }
  /// Pitch bend, −8192…8191 (0 is centre).
  public var pitchBend: Int { Int(self[data: 0]) | Int(self[data: 1]) << 7 - 8192 }
  /// Song position in MIDI beats (sixteenths), 0…16383.
  public var songPosition: Int { Int(self[data: 0]) | Int(self[data: 1]) << 7 }

  /// A byte as two uppercase hex digits: `0A`, `F7` (SysEx data, `--raw` output).
  public static func hex(_ byte: UInt8) -> String {
    let text = String(byte, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
  }

  public static func == (a: MIDIEvent, b: MIDIEvent) -> Bool {
    a.timestamp == b.timestamp && a.kind == b.kind && a.channel == b.channel && a.count == b.count
      && a.sysExFlags == b.sysExFlags && a.bytes == b.bytes
  }

  /// One line: seconds with nanoseconds, `ch1`–`ch16` (or `-` for system messages), the
  /// kind, then its data in decimal — `12.000512000 ch1 note-on 60 100`,
  /// `12.000600000 ch3 pitch-bend -8192`, `12.000700000 - clock`,
  /// `12.000800000 - sysex 7E 7F 09 01 [start] [end]` (sysex data in hex).
  public var description: String {
    let seconds = self.timestamp / 1_000_000_000
    let nanoseconds = String(self.timestamp % 1_000_000_000)
    let time = "\(seconds).\(String(repeating: "0", count: 9 - nanoseconds.count))\(nanoseconds)"
    let channel = self.kind.hasChannel ? "ch\(self.channel + 1)" : "-"
    let data: String
    switch self.kind {
    case .pitchBend: data = " \(self.pitchBend)"
    case .songPosition: data = " \(self.songPosition)"
    case .sysEx:
      let hex = self.data.map(Self.hex)
      let marks =
        (self.sysExFlags.contains(.start) ? " [start]" : "")
        + (self.sysExFlags.contains(.end) ? " [end]" : "")
        + (self.sysExFlags.contains(.cutOff) ? " [cut off]" : "")
      data = (hex.isEmpty ? "" : " " + hex.joined(separator: " ")) + marks
    default: data = self.data.map { " \($0)" }.joined()
    }
    return "\(time) \(channel) \(self.kind.name)\(data)"
  }
}

extension MIDIEvent.Kind {
  /// Data bytes after the status byte (sysex: variable, 0 here).
  @inlinable
  public var dataCount: UInt8 {
    switch self {
    case .noteOff, .noteOn, .polyPressure, .controlChange, .pitchBend, .songPosition: 2
    case .programChange, .channelPressure, .timeCodeQuarterFrame, .songSelect: 1
    default: 0
    }
  }
}
