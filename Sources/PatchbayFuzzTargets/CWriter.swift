import PatchbayABI

/// Runs `body` with a `pb_writer` that collects what the C helpers write.
func collectingWrites(_ body: (UnsafePointer<pb_writer>) -> Int32) -> (Int32, [UInt8]) {
  final class Sink { var bytes: [UInt8] = [] }
  let sink = Sink()
  var writer = pb_writer(
    struct_size: UInt32(MemoryLayout<pb_writer>.size),
    context: Unmanaged.passUnretained(sink).toOpaque(),
    write: { context, bytes, length in
      let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
      if let bytes, length > 0 {
        sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
      }
      return length
    }
  )
  let status = withExtendedLifetime(sink) { withUnsafePointer(to: &writer) { body($0) } }
  return (status, sink.bytes)
}

/// What the C text helpers of `patchbay/value.h` make of inputs.
enum CValueText {
  /// `pb_parse_action_text`: the encoding, or nil when the C parser refuses the text.
  static func parseAction(_ text: [UInt8]) -> [UInt8]? {
    let (status, bytes) = collectingWrites { writer in
      text.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          pb_parse_action_text($0.baseAddress, $0.count, writer, nil, nil)
        }
      }
    }
    return status == 0 ? bytes : nil
  }

  /// `pb_format_value_text`: the text, or nil when the C formatter refuses the bytes.
  static func format(_ bytes: [UInt8]) -> String? {
    let (status, text) = collectingWrites { writer in
      bytes.withUnsafeBufferPointer { pb_format_value_text($0.baseAddress, $0.count, writer) }
    }
    return status == 0 ? String(decoding: text, as: UTF8.self) : nil
  }

  /// Whether `pb_skip_value` reads exactly one value spanning all of `bytes`.
  static func skipsOneValue(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = pb_reader(
        bytes: buffer.baseAddress, length: buffer.count, offset: 0, error: nil)
      return pb_skip_value(&reader) == 0 && reader.offset == buffer.count
    }
  }
}
