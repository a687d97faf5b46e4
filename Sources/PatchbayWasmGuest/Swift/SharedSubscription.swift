import CPatchbayABI

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
