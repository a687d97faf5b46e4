import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Something that happened in a running app, for `--print-changes` and `--record`.
public enum AppChange: Sendable {
  public enum Source: String, Sendable { case command, effect, midi, processor, shared, navigation }
  /// An action an instance reduced; `diff` (with ``AppRuntime/tracksStateChanges``) is its
  /// state change as `- old` / `+ new` lines of JSON, empty when nothing changed.
  case action(path: String, text: String, source: Source, diff: String? = nil)
  /// A navigation step, the navigation state after it, and the state the new instance
  /// started from when the step gave one.
  case navigation(NavigationAction, NavigationState, initial: [UInt8]? = nil)
  /// An instance added to (with the state it started from, if given) or removed from a
  /// collection.
  case collection(path: String, id: String, added: Bool, state: [UInt8]?)
  /// A feature's implementation swapped.
  case swap(SwapReport)
  /// Something the app refused or a plugin failed, outside or inside a command.
  case failure(AppError)
}

extension AppChange.Source {
  /// Where an action came from, as a change says it.
  init(_ source: ActionSource) {
    switch source {
    case .command: self = .command
    case .effect: self = .effect
    case .midi: self = .midi
    case .processor: self = .processor
    case .shared: self = .shared
    }
  }
}
