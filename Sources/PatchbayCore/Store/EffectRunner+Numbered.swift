/// Starting effects numbered by their origin (``EffectOrigin``), for a plugin's runtime, and
/// starting some of them again after a crash.
extension EffectRunner {
  /// Starts `effect` as ``start(_:ids:)`` does, filing each long-lived part with its origin.
  /// When `numbering` restarts effects, only the listed parts start, and nothing is sent,
  /// requested or cancelled: that happened when the action was first reduced.
  @inlinable
  func start(_ effect: Effect<Action>, ids: [EffectID], numbering: inout EffectNumbering) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      if !numbering.isRestart { self.enqueue(action) }
    case .request(let request):
      if !numbering.isRestart { self.handleRequest(request.payload) }
    case .cancel(let id):
      if !numbering.isRestart { self.tasks.cancel(id: id) }
    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight, !numbering.isRestart { self.tasks.cancel(id: id) }
      self.start(effect, ids: ids + [id], numbering: &numbering)
    case .merge(let effects):
      for effect in effects { self.start(effect, ids: ids, numbering: &numbering) }
    case .run(let run):
      guard let origin = numbering.take() else { return }
      self.spawn(run, ids: ids, origin: origin)
    case .concatenate(let effects):
      guard let origin = numbering.take() else { return }
      self.spawn(priority: nil, ids: ids, origin: origin) { _ in
        await self.runInOrder(effects, ids: ids)
      }
    }
  }
}
