import Foundation
import PatchbayComposition
import PatchbayCore

/// State that is on screen only until the user answers it: an alert or a confirmation dialog.
/// The presentation `ifLet` dismisses it on any of its actions, unless the parent presented
/// another one (a new id) while handling the action.
public protocol _EphemeralState {
  /// Which presentation this is: a new alert has a new one.
  var _presentationID: UUID { get }
}
