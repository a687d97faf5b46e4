import PatchbayABI

/// Collects what a plugin writes through a `pb_writer`, up to a limit.
final class ByteSink {
  var bytes: [UInt8] = []
  let limit: Int
  /// Whether the plugin tried to write past the limit.
  var overflowed = false

  init(limit: Int) { self.limit = limit }

  /// Runs `body` with a writer into a sink of at most `limit` bytes. A write past it takes
  /// nothing (the writer is full, core.h) and the bytes are nil, whatever `body` returns.
  static func collect(
    limit: Int, _ body: (UnsafePointer<pb_writer>) -> pb_status
  ) -> (pb_status, [UInt8]?) {
    let sink = ByteSink(limit: limit)
    var writer = pb_writer(
      struct_size: UInt32(MemoryLayout<pb_writer>.size),
      context: Unmanaged.passUnretained(sink).toOpaque(),
      write: { context, bytes, length in
        guard let context else { return 0 }
        let sink = Unmanaged<ByteSink>.fromOpaque(context).takeUnretainedValue()
        guard length <= sink.limit - sink.bytes.count else {
          sink.overflowed = true
          return 0
        }
        if let bytes, length > 0 {
          sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
        }
        return length
      }
    )
    let status = withExtendedLifetime(sink) { withUnsafePointer(to: &writer) { body($0) } }
    return (status, sink.overflowed ? nil : sink.bytes)
  }

  /// Runs `body` with a writer that takes everything (action bytes and texts: the plugin
  /// writes what it was given, in another form).
  static func collect(_ body: (UnsafePointer<pb_writer>) -> pb_status) -> (pb_status, [UInt8]) {
    let (status, bytes) = Self.collect(limit: .max, body)
    return (status, bytes ?? [])
  }
}
