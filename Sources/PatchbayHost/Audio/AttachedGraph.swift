import Synchronization

/// The graph an app's processors play in, set once when the app is attached to one: a class,
/// so per-action code can hold it without holding the app.
///
/// ```swift
/// let attached = AttachedGraph()
/// attached.graph                 // nil: no sound yet
/// attached.attach(graph)         // true the first time; the graph stays
/// ```
final class AttachedGraph: Sendable {
  private let reference = AtomicLazyReference<ProcessorGraph>()

  /// The graph, once attached. [thread-safe]
  var graph: ProcessorGraph? { self.reference.load() }

  /// Attaches `graph` unless one is attached already; returns whether it was.
  @discardableResult
  func attach(_ graph: ProcessorGraph) -> Bool {
    self.reference.storeIfNil(graph) === graph
  }
}
