import CLilv
import Foundation

/// The state extension's own data: what a plugin keeps beyond its control ports (a file it
/// loaded, a mode its UI set), saved and restored through lilv as Turtle, so it can travel in
/// a feature's state and across processes (every URI spelled out, none mapped).
///
/// ```swift
/// let saved = eq.savedState()          // nil: it keeps nothing beyond its ports
/// try other.restoreState(saved!)       // [not beside run]: before it plays
/// ```
extension LV2Instance {
  /// The URI the Turtle describes: any fixed one (lilv needs one to write).
  static let stateURI = "urn:patchbay:lv2-state"

  /// What the plugin keeps beyond its ports, as Turtle; nil when it has no state interface or
  /// keeps nothing. May run beside ``run(frames:)`` (LV2's `save` may), never on the audio
  /// thread.
  public func savedState() -> String? {
    guard self.info.hasStateInterface else { return nil }
    let world = LV2World.shared
    let map = LV2URIDMap.shared
    return world.lock.withLock { _ -> String? in
      let flags = LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue
      guard
        let state = lilv_state_new_from_instance(
          self.info.plugin, self.instance, map.mapFeature, nil, nil, nil, nil, nil, nil, flags,
          self.features.list)
      else { return nil }
      defer { lilv_state_free(state) }
      guard lilv_state_get_num_properties(state) > 0,
        let text = lilv_state_to_string(
          world.world, map.mapFeature, map.unmapFeature, state, Self.stateURI, nil)
      else { return nil }
      defer { lilv_free(text) }
      return String(cString: text)
    }
  }

  /// Gives the plugin back what ``savedState()`` said. Throws, in one line, when the text is
  /// not a state lilv reads. [never beside run: before the instance plays]
  public func restoreState(_ turtle: String) throws(LV2Error) {
    let world = LV2World.shared
    let restored: Bool = world.lock.withLock { _ in
      guard
        let state = lilv_state_new_from_string(world.world, LV2URIDMap.shared.mapFeature, turtle)
      else { return false }
      defer { lilv_state_free(state) }
      lilv_state_restore(state, self.instance, nil, nil, 0, self.features.list)
      return true
    }
    guard restored else {
      throw LV2Error(
        "<\(self.info.uri)>: its saved state is not LV2 state lilv can read (Turtle from "
          + "lilv_state_to_string)")
    }
  }

  /// Whether `turtle` is a state lilv reads; throws the same line as ``restoreState(_:)``.
  public static func checkState(_ turtle: String, of uri: String) throws(LV2Error) {
    let world = LV2World.shared
    let read: Bool = world.lock.withLock { _ in
      guard
        let state = lilv_state_new_from_string(world.world, LV2URIDMap.shared.mapFeature, turtle)
      else { return false }
      lilv_state_free(state)
      return true
    }
    guard read else {
      throw LV2Error(
        "<\(uri)>: its saved state is not LV2 state lilv can read (Turtle from "
          + "lilv_state_to_string)")
    }
  }
}
