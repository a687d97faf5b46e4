import Foundation
import PatchbayConfig
import PatchbayEncoding
import PatchbayLoader
import PatchbaySharedBoard

/// Shared state ("patchbay.shared/1", patchbay/shared.h): what an instance published or
/// subscribed to during a call is applied after it — after `create`, each action, a swap. On
/// the app queue.
extension AppRuntime {
  /// Applies the instance's shared requests: a changed value goes to every reader and holder
  /// as an action, now (each one reduces it before anything later reaches the instance that
  /// changed it); a new reader or holder gets the current value. A replay feeds the recorded
  /// actions instead.
  func applyShared(of handle: FeatureHandle, at path: InstancePath) {
    let requests = handle.owned.implementation.context.takeShared()
    guard !requests.isEmpty else { return }  // most sends: no path made into text
    let here = path.description
    for request in requests {
      let outcome: SharedBoard<FeatureHandle>.Outcome
      switch request {
      case .publish(let name, let value):
        outcome = self.owned.shared.publish(name, value: value, by: handle, at: here)
      case .hold(let name, let initial):
        outcome = self.owned.shared.hold(name, initial: initial, by: handle, at: here)
      case .write(let name, let value):
        outcome = self.owned.shared.write(name, value: value, by: handle, at: here)
      case .subscribe(let name, let action):
        if let first = self.owned.shared.subscribe(name, action: action, by: handle),
          !self.replaying
        {
          handle.receive(first, from: .shared)
        }
        continue
      }
      self.apply(outcome, of: request, at: here)
    }
  }

  private func apply(
    _ outcome: SharedBoard<FeatureHandle>.Outcome, of request: SharedRequest, at path: String
  ) {
    let name = request.name
    let reason: String
    switch outcome {
    case .changed(let deliveries):
      guard !self.replaying else { return }
      for (reader, action) in deliveries { reader.receive(action, from: .shared) }
      return
    case .unchanged: return
    case .refused(let owner):
      if case .publish = request {
        reason =
          "patchbay.shared/1: '\(name)' is published by \(owner); a name has one publisher. "
          + "Publish under another name, or read it (subscribe)."
      } else {
        reason =
          "patchbay.shared/1: '\(name)' is published by \(owner), so no holder may write it. "
          + "Read it (@SharedReader), or share a value of your own under another name."
      }
    case .notHeld:
      reason =
        "patchbay.shared/1: '\(name)' was written by an instance that does not hold it. "
        + "Call hold before write."
    case .malformed(let error):
      reason = "patchbay.shared/1: the value given for '\(name)' is not a value: \(error)"
    }
    self.fail(AppError(.failed(path: path, reason: reason)))
  }

  /// Publishes what the host knows for features to read (patchbay/shared.h): `host.midi`,
  /// the MIDI input, as `{input: "alsa-seq:20:0"}`. Features cannot publish `host.` names.
  ///
  /// ```swift
  /// app.publish("host.midi", .record([.init("input", .string("smf:song.mid"))]))
  /// ```
  public func publish(_ name: String, _ value: WireValue) {
    self.executor.sync {
      let deliveries = self.owned.shared.publishFromHost(name, value: value)
      guard !self.replaying else { return }
      for (reader, action) in deliveries { reader.receive(action, from: .shared) }
      self.afterJob()
    }
  }

  /// Runs `body`, which creates instances and then publishes the change that made them; what
  /// they published and subscribed to when created is applied after it.
  func sharingAfter<T>(_ body: () throws(AppError) -> T) throws(AppError) -> T {
    let outer = self.owned.sharedLater
    self.owned.sharedLater = []
    let result: T
    do {
      result = try body()
    } catch {
      self.owned.sharedLater = outer
      throw error
    }
    let created = self.owned.sharedLater ?? []
    self.owned.sharedLater = outer
    for (handle, path) in created where self.owned.instances[path] === handle {
      self.applyShared(of: handle, at: path)
    }
    return result
  }

  /// Shared state as people read it: each name's value as text, and who publishes it.
  ///
  /// ```swift
  /// app.sharedState()  // ["transport": ("metronome", "{tempo: 120.0, running: false, …}")]
  /// ```
  public func sharedState() -> [String: (owner: String, value: String)] {
    self.executor.sync {
      var result: [String: (owner: String, value: String)] = [:]
      for (name, owner) in self.owned.shared.names {
        result[name] = (owner, self.owned.shared.value(name)?.actionText ?? "nil")
      }
      return result
    }
  }
}
