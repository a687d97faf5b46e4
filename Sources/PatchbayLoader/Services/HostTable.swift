import CPatchbayCrash
import Foundation
import PatchbayABI

/// Makes `pb_host` tables: the host functions and services every plugin instance is given
/// (patchbay/host.h). `send` is here; `error` and `log` are in `LogService.swift`, and each
/// service `get_service` hands out is a file of its own beside this one (clock, navigation,
/// MIDI, functions, shared, effects). The table's `host_data` is the instance's ``HostContext``.
///
/// ```swift
/// let host = context.host      // HostContext.init made it with HostTable.allocate()
/// host.pointee.get_service(host, PB_SERVICE_CLOCK)   // the clock service's table
/// ```
///
/// Tables are never freed: a plugin thread that calls back late (after its instance was
/// destroyed) finds a valid table whose sends are dropped.
enum HostTable {
  /// A table whose `host_data` the context sets to itself.
  static func allocate() -> UnsafeMutablePointer<pb_host> {
    let table = UnsafeMutablePointer<pb_host>.allocate(capacity: 1)
    table.initialize(
      to: pb_host(
        struct_size: UInt32(MemoryLayout<pb_host>.size),
        abi_major: pb_abi_version(PATCHBAY_ABI_MAJOR),
        abi_minor: pb_abi_version(PATCHBAY_ABI_MINOR),
        host_data: nil,
        get_service: getService,
        send: send,
        error: error,
        log: log
      )
    )
    return table
  }

  static func context(_ host: UnsafePointer<pb_host>?) -> HostContext? {
    guard let data = host?.pointee.host_data else { return nil }
    return Unmanaged<HostContext>.fromOpaque(data).takeUnretainedValue()
  }

  static let getService:
    @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = {
      _, id in
      HostTable.audit("host->get_service")
      switch id.map({ String(cString: $0) }) {
      case PB_SERVICE_CLOCK?: return UnsafeRawPointer(clockService)
      case PB_SERVICE_NAVIGATION?: return UnsafeRawPointer(navigationService)
      case PB_SERVICE_MIDI?: return UnsafeRawPointer(midiService)
      case PB_SERVICE_FUNCTIONS?: return UnsafeRawPointer(functionsService)
      case PB_SERVICE_SHARED?: return UnsafeRawPointer(sharedService)
      case PB_SERVICE_EFFECTS?: return UnsafeRawPointer(effectsService)
      default: return nil
      }
    }

  /// `host->send`: the action goes to the instance's queue (``HostContext/deliver(_:)``).
  static let send: @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<UInt8>?, Int) -> Void = {
    host, bytes, length in
    HostTable.audit("host->send")
    guard let context = Self.context(host) else { return }
    let copy = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
    context.deliver(copy, keys: nil)
  }

  /// Counts a call of the host function `function` made from a thread rendering audio, where
  /// a processor may call none but `host->now` and the pushes (patchbay_crash.h): one
  /// thread-local load otherwise.
  @inline(__always)
  static func audit(_ function: StaticString) {
    guard pb_audio_thread_is_current() != 0 else { return }
    pb_audio_misuse_note(UnsafeRawPointer(function.utf8Start).assumingMemoryBound(to: CChar.self))
  }
}
