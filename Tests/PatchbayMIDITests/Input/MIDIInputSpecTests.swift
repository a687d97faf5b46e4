import PatchbayMIDI
import Testing

/// What `--midi` and `[midi] input` take.
struct MIDIInputSpecTests {
  @Test(arguments: [
    ("none", MIDIInputSpec.none), ("stdin", .stdin), ("seq", .sequencer), ("jack", .jack),
    ("fifo:/tmp/keys", .file("/tmp/keys")), ("file:notes.raw", .file("notes.raw")),
    ("smf:song.mid", .smf("song.mid")), ("hw:1,0,0", .rawMIDI("hw:1,0,0")),
  ])
  func eachFormReadsAndPrintsBack(text: String, spec: MIDIInputSpec) throws {
    #expect(try MIDIInputSpec(text) == spec)
    #expect(spec.description == (text.hasPrefix("fifo:") ? "file:/tmp/keys" : text))
  }

  @Test func jackIsOpenedByTheJACKOutputNotHere() throws {
    #expect(try MIDIInputSpec.jack.openSource() == nil)
  }

  @Test func anythingElseIsOneLineListingTheForms() {
    #expect(
      throws: MIDIError(
        "'usb' is not a MIDI input: use \(MIDIInputSpec.forms) (see `patchbay midi sources`).")
    ) {
      try MIDIInputSpec("usb")
    }
    #expect(throws: MIDIError("'fifo:' needs a path: fifo:/tmp/midi")) {
      try MIDIInputSpec("fifo:")
    }
  }
}
