import PatchbayABI
import PatchbayEncoding
import Testing

/// The C helpers of `patchbay/value.h` write the same bytes as the Swift encoder and read
/// what it writes: the differential check that C plugins and Swift agree.
@Suite struct CValueHelpersTests {
  private final class Sink {
    var bytes: [UInt8] = []
    var limit = Int.max
  }

  private func write(limit: Int = .max, _ body: (UnsafePointer<pb_writer>) -> Void) -> [UInt8] {
    let sink = Sink()
    sink.limit = limit
    var writer = pb_writer(
      struct_size: UInt32(MemoryLayout<pb_writer>.size),
      context: Unmanaged.passUnretained(sink).toOpaque(),
      write: { context, bytes, length in
        let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
        let take = min(length, sink.limit - sink.bytes.count)
        sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: take))
        return take
      })
    withUnsafePointer(to: &writer) { body($0) }
    return sink.bytes
  }

  @Test func cWritesWhatSwiftWrites() throws {
    let bytes = self.write { out in
      #expect(pb_write_case(out, "say", 3) == 0)
      #expect(pb_write_name(out, "text") == 0)
      #expect(pb_write_string(out, "hé", 3) == 0)
      #expect(pb_write_name(out, "n") == 0)
      #expect(pb_write_int(out, -7) == 0)
      #expect(pb_write_name(out, "on") == 0)
      #expect(pb_write_bool(out, 1) == 0)
    }
    #expect(bytes == WireValue.action("say", ("text", "hé"), ("n", -7), ("on", true)).bytes)
  }

  @Test func cReportsAFullWriter() {
    let bytes = self.write(limit: 3) { out in
      #expect(pb_write_int(out, 1) == -1)
    }
    #expect(bytes.count == 3)
  }

  @Test func cReadsWhatSwiftWrites() {
    let bytes = WireValue.action("say", ("text", "hi"), ("n", 42)).bytes
    bytes.withUnsafeBufferPointer { buffer in
      var reader = pb_reader(bytes: buffer.baseAddress, length: buffer.count, offset: 0, error: nil)
      var name: UnsafePointer<CChar>?
      var nameLength = 0
      var count: UInt32 = 0
      #expect(pb_read_case(&reader, &name, &nameLength, &count) == 0)
      #expect(pb_name_equals(name, nameLength, "say") == 1)
      #expect(count == 2)
      #expect(pb_read_name(&reader, &name, &nameLength) == 0)
      var text: UnsafePointer<CChar>?
      var textLength = 0
      #expect(pb_read_string(&reader, &text, &textLength) == 0)
      #expect(textLength == 2)
      #expect(pb_read_name(&reader, &name, &nameLength) == 0)
      var int: Int64 = 0
      #expect(pb_read_int(&reader, &int) == 0)
      #expect(int == 42)
      #expect(reader.offset == buffer.count)
    }
  }

  @Test func cRejectsTruncatedAndMistypedInput() {
    let bytes = WireValue.action("say", ("text", "hi")).bytes
    bytes.dropLast(1).withUnsafeBufferPointer { buffer in
      var reader = pb_reader(bytes: buffer.baseAddress, length: buffer.count, offset: 0, error: nil)
      #expect(pb_skip_value(&reader) == -1)
      #expect(String(cString: reader.error!) == "value ends early")
    }
    bytes.withUnsafeBufferPointer { buffer in
      var reader = pb_reader(bytes: buffer.baseAddress, length: buffer.count, offset: 0, error: nil)
      var int: Int64 = 0
      #expect(pb_read_int(&reader, &int) == -1)
      #expect(String(cString: reader.error!) == "expected an int")
      #expect(reader.offset == 0)
    }
  }
}

/// The helpers C plugins were missing: nil, lists, doubles, and a look at the next tag.
@Suite struct CValueReadersTests {
  @Test func nilListsAndDoublesRoundTrip() {
    let (_, bytes) = collect { out in
      pb_write_list(out, 3) | pb_write_nil(out) | pb_write_double(out, -2.5)
        | pb_write_string(out, "x", 1)
    }
    #expect(bytes == WireValue.list([.nil, .double(-2.5), .string("x")]).bytes)
    bytes.withUnsafeBufferPointer { buffer in
      var reader = pb_reader(bytes: buffer.baseAddress, length: buffer.count, offset: 0, error: nil)
      var count: UInt32 = 0
      var tag: UInt8 = 0
      #expect(pb_read_list(&reader, &count) == 0 && count == 3)
      #expect(pb_peek_tag(&reader, &tag) == 0 && tag == UInt8(ascii: "n"))
      #expect(pb_read_nil(&reader) == 0)
      #expect(pb_peek_tag(&reader, &tag) == 0 && tag == UInt8(ascii: "f"))
      #expect(pb_read_nil(&reader) == -1)
      #expect(String(cString: reader.error!) == "expected nil")
    }
    bytes.withUnsafeBufferPointer { buffer in
      var reader = pb_reader(bytes: buffer.baseAddress, length: buffer.count, offset: 6, error: nil)
      var double = 0.0
      #expect(pb_read_double(&reader, &double) == 0 && double == -2.5)
    }
  }

  @Test func peekingAtTheEndFails() {
    var reader = pb_reader(bytes: nil, length: 0, offset: 0, error: nil)
    var tag: UInt8 = 0
    #expect(pb_peek_tag(&reader, &tag) == -1)
    #expect(String(cString: reader.error!) == "value ends early")
  }
}
