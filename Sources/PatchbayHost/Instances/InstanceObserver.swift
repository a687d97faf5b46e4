import Patchbay
import PatchbayAppQueue
import PatchbayLoader

/// What an instance tells the app that owns it: the one way back from a ``FeatureHandle`` to
/// its app (``AppRuntime`` gives each of its instances one, which knows the instance's path).
/// Every call comes on the app queue, after the plugin's call returned: the observer may call
/// into the handle again (read its state, format the action).
///
/// ```swift
/// final class Printer: InstanceObserver {
///   func instance(
///     _ handle: FeatureHandle, reduced action: [UInt8], from source: ActionSource,
///     timing: ReduceTiming?
///   ) {
///     print((try? handle.formatAction(action)) ?? "?")
///   }
///   …
/// }
/// ```
protocol InstanceObserver: AnyObject {
  /// The instance is about to reduce `action` with `implementation` (the flight recorder
  /// takes it down); whether to time the reduce (DevTools journals the app's actions).
  func instance(
    _ handle: FeatureHandle, willReduce action: [UInt8], from source: ActionSource,
    by implementation: Implementation
  ) -> Bool
  /// The instance reduced `action`, in `timing` when it was to be timed.
  func instance(
    _ handle: FeatureHandle, reduced action: [UInt8], from source: ActionSource,
    timing: ReduceTiming?)
  /// The plugin refused an action; `message` says which feature and why.
  func instance(_ handle: FeatureHandle, refused message: String)
  /// The plugin's code crashed or hung (in a process of its own, started again since);
  /// what the app did about it (a rollback), to add to the report, or nil.
  func instance(_ handle: FeatureHandle, crashed report: String) -> String?
  /// The instance asked to navigate; the app applies it after the action that asked.
  func instance(_ handle: FeatureHandle, requests navigation: NavigationRequest)
  /// A job that reduced actions outside a command (an effect's, a send from another thread)
  /// ended: the app applies what they caused.
  func jobEnded()
}
