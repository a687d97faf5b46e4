/// A parser the fuzzers drive, with what must hold for every input it is given.
///
/// `make fuzz` runs each under libFuzzer (`patchbay-fuzz` built with `-sanitize=fuzzer`);
/// `make test` replays each one's corpus (`Tests/Fuzz/Corpus/<target>/`) through ``check(_:)``.
///
/// ```swift
/// try FuzzTarget.actionText.check(Array("setStep(by: 5)".utf8))   // holds
/// try FuzzTarget.midi.check([0x90, 60])                             // holds: half a message
/// ```
///
/// A parser may refuse an input; what it may not do is crash, hang, read out of bounds, or
/// break one of the properties its target names (a round trip, an agreement between the C and
/// the Swift implementation, a block parse equal to a byte-by-byte one).
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The value encoding's decoders: `WireValue(decoding:)` and the C `pb_reader`.
  case value
  /// The action text parsers: `WireValue(parsingAction:)` and the C `pb_parse_action_text`.
  case actionText = "action-text"
  /// The host-config parser, `TOMLDocument(parsing:)`.
  case toml
  /// The MIDI 1.0 byte parser, `MIDIParser`.
  case midi
  /// The Standard MIDI File reader, `StandardMIDIFile(bytes:)`.
  case smf

  /// Feeds `input` to the target's parser and checks its properties.
  public func check(_ input: [UInt8]) throws(FuzzViolation) {
    switch self {
    case .value: try ValueFuzzing.check(input)
    case .actionText: try ActionTextFuzzing.check(input)
    case .toml: try TOMLFuzzing.check(input)
    case .midi: try MIDIFuzzing.check(input)
    case .smf: try SMFFuzzing.check(input)
    }
  }
}

/// A property a parser broke: which, and the values that show it.
public struct FuzzViolation: Error, CustomStringConvertible {
  public let target: FuzzTarget
  public let property: String

  init(_ target: FuzzTarget, _ property: String) {
    self.target = target
    self.property = property
  }

  public var description: String { "\(self.target.rawValue): \(self.property)" }
}
