import PatchbayConfig
import Synchronization

/// What plays an app's instances: the processors of their features, in an audio graph
/// (`PatchbayAudioGraph` attaches a `ProcessorGraph`, which is one). The app tells it when an
/// instance comes, goes, swaps its code, or reduces an action; it knows nothing of audio.
/// Every call comes on the app queue.
///
/// ```swift
/// try app.attach(graph)   // PatchbayAudioGraph: every instance with a processor plays in it
/// ```
package protocol InstancePlayer: AnyObject, Sendable {
  /// Starts the processor of the instance at `path` if its feature has one, replacing the
  /// one it played before (a swap); a feature without one stops playing.
  func play(_ handle: FeatureHandle, at path: InstancePath) throws(AppError)
  /// Stops the processors of instances that were taken out.
  func stop(_ handles: [FeatureHandle])
  /// The instance reduced an action: its processor's parameters follow its state.
  func reduced(_ handle: FeatureHandle)
}

/// The player an app plays through, set once; read from any thread (MIDI input reads it).
///
/// ```swift
/// let attached = AttachedPlayer()
/// attached.player                // nil: no sound yet
/// attached.attach(graph)         // true the first time; the player stays
/// ```
package final class AttachedPlayer: Sendable {
  private final class Box: Sendable {
    let player: any InstancePlayer
    init(_ player: any InstancePlayer) { self.player = player }
  }

  private let reference = AtomicLazyReference<Box>()

  package init() {}

  /// The player, once attached.
  package var player: (any InstancePlayer)? { self.reference.load()?.player }

  /// Attaches `player` unless one is attached already; returns whether it was.
  @discardableResult
  package func attach(_ player: any InstancePlayer) -> Bool {
    let box = Box(player)
    return self.reference.storeIfNil(box) === box
  }
}
