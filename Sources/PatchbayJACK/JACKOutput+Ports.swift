import CJACK

/// The client's output ports, by name, and their connection to the server's playback.
extension JACKOutput {
  /// The full names of this client's output ports (`patchbay:out_1`, …), for `jack_connect`.
  public var portNames: [String] {
    (0..<self.channels).map { String(cString: jack_port_name(self.ports[$0])) }
  }

  /// Connects the output ports, in order, to the server's physical playback ports (a sound
  /// card's, or the dummy driver's `system:playback_N`); returns the connections made, as
  /// `"patchbay:out_1 → system:playback_1"`. Call it after activating.
  @discardableResult
  public func connectToPlayback() -> [String] {
    let flags = UInt(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue)
    guard let list = jack_get_ports(self.client, nil, JACK_DEFAULT_AUDIO_TYPE, flags) else {
      return []
    }
    defer { jack_free(list) }
    var made: [String] = []
    for (channel, source) in self.portNames.enumerated() {
      guard let destination = list[channel] else { break }
      if jack_connect(self.client, source, destination) == 0 {
        made.append("\(source) → \(String(cString: destination))")
      }
    }
    return made
  }
}
