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
