import PatchbayABI

/// The host table an instance was created with, and the calls the SDK makes through it.
///
/// Reads no field past the table's `struct_size`, so it works with hosts of any minor version.
@usableFromInline
struct HostConnection: @unchecked Sendable {
  @usableFromInline let host: UnsafePointer<pb_host>

  init(host: UnsafePointer<pb_host>) { self.host = host }

  private func has(_ field: PartialKeyPath<pb_host>) -> Bool {
    guard let offset = MemoryLayout<pb_host>.offset(of: field) else { return false }
    return offset + MemoryLayout<UnsafeRawPointer>.size <= Int(self.host.pointee.struct_size)
  }

  /// Sends encoded action bytes to the host's queue. [thread-safe]
  @usableFromInline
  func send(_ bytes: [UInt8]) {
    guard self.has(\pb_host.send), let send = self.host.pointee.send else { return }
    bytes.withUnsafeBufferPointer { send(self.host, $0.baseAddress, $0.count) }
  }

  /// Reports why the current call failed. [thread-safe]
  @usableFromInline
  func error(_ message: String) {
    guard self.has(\pb_host.error), let error = self.host.pointee.error else { return }
    message.withCString { error(self.host, $0) }
  }

  /// Asks for MIDI on `channels` ("patchbay.midi/1"); a host without the service sends none.
  @usableFromInline
  func listenToMIDI(channels: UInt16) {
    guard self.has(\pb_host.get_service),
      let service = self.host.pointee.get_service?(self.host, PB_SERVICE_MIDI)
    else { return }
    let midi = service.assumingMemoryBound(to: pb_midi_service.self)
    guard Int(midi.pointee.struct_size) >= MemoryLayout<pb_midi_service>.size else { return }
    midi.pointee.listen?(self.host, channels)
  }

  /// Writes a line to the host's log. [thread-safe]
  @usableFromInline
  func log(_ level: pb_log_level, _ message: String) {
    guard self.has(\pb_host.log), let log = self.host.pointee.log else { return }
    message.withCString { log(self.host, level, $0) }
  }
}

/// Writes all of `bytes` to a host writer; false when the writer took less (it is full).
func write(_ bytes: [UInt8], to out: UnsafePointer<pb_writer>?) -> Bool {
  guard let out, let write = out.pointee.write else { return false }
  return bytes.withUnsafeBytes { buffer in
    buffer.isEmpty || write(out.pointee.context, buffer.baseAddress, buffer.count) == buffer.count
  }
}
