/// Where a host context sends what the plugin asks of the host outside a reply: the actions it
/// sends (`host->send`) and its navigation requests. A ``FeatureHandle`` is one. Every call
/// comes on the executor that owns the context.
package protocol InstanceInbox: AnyObject {
  /// An action the plugin sent (its effects'), through `context`: the instance's own, or an
  /// earlier generation's whose effects still run after a swap. `keys`: the cancellation ids
  /// of the effect that sent it, when the plugin said (newline-separated). Dropped when the
  /// inbox mutes effects.
  func pluginSent(_ action: [UInt8], from context: HostContext, keys: String?)
  /// The instance's code cancelled the effects filed under `key`: cancel them in its earlier
  /// generations too.
  func earlierGenerationsCancel(key: String)
  /// A navigation request; false when no app takes them (the host context logs it).
  func requestNavigation(_ request: NavigationRequest) -> Bool
  /// A job of its own, from another thread, ended: the owner applies what it caused.
  func jobEnded()
  /// The plugin's code crashed or hung outside any call (an isolated plugin's effect thread
  /// or processor) and was started again; `report` says how.
  func pluginCrashed(_ report: String)
  /// False once the inbox is going away (its owner's `deinit` began): what is still queued
  /// for it is dropped. [any thread]
  var isOpen: Bool { get }
}
