import PatchbayABI
import PatchbayEncoding

/// A value a feature publishes for other features to read ("patchbay.shared/1",
/// patchbay/shared.h), made from its state:
///
/// ```swift
/// static func shared(_ state: State) -> [SharedValue] {
///   [SharedValue("transport", Transport(tempo: state.tempo, running: state.running))]
/// }
/// ```
///
/// The SDK publishes it after `create` and after every action whose result changed it. The
/// first instance to publish a name owns it; readers get each new value as an action.
public struct SharedValue {
  public let name: String
  public let value: any Encodable

  public init(_ name: String, _ value: any Encodable) {
    self.name = name
    self.value = value
  }
}

/// A shared value a feature reads, delivered as its action `action(_: value)`:
///
/// ```swift
/// static let subscriptions = [SharedSubscription("transport", as: "transport")]
/// enum Action { case transport(Transport) … }   // Transport: Codable, as published
/// ```
///
/// It arrives right after the instance is created (when the name has a value), then after
/// every action of the publisher that changed it: recorded, replayed and tested like any
/// other action (a test sends `.transport(…)`).
public struct SharedSubscription: Sendable, Equatable {
  public let name: String
  public let action: String

  public init(_ name: String, as action: String) {
    self.name = name
    self.action = action
  }
}

extension HostConnection {
  /// The service, when the host's has every field up to `last` (a 2.3 host's ends before
  /// `hold`).
  private func sharedService(through last: PartialKeyPath<pb_shared_service>)
    -> UnsafePointer<pb_shared_service>?
  {
    guard let service = self.host.pointee.get_service?(self.host, PB_SERVICE_SHARED) else {
      return nil
    }
    let shared = service.assumingMemoryBound(to: pb_shared_service.self)
    let needed =
      MemoryLayout<pb_shared_service>.offset(of: last)! + MemoryLayout<UnsafeRawPointer>.size
    guard Int(shared.pointee.struct_size) >= needed else { return nil }
    return UnsafePointer(shared)
  }

  private var sharedService: UnsafePointer<pb_shared_service>? {
    self.sharedService(through: \pb_shared_service.subscribe)
  }

  /// Whether the host lets features hold and write a shared value (ABI 2.6).
  var holdsShared: Bool { self.sharedService(through: \pb_shared_service.write) != nil }

  /// Holds `name`, whose value is `initial` unless the app has one. [main-thread]
  func hold(_ name: String, initial: [UInt8]) {
    guard let service = self.sharedService(through: \pb_shared_service.write) else { return }
    _ = initial.withUnsafeBufferPointer { buffer in
      name.withCString { service.pointee.hold?(self.host, $0, buffer.baseAddress, buffer.count) }
    }
  }

  /// Writes `name`, which this instance holds. [main-thread]
  func write(_ name: String, _ bytes: [UInt8]) {
    guard let service = self.sharedService(through: \pb_shared_service.write) else { return }
    _ = bytes.withUnsafeBufferPointer { buffer in
      name.withCString { service.pointee.write?(self.host, $0, buffer.baseAddress, buffer.count) }
    }
  }

  /// Publishes `bytes` under `name`; a host without the service ignores it. [main-thread]
  @usableFromInline
  func publish(_ name: String, _ bytes: [UInt8]) {
    guard let service = self.sharedService else { return }
    _ = bytes.withUnsafeBufferPointer { buffer in
      name.withCString { service.pointee.publish?(self.host, $0, buffer.baseAddress, buffer.count) }
    }
  }

  /// Subscribes to `subscription`'s name. [main-thread]
  @usableFromInline
  func subscribe(_ subscription: SharedSubscription) {
    guard let service = self.sharedService else { return }
    _ = subscription.name.withCString { name in
      subscription.action.withCString { service.pointee.subscribe?(self.host, name, $0) }
    }
  }
}

/// What an instance published last, by name: it publishes again only what changed.
@usableFromInline
struct PublishedValues {
  var last: [String: [UInt8]] = [:]

  @usableFromInline init() {}

  /// Encodes `values` and publishes those that changed.
  @usableFromInline
  mutating func publish(_ values: [SharedValue], through host: HostConnection, feature id: String) {
    for shared in values {
      do {
        let bytes = try WireValueEncoder().encode(shared.value).bytes
        guard self.last[shared.name] != bytes else { continue }
        self.last[shared.name] = bytes
        host.publish(shared.name, bytes)
      } catch {
        host.log(PB_LOG_ERROR, "\(id): shared value '\(shared.name)' cannot be encoded: \(error)")
      }
    }
  }
}
