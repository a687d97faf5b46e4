import PatchbayABI

extension HostTable {
  /// "patchbay.midi/1": an instance says which channels it listens to (patchbay/host.h).
  nonisolated(unsafe) static let midiService: UnsafeMutablePointer<pb_midi_service> = {
    let service = UnsafeMutablePointer<pb_midi_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_midi_service(
        struct_size: UInt32(MemoryLayout<pb_midi_service>.size),
        listen: { host, channels in
          HostTable.audit("midi->listen")
          HostTable.context(host)?.midiChannels.store(channels, ordering: .relaxed)
        }))
    return service
  }()
}
