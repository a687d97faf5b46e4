import CPatchbayABI

/// A value a feature publishes for other features to read ("patchbay.shared/1"), made from its
/// state, as in the native SDK:
///
///     static func shared(_ state: State) -> [SharedValue] {
///       [SharedValue("score", state.score)]
///     }
///
/// The SDK publishes it after `create` and after every action that changed it. The first
/// instance to publish a name owns it; readers get each new value as an action. A module that
/// makes one imports the service, which `[sandbox]` must grant ("shared").
public struct SharedValue {
  public let name: StaticString
  let bytes: [UInt8]
  let publish: Publish

  @usableFromInline typealias Publish =
    (UnsafePointer<pb_host>?, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int) -> Void

  @usableFromInline
  init(name: StaticString, write: (inout WireWriter) -> Void, publish: @escaping Publish) {
    (self.name, self.bytes, self.publish) = (name, Bytes.written(write), publish)
  }

  @_alwaysEmitIntoClient
  public init<Value: WireValue>(_ name: StaticString, _ value: Value) {
    self.init(name: name, write: value.write(to:), publish: patchbay_shared_publish)
  }
}

/// A shared value a feature reads, delivered as its action `action(_: value)`, as in the
/// native SDK:
///
///     static let subscriptions = [SharedSubscription("transport", as: "transport")]
///     enum Action { case transport(Transport) … }   // Transport: WireValue, as published
///
/// It arrives right after the instance is created (when the name has a value), then after
/// every action of the publisher that changed it. A module that makes one imports the service,
/// which `[sandbox]` must grant ("shared").
public struct SharedSubscription {
  public let name: StaticString
  public let action: StaticString
  let subscribe: (UnsafePointer<pb_host>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void

  @usableFromInline
  init(
    name: StaticString, action: StaticString,
    subscribe:
      @escaping (UnsafePointer<pb_host>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?)
      -> Void
  ) {
    (self.name, self.action, self.subscribe) = (name, action, subscribe)
  }

  @_alwaysEmitIntoClient
  public init(_ name: StaticString, as action: StaticString) {
    self.init(name: name, action: action, subscribe: patchbay_shared_subscribe)
  }
}

/// What an instance published last, by name: it publishes again only what changed.
struct PublishedValues {
  var last: [(name: StaticString, bytes: [UInt8])] = []

  mutating func publish(_ values: [SharedValue], through host: UnsafePointer<pb_host>) {
    for value in values {
      if let index = last.firstIndex(where: { $0.name.same(as: value.name) }) {
        guard last[index].bytes != value.bytes else { continue }
        last[index].bytes = value.bytes
      } else {
        last.append((value.name, value.bytes))
      }
      value.bytes.withUnsafeBufferPointer {
        value.publish(host, value.name.cString, $0.baseAddress, $0.count)
      }
    }
  }
}
