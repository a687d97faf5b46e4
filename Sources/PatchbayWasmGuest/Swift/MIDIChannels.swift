import CPatchbayABI

/// The MIDI channels a feature listens to, as a mask (bit 0 is channel 1, `0xFFFF` all):
///
///     static let midiChannels: MIDIChannels = 0x0001   // channel 1
///
/// Its messages come as the feature's `midi(MIDIMessage)` actions. A type of its own rather
/// than the native SDK's `UInt16`: the literal makes the call that listens, so only a module
/// whose source sets it imports "patchbay.midi/1" (and needs `[sandbox]`'s "midi" grant).
public struct MIDIChannels: ExpressibleByIntegerLiteral {
  public let mask: UInt16
  let listen: ((UnsafePointer<pb_host>?, UInt16) -> Void)?

  /// No channel: the default.
  public static var none: MIDIChannels { MIDIChannels(mask: 0, listen: nil) }

  @usableFromInline
  init(mask: UInt16, listen: ((UnsafePointer<pb_host>?, UInt16) -> Void)?) {
    (self.mask, self.listen) = (mask, listen)
  }

  @_alwaysEmitIntoClient
  public init(integerLiteral mask: UInt16) {
    self.init(mask: mask, listen: patchbay_midi_listen)
  }
}
