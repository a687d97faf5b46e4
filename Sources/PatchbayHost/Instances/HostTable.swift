import Foundation
import Patchbay
import PatchbayABI
import Synchronization

/// The host side of one `pb_host` table: where a plugin's sends, errors and logs go.
final class HostContext: @unchecked Sendable {
  /// Reasons the plugin reported during the current call.
  private let reportedErrors = LockedValue<[String]>([])
  private let sendTarget = LockedValue<(@Sendable ([UInt8]) -> Void)?>(nil)
  private let navigationTarget = LockedValue<(@Sendable (NavigationRequest) -> Void)?>(nil)
  /// Whether the plugin is outside any host call right now (set once an app owns it).
  private let isOutsideCall = LockedValue<(@Sendable () -> Bool)?>(nil)
  let log: @Sendable (pb_log_level, String) -> Void
  /// The MIDI channels the instance listens to ("patchbay.midi/1"): bit 0 is channel 1.
  let midiChannels = Atomic<UInt16>(0)

  /// Where "patchbay.functions/1" resolves (an app's ``FunctionTable``); nil when the
  /// instance runs outside an app.
  let resolveFunction: FunctionResolver?

  init(log: @escaping @Sendable (pb_log_level, String) -> Void, functions: FunctionResolver? = nil)
  {
    self.log = log
    self.resolveFunction = functions
  }

  /// Where `host->send` delivers; nil drops sends (after the instance is gone).
  func setSendTarget(_ target: (@Sendable ([UInt8]) -> Void)?) {
    self.sendTarget.value = target
  }

  func deliver(_ bytes: [UInt8]) {
    self.sendTarget.value?(bytes)
  }

  /// Where navigation requests go; nil logs them as unsupported.
  func setNavigationTarget(_ target: (@Sendable (NavigationRequest) -> Void)?) {
    self.navigationTarget.value = target
  }

  func navigate(_ request: NavigationRequest) {
    if let target = self.navigationTarget.value {
      target(request)
    } else {
      self.log(PB_LOG_WARNING, "navigation request \(request) ignored: this host runs no app")
    }
  }

  /// Errors reported while `isOutside` is true — from an effect thread, between calls — are
  /// logged at once instead of being kept for the next call's failure.
  func reportsOutsideCalls(when isOutside: @escaping @Sendable () -> Bool) {
    self.isOutsideCall.value = isOutside
  }

  func report(_ message: String) {
    if let isOutside = self.isOutsideCall.value, isOutside() {
      self.log(PB_LOG_ERROR, message)
      return
    }
    self.reportedErrors.withValue { $0.append(message) }
  }

  /// The reasons reported since the last call, joined; nil when none.
  func takeErrors() -> String? {
    let errors = self.reportedErrors.withValue { errors in
      defer { errors.removeAll() }
      return errors
    }
    return errors.isEmpty ? nil : errors.joined(separator: "; ")
  }
}

/// Makes `pb_host` tables. Tables are never freed: a plugin thread that calls back late (after
/// its instance was destroyed) finds a valid table whose sends are dropped.
enum HostTable {
  static func make(_ context: HostContext) -> UnsafePointer<pb_host> {
    let table = UnsafeMutablePointer<pb_host>.allocate(capacity: 1)
    table.initialize(
      to: pb_host(
        struct_size: UInt32(MemoryLayout<pb_host>.size),
        abi_major: pb_abi_version(PATCHBAY_ABI_MAJOR),
        abi_minor: pb_abi_version(PATCHBAY_ABI_MINOR),
        host_data: Unmanaged.passRetained(context).toOpaque(),
        get_service: getService,
        send: send,
        error: error,
        log: log
      )
    )
    return UnsafePointer(table)
  }

  static func context(_ host: UnsafePointer<pb_host>?) -> HostContext? {
    guard let data = host?.pointee.host_data else { return nil }
    return Unmanaged<HostContext>.fromOpaque(data).takeUnretainedValue()
  }

  static let getService:
    @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = {
      _, id in
      switch id.map({ String(cString: $0) }) {
      case PB_SERVICE_CLOCK?: return UnsafeRawPointer(clockService)
      case PB_SERVICE_NAVIGATION?: return UnsafeRawPointer(navigationService)
      case PB_SERVICE_MIDI?: return UnsafeRawPointer(midiService)
      case PB_SERVICE_FUNCTIONS?: return UnsafeRawPointer(functionsService)
      default: return nil
      }
    }

  static let send: @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<UInt8>?, Int) -> Void = {
    host, bytes, length in
    guard let context = Self.context(host) else { return }
    let copy = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
    context.deliver(copy)
  }

  static let error: @convention(c) (UnsafePointer<pb_host>?, UnsafePointer<CChar>?) -> Void = {
    host, message in
    Self.context(host)?.report(message.map { String(cString: $0) } ?? "(no reason given)")
  }

  static let log:
    @convention(c) (UnsafePointer<pb_host>?, pb_log_level, UnsafePointer<CChar>?) -> Void = {
      host, level, message in
      Self.context(host)?.log(level, message.map { String(cString: $0) } ?? "")
    }

  /// "patchbay.navigation/1".
  nonisolated(unsafe) static let navigationService: UnsafeMutablePointer<pb_navigation_service> = {
    let service = UnsafeMutablePointer<pb_navigation_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_navigation_service(
        struct_size: UInt32(MemoryLayout<pb_navigation_service>.size),
        navigate: { host, kind, node, state, length in
          guard let context = HostTable.context(host) else { return }
          let node = node.map { String(cString: $0) } ?? ""
          let state = state.map { Array(UnsafeBufferPointer(start: $0, count: length)) }
          let request: NavigationRequest
          switch kind {
          case PB_NAVIGATE_PUSH: request = .push(node: node, state: state)
          case PB_NAVIGATE_PRESENT: request = .present(node: node, state: state)
          case PB_NAVIGATE_POP: request = .pop
          case PB_NAVIGATE_POP_TO_ROOT: request = .popToRoot
          case PB_NAVIGATE_DISMISS: request = .dismiss
          default:
            context.log(PB_LOG_ERROR, "unknown navigation kind \(kind.rawValue) ignored")
            return
          }
          context.navigate(request)
        }
      )
    )
    return service
  }()

  /// "patchbay.clock/1".
  nonisolated(unsafe) static let clockService: UnsafeMutablePointer<pb_clock_service> = {
    let service = UnsafeMutablePointer<pb_clock_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_clock_service(
        struct_size: UInt32(MemoryLayout<pb_clock_service>.size),
        now_ns: {
          var time = timespec()
          clock_gettime(CLOCK_MONOTONIC, &time)
          return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
      )
    )
    return service
  }()
}

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
