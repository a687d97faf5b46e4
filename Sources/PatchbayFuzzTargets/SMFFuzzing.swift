import PatchbayMIDI

/// Arbitrary bytes as a Standard MIDI File (`--midi smf:song.mid`, `patchbay render`).
///
/// A file that reads has its events in time order, none of them empty, each from
/// a track the header counts; its tempo map is in tick order.
enum SMFFuzzing {
  static func check(_ input: [UInt8]) throws(FuzzViolation) {
    guard let song = try? StandardMIDIFile(bytes: input) else { return }
    var previous: StandardMIDIFile.Event?
    for event in song.events {
      guard !event.bytes.isEmpty else {
        throw FuzzViolation(.smf, "an event without bytes at tick \(event.tick)")
      }
      guard (0..<song.trackCount).contains(event.track) else {
        throw FuzzViolation(.smf, "an event of track \(event.track) of \(song.trackCount)")
      }
      if let previous,
        previous.tick > event.tick || previous.nanoseconds > event.nanoseconds
      {
        throw FuzzViolation(
          .smf,
          "events out of order: tick \(previous.tick) then \(event.tick), "
            + "\(previous.nanoseconds) ns then \(event.nanoseconds) ns")
      }
      previous = event
    }
    for (earlier, later) in zip(song.tempoMap, song.tempoMap.dropFirst())
    where earlier.tick > later.tick {
      throw FuzzViolation(
        .smf, "tempo changes out of order: tick \(earlier.tick) then \(later.tick)")
    }
  }
}
