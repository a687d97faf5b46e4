import IssueReporting
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// One live instance of a feature, behind the ABI's opaque `void *instance`: a
/// ``FeatureInstance`` of its feature, whose calls the vtable makes through its `table`
/// (``InstanceCalls``).
///
/// The table is made once per feature, not per instance: a row of a collection of 100,000
/// costs one object here, not a box of closures beside its instance.
public class FeatureInstanceBox {
  @usableFromInline let table: InstanceCalls

  @usableFromInline
  init(table: InstanceCalls) {
    self.table = table
  }
}

/// The calls of one feature's instances, specialized for the feature where
/// ``FeatureDriver/make(_:id:processor:audio:)`` runs (in the plugin's own module): each takes
/// the instance, a ``FeatureInstance`` of the feature.
public final class InstanceCalls {
  @usableFromInline typealias Call<Result> = (FeatureInstanceBox) -> Result

  let reduce: (FeatureInstanceBox, UnsafeRawBufferPointer) -> pb_status
  let snapshot: Call<[UInt8]?>
  let render: Call<String>
  let cancelEffects: Call<Void>
  let runningEffects: Call<Int>
  let cancelEffectsKeyed: (FeatureInstanceBox, String) -> Void
  let resumeEffects: Call<Bool>
  let effectOrigins: Call<[UInt8]>
  let restartEffects:
    (FeatureInstanceBox, UnsafeRawBufferPointer, UnsafeRawBufferPointer, Set<UInt32>)
      -> pb_status
  let audio: InstanceAudio?

  /// The calls of `Feature`'s instances.
  @inlinable
  convenience init<Feature: PluginFeature>(_: Feature.Type, audio: InstanceAudio?) {
    typealias Instance = FeatureInstance<Feature>
    func instance(_ box: FeatureInstanceBox) -> Instance { unsafeDowncast(box, to: Instance.self) }
    self.init(
      reduce: { instance($0).reduce($1) },
      snapshot: { instance($0).snapshot() },
      render: { instance($0).render() },
      cancelEffects: { instance($0).cancelEffects() },
      runningEffects: { instance($0).runtime.runningEffects },
      cancelEffectsKeyed: { instance($0).runtime.cancelEffects(key: $1) },
      resumeEffects: { instance($0).resumeEffects() },
      effectOrigins: { instance($0).effectOrigins() },
      restartEffects: { instance($0).restartEffects(state: $1, action: $2, effects: $3) },
      audio: audio)
  }

  @usableFromInline
  init(
    reduce: @escaping (FeatureInstanceBox, UnsafeRawBufferPointer) -> pb_status,
    snapshot: @escaping Call<[UInt8]?>,
    render: @escaping Call<String>,
    cancelEffects: @escaping Call<Void>,
    runningEffects: @escaping Call<Int>,
    cancelEffectsKeyed: @escaping (FeatureInstanceBox, String) -> Void,
    resumeEffects: @escaping Call<Bool>,
    effectOrigins: @escaping Call<[UInt8]>,
    restartEffects:
      @escaping (FeatureInstanceBox, UnsafeRawBufferPointer, UnsafeRawBufferPointer, Set<UInt32>)
      -> pb_status,
    audio: InstanceAudio?
  ) {
    self.reduce = reduce
    self.snapshot = snapshot
    self.render = render
    self.cancelEffects = cancelEffects
    self.runningEffects = runningEffects
    self.cancelEffectsKeyed = cancelEffectsKeyed
    self.resumeEffects = resumeEffects
    self.effectOrigins = effectOrigins
    self.restartEffects = restartEffects
    self.audio = audio
  }
}

/// A feature's state, reducer and effects inside the plugin.
@usableFromInline
final class FeatureInstance<Feature: PluginFeature>: FeatureInstanceBox {
  @usableFromInline let host: HostConnection
  @usableFromInline let runtime: ReducerRuntime<Feature.State, Feature.Action>
  // The host makes one call into an instance at a time (its app queue's jobs), so these are
  // never accessed twice at once: unchecked, each action skips three runtime exclusivity
  // checks (`swift_beginAccess`, 7% of a send through the C ABI).
  @exclusivity(unchecked) @usableFromInline var actions = ActionCache<Feature.Action>()
  @exclusivity(unchecked) @usableFromInline var published = PublishedValues()
  /// How many `reduce` and `restart_effects` calls it has had: the number of the last one,
  /// under which its effects are filed (``EffectOrigin``).
  @exclusivity(unchecked) @usableFromInline var calls: UInt64 = 0
  /// The functions it imported, current on the thread while it reduces (`@Import`); nil
  /// without imports.
  @usableFromInline let imports: ImportedFunctions.Box?
  /// Its in-memory shared values, held through the host.
  @usableFromInline let sharing: InstanceSharing

  @inlinable
  init(host: HostConnection, state: Feature.State, sharing: InstanceSharing, calls: InstanceCalls) {
    self.host = host
    self.sharing = sharing
    let imported = host.resolve(Feature.imports, for: Feature.id)
    self.imports = Feature.imports.isEmpty ? nil : ImportedFunctions.Box(imported)
    let prepare: ((inout DependencyValues) -> Void)?
    // A plugin runs live even inside a test process: the host is what a test drives. Outside
    // tests its dependencies are live already, and reduce skips the task-local override.
    switch (isTesting, Feature.imports.isEmpty) {
    case (false, true): prepare = nil
    case (true, true): prepare = { $0.context = .live }
    case (let testing, false):
      prepare = {
        if testing { $0.context = .live }
        $0.importedFunctions = imported
      }
    }
    // The closures hold the instance's sharing, one object, for its connection: a closure
    // of one object needs no allocation of its own.
    self.runtime = ReducerRuntime(
      initialState: state, reducer: Feature(),
      withDependencies: prepare,
      requests: { payload in sharing.host.handle(request: payload, from: Feature.id) },
      generations: EffectGenerations(
        cancelled: { id in sharing.host.effectCancelled { id.key } },
        sendFrom: { action, ids in
          sendToHost(Feature.self, action, host: sharing.host, keys: { ids.map(\.key) })
        })
    ) { action in
      sendToHost(Feature.self, action, host: sharing.host)
    }
    super.init(table: calls)
    if Feature.midiChannels != 0 { host.listenToMIDI(channels: Feature.midiChannels) }
    for subscription in Feature.subscriptions { host.subscribe(subscription) }
    self.publishShared()
  }

