import CPatchbayABI

/// A MIDI message as a reducer hears it ("patchbay.midi/1"), with the native SDK's cases and
/// encoding: give `Action` a `case midi(MIDIMessage)` and set the channels to listen to.
///
///     static let midiChannels: MIDIChannels = 0xFFFF   // every channel; bit 0 is channel 1
///     enum Action { case midi(MIDIMessage) … }
///     // reduce: case .midi(.noteOn(_, let note, let velocity)): …
///
/// Channels are 1–16; a note-on with velocity 0 arrives as a note-off.
public enum MIDIMessage: WireValue {
  case noteOn(channel: Int, note: Int, velocity: Int)
  case noteOff(channel: Int, note: Int, velocity: Int)
  case controlChange(channel: Int, controller: Int, value: Int)
  case programChange(channel: Int, program: Int)
  /// -8192 to 8191.
  case pitchBend(channel: Int, value: Int)
  case channelPressure(channel: Int, pressure: Int)
  case polyPressure(channel: Int, note: Int, pressure: Int)
  case start
  case stop
  case `continue`

  /// Each case's name and labels, as the host writes them (MIDIDelivery.swift), in the
  /// order of the cases.
  static let shapes: [(name: StaticString, labels: [StaticString])] = [
    ("noteOn", ["channel", "note", "velocity"]), ("noteOff", ["channel", "note", "velocity"]),
    ("controlChange", ["channel", "controller", "value"]),
    ("programChange", ["channel", "program"]),
    ("pitchBend", ["channel", "value"]), ("channelPressure", ["channel", "pressure"]),
    ("polyPressure", ["channel", "note", "pressure"]), ("start", []), ("stop", []),
    ("continue", []),
  ]

  /// Its shape's index and its values, in the shape's order.
  var parts: (shape: Int, values: [Int]) {
    switch self {
    case .noteOn(let channel, let note, let velocity): (0, [channel, note, velocity])
    case .noteOff(let channel, let note, let velocity): (1, [channel, note, velocity])
    case .controlChange(let channel, let controller, let value): (2, [channel, controller, value])
    case .programChange(let channel, let program): (3, [channel, program])
    case .pitchBend(let channel, let value): (4, [channel, value])
    case .channelPressure(let channel, let pressure): (5, [channel, pressure])
    case .polyPressure(let channel, let note, let pressure): (6, [channel, note, pressure])
    case .start: (7, [])
    case .stop: (8, [])
    case .continue: (9, [])
    }
  }

  /// The case of shape `shape` with `values` in its order.
  init?(shape: Int, _ values: [Int]) {
    switch shape {
    case 0: self = .noteOn(channel: values[0], note: values[1], velocity: values[2])
    case 1: self = .noteOff(channel: values[0], note: values[1], velocity: values[2])
    case 2: self = .controlChange(channel: values[0], controller: values[1], value: values[2])
    case 3: self = .programChange(channel: values[0], program: values[1])
    case 4: self = .pitchBend(channel: values[0], value: values[1])
    case 5: self = .channelPressure(channel: values[0], pressure: values[1])
    case 6: self = .polyPressure(channel: values[0], note: values[1], pressure: values[2])
    case 7: self = .start
    case 8: self = .stop
    case 9: self = .continue
    default: return nil
    }
  }

  public func write(to out: inout WireWriter) {
    let (shape, values) = parts
    let labels = Self.shapes[shape].labels
    out.case(Self.shapes[shape].name, labels.count)
    for (label, value) in zip(labels, values) { out.field(label, value) }
  }

  /// The case and its fields by label, in any order; nil for another case, or a field missing,
  /// unknown or twice.
  public static func read(from input: inout WireReader) -> MIDIMessage? {
    guard let (name, count) = input.case(),
      let shape = shapes.firstIndex(where: { name == $0.name })
    else { return nil }
    let labels = shapes[shape].labels
    guard count == labels.count else { return nil }
    var values = [Int?](repeating: nil, count: count)
    for _ in 0..<count {
      guard let label = input.label(), let index = labels.firstIndex(where: { label == $0 }),
        values[index] == nil, let value = Int.read(from: &input)
      else { return nil }
      values[index] = value
    }
    return MIDIMessage(shape: shape, values.compactMap { $0 })
  }

  public static var wireType: StaticString { "case" }
}
