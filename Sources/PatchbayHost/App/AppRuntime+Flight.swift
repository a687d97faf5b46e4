import PatchbayConfig
import PatchbayFlight

extension AppRuntime {
  /// The flight recorder's file, while the app runs (docs/DEBUGGING.md); nil when
  /// `[limits] flight-actions` is 0.
  public var flightFile: String? { self.flight?.file }

  /// `feature` failed and the app goes on (a refusal, a processor muted for NaN, an isolated
  /// plugin's crash): keeps a copy of the flight file, whose last actions lead here, and says
  /// where in the log, with the command that shrinks it to a test. Once per feature, and
  /// only when someone reads the log. [app queue]
  package func keepFlight(after feature: String) {
    guard let flight = self.flight, self.hooks.isLogRead, let kept = flight.keep(for: feature)
    else { return }
    _ = self.hooks.log(
      feature, .error, "its last actions up to this failure: \(kept) (patchbay repro \(kept))")
  }

  /// Tells whoever watches, and the flight recorder, of a change; a swap's is written where
  /// it happens, on the app queue, in order with the actions. [app queue, but for a swap]
  func publish(_ change: AppChange) {
    switch change {
    case .navigation(let action, _, let initial):
      self.flight?.write(.navigation(name: action.name, nodes: action.nodes, state: initial))
    case .collection(let path, let id, let added, let state):
      self.flight?.write(.collection(path: path, id: id, added: added, state: state))
    case .swap, .action, .failure:
      break
    }
    self.changes.publish(change)
  }

  /// The records that rebuild the app as it is now from its config: the swaps since it
  /// started, the screens, each collection's instances, and every instance's state, parents
  /// first. What a flight file's checkpoint holds. [app queue]
  func flightCheckpoint() -> [FlightRecord] {
    var records: [FlightRecord] = []
    let started = self.flight?.startedWith ?? [:]
    for id in self.owned.features.featureIDs {
      guard let feature = self.owned.features[id], started[id] != feature.plugin.path else {
        continue
      }
      records.append(.swap(feature: id, plugin: feature.plugin.path))
    }
    let navigation = self.owned.navigation
    records.append(
      .routes(
        stack: navigation.stack.map(\.description),
        presented: navigation.presented?.description, next: UInt64(navigation.nextInstance)))
    for entry in self.owned.instances.entries {
      if let parent = entry.path.parent, self.config.node(entry.path.last.key)?.kind == .collection
      {
        records.append(
          .collection(
            path: parent.appending(entry.path.last.key).description,
            id: entry.path.last.instance ?? "", added: true, state: nil))
      }
      // A state that does not come is left out: the instance starts as its node says.
      if let state = try? entry.handle.snapshot() {
        records.append(.kept(path: entry.path.description, state: state))
      }
    }
    return records
  }
}

extension ActionSource {
  /// Its number in a flight file.
  package var flightNumber: UInt8 {
    switch self {
    case .command: 0
    case .effect: 1
    case .midi: 2
    case .processor: 3
    case .shared: 4
    }
  }

  /// The source numbered `number` in a flight file.
  package init?(flightNumber number: UInt8) {
    guard let source = Self.allCases.first(where: { $0.flightNumber == number }) else {
      return nil
    }
    self = source
  }
}