  /// Publishes the shared values that the last action changed.
  @inlinable
  func publishShared() {
    let values = Feature.shared(self.runtime.state)
    guard !values.isEmpty else { return }
    self.published.publish(values, through: self.host, feature: Feature.id)
  }

  deinit {
    self.runtime.cancelEffects()
  }

  /// Decodes (or finds in the cache) and reduces one action.
  @inlinable
  func reduce(_ bytes: UnsafeRawBufferPointer) -> pb_status {
    self.calls += 1
    guard self.sharing.holdsNothing else { return self.sharing.run { self.reduceNow(bytes) } }
    // The usual case, without a closure: its storage current, and nothing held to lock.
    let previous = InMemoryStorage.enterCurrent(self.sharing)
    defer { InMemoryStorage.leaveCurrent(previous) }
    return self.reduceNow(bytes)
  }

  /// ``reduce(_:)`` with its storage current.
  @inlinable @inline(__always)
  func reduceNow(_ bytes: UnsafeRawBufferPointer) -> pb_status {
    if let action = self.actions.action(for: bytes) {
      self.run(action)
      self.publishShared()
      return PB_OK
    }
    guard let value = decodeActionValue(Feature.self, bytes, host: self.host) else {
      return PB_ERR_DECODE
    }
    // A shared value another holder wrote (`_shared`), not one of the feature's actions.
    if let status = self.sharing.receive(value) { return status }
    guard let action = decodeActionValue(Feature.self, value, host: self.host) else {
      return PB_ERR_DECODE
    }
    self.actions.store(action, for: bytes)
    self.run(action)
    self.publishShared()
    return PB_OK
  }

  /// Reduces `action`, its imported functions current on this thread.
  @inlinable
  func run(_ action: Feature.Action) {
    let number = self.calls
    guard let imports = self.imports else { return self.runtime.reduce(action, number: number) }
    ImportedFunctions.withCurrent(imports) { self.runtime.reduce(action, number: number) }
  }

  @inlinable
  func snapshot() -> [UInt8]? {
    encodeState(Feature.self, self.runtime.state, host: self.host)
  }

  @inlinable
  func render() -> String {
    Feature.render(self.runtime.state)
  }

  @inlinable
  func cancelEffects() {
    self.runtime.cancelEffects()
  }

  /// Starts the effects ``PluginFeature/resume(_:)`` gives for the state; false when it gives
  /// nil (the earlier generation's effects go on).
  @inlinable
  func resumeEffects() -> Bool {
    guard let effect = Feature.resume(self.runtime.state) else { return false }
    self.runtime.start(effect)
    return true
  }
}

/// Sends an effect's action to the host; `keys`, the keys of a cancellable effect's ids, go
/// with it when the host runs an earlier generation of the instance.
@usableFromInline
func sendToHost<Feature: PluginFeature>(
  _: Feature.Type, _ action: Feature.Action, host: HostConnection,
  keys: () -> [String] = { [] }
) {
  do {
    let bytes = try WireValueEncoder().encodeAction(action).bytes
    if host.generations > 1, case let keys = keys(), !keys.isEmpty {
      host.send(bytes, keys: keys)
    } else {
      host.send(bytes)
    }
  } catch {
    host.log(PB_LOG_ERROR, "\(Feature.id): an effect's action could not be encoded: \(error)")
  }
}

@usableFromInline
func decodeActionBytes<Feature: PluginFeature>(
  _: Feature.Type, _ bytes: UnsafeRawBufferPointer, host: HostConnection
) -> Feature.Action? {
  decodeActionValue(Feature.self, bytes, host: host).flatMap {
    decodeActionValue(Feature.self, $0, host: host)
  }
}

/// The value in action bytes, or nil, said through `host`, when they are not one.
@usableFromInline
func decodeActionValue<Feature: PluginFeature>(
  _: Feature.Type, _ bytes: UnsafeRawBufferPointer, host: HostConnection
) -> WireValue? {
  do {
    return try WireValue(decoding: bytes)
  } catch {
    host.error("\(Feature.id): cannot decode action: \(error). \(knownActions(Feature.self))")
    return nil
  }
}

/// The feature's action a value is, or nil, said through `host`, when it is none.
@usableFromInline
func decodeActionValue<Feature: PluginFeature>(
  _: Feature.Type, _ value: WireValue, host: HostConnection
) -> Feature.Action? {
  do {
    return try decodeAction(Feature.self, from: value)
  } catch {
    host.error("\(Feature.id): cannot decode action: \(error). \(knownActions(Feature.self))")
    return nil
  }
}

@usableFromInline
func encodeState<Feature: PluginFeature>(
  _: Feature.Type, _ state: Feature.State, host: HostConnection
) -> [UInt8]? {
  do {
    return try WireValueEncoder().encode(state).bytes
  } catch {
    host.error("\(Feature.id): cannot encode state: \(error)")
    return nil
  }
}
