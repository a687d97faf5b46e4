import PatchbayABI

/// The host table an instance was created with, and the calls the SDK makes through it.
///
/// Reads no field past the table's `struct_size`, so it works with hosts of any minor version.
@usableFromInline
struct HostConnection: @unchecked Sendable {
  @usableFromInline let host: UnsafePointer<pb_host>
  /// "patchbay.effects/1", looked up once for an instance (ABI 2.4); nil when the host has
  /// none, or for a call without an instance.
  private let effects: UnsafePointer<pb_effects_service>?

  /// The connection of a call without an instance (parse, format, migrate).
  init(host: UnsafePointer<pb_host>) {
    self.host = host
    self.effects = nil
  }

  /// The connection of an instance: its services looked up once.
  init(instanceHost host: UnsafePointer<pb_host>) {
    self.host = host
    self.effects = Self.service(PB_SERVICE_EFFECTS, of: host).flatMap { service in
      let effects = service.assumingMemoryBound(to: pb_effects_service.self)
      let size = Int(effects.pointee.struct_size)
      return size >= MemoryLayout<pb_effects_service>.size ? UnsafePointer(effects) : nil
    }
  }

  /// The table of service `id`, when the host offers it.
  private static func service(_ id: String, of host: UnsafePointer<pb_host>) -> UnsafeRawPointer? {
    guard let offset = MemoryLayout<pb_host>.offset(of: \pb_host.get_service),
      offset + MemoryLayout<UnsafeRawPointer>.size <= Int(host.pointee.struct_size)
    else { return nil }
    return host.pointee.get_service?(host, id)
  }

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

  /// How many generations of the instance the host runs: more than 1 after a swap, while an
  /// earlier one's effects run. [thread-safe]
  @usableFromInline
  var generations: UInt32 {
    guard let effects = self.effects else { return 1 }
    return effects.pointee.generations?(self.host) ?? 1
  }

  /// Tells the host the instance cancelled the id whose key `key` makes, so that its other
  /// generations cancel it too; the key is made only when there are some. [thread-safe]
  @usableFromInline
  func effectCancelled(_ key: () -> String) {
    guard let effects = self.effects, effects.pointee.generations?(self.host) ?? 1 > 1,
      let cancelled = effects.pointee.cancelled
    else { return }
    var key = key()
    key.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { cancelled(self.host, $0.baseAddress, $0.count) }
    }
  }

  /// Sends action bytes from an effect filed under `keys`. [thread-safe]
  @usableFromInline
  func send(_ bytes: [UInt8], keys: [String]) {
    guard let effects = self.effects, let sendFrom = effects.pointee.send_from else {
      return self.send(bytes)
    }
    var text = keys.joined(separator: "\n")
    text.withUTF8 { keys in
      keys.withMemoryRebound(to: CChar.self) { keys in
        bytes.withUnsafeBufferPointer {
          sendFrom(self.host, keys.baseAddress, keys.count, $0.baseAddress, $0.count)
        }
      }
    }
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
