/// A MIDI input as the command line and host configs name it: `file:PATH`, `fifo:PATH`,
/// `stdin`, `smf:PATH`, `seq`, `hw:CARD[,DEVICE[,SUB]]`, `jack`, or `none`.
///
/// ```swift
/// let spec = try MIDIInputSpec("fifo:/tmp/midi")
/// let source = try spec.openSource()   // a FileByteSource, opened (a FIFO waits for a writer)
/// ```
public enum MIDIInputSpec: Equatable, Sendable, CustomStringConvertible {
  case none
  case stdin
  case sequencer
  /// A regular file or a FIFO: raw MIDI bytes.
  case file(String)
  case rawMIDI(String)
  /// A Standard MIDI File, played in real time.
  case smf(String)
  /// The app's JACK client's `midi_in` port (`[audio] backend = "jack"`), which the JACK
  /// output opens.
  case jack

  /// What `--midi` and `[midi] input` take, for errors.
  public static let forms = "file:PATH, fifo:PATH, stdin, smf:PATH, seq, hw:N, jack or none"

  public init(_ text: String) throws(MIDIError) {
    switch text {
    case "none": self = .none
    case "stdin": self = .stdin
    case "seq": self = .sequencer
    case "jack": self = .jack
    case let text where text.hasPrefix("file:") || text.hasPrefix("fifo:"):
      let path = String(text.drop { $0 != ":" }.dropFirst())
      guard !path.isEmpty else { throw MIDIError("'\(text)' needs a path: \(text)/tmp/midi") }
      self = .file(path)
    case let text where text.hasPrefix("smf:"):
      guard text.count > 4 else { throw MIDIError("'smf:' needs a path: smf:song.mid") }
      self = .smf(String(text.dropFirst(4)))
    case let text where text.hasPrefix("hw:"):
      self = .rawMIDI(text)
    default:
      throw MIDIError(
        "'\(text)' is not a MIDI input: use \(Self.forms) (see `patchbay midi sources`).")
    }
  }

  public var description: String {
    switch self {
    case .none: "none"
    case .stdin: "stdin"
    case .sequencer: "seq"
    case .file(let path): "file:\(path)"
    case .rawMIDI(let device): device
    case .smf(let path): "smf:\(path)"
    case .jack: "jack"
    }
  }

  /// Opens the byte source; nil for `none`, `smf:` (which ``SMFPlayer`` plays) and `jack`
  /// (which the JACK output opens).
  public func openSource() throws(MIDIError) -> (any MIDIByteSource)? {
    switch self {
    case .none, .smf, .jack: nil
    case .stdin: FileByteSource()
    case .sequencer: try SequencerSource()
    case .file(let path): try FileByteSource(path: path)
    case .rawMIDI(let device): try RawMIDISource(device: device)
    }
  }
}
