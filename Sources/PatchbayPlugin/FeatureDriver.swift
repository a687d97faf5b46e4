import Patchbay
import PatchbayABI
import PatchbayEncoding

/// What the C vtable calls for one feature type: a ``PluginFeature`` behind closures.
///
/// Built by ``feature(_:)`` in the plugin's own module (in the list given to
/// ``PluginExport/entry(id:name:version:features:hostABIMajor:)``), so the closures — and the
/// instances they create — are specialized for the feature's types: a reduce through the ABI
/// runs no generic witness code.
public final class FeatureDriver: @unchecked Sendable {
  let id: String
  let name: String
  let summary: String
  let schemaVersion: UInt32
  let actions: [ActionSchema]
  let migrates: Bool
  let create: (HostConnection, [UInt8]?) -> FeatureInstanceBox?
  let parseAction: (String, HostConnection) -> [UInt8]?
  let formatAction: ([UInt8], HostConnection) -> String?
  let migrate: (UInt32, [UInt8], HostConnection) -> (pb_status, [UInt8])
  /// The processor's descriptor values, for an ``AudioFeature``.
  let processor: ProcessorDriver?

  @usableFromInline
  init(
    id: String, name: String, summary: String, schemaVersion: UInt32, actions: [ActionSchema],
    migrates: Bool,
    create: @escaping (HostConnection, [UInt8]?) -> FeatureInstanceBox?,
    parseAction: @escaping (String, HostConnection) -> [UInt8]?,
    formatAction: @escaping ([UInt8], HostConnection) -> String?,
    migrate: @escaping (UInt32, [UInt8], HostConnection) -> (pb_status, [UInt8]),
    processor: ProcessorDriver? = nil
  ) {
    self.id = id
    self.name = name
    self.summary = summary
    self.schemaVersion = schemaVersion
    self.actions = actions
    self.migrates = migrates
    self.create = create
    self.parseAction = parseAction
    self.formatAction = formatAction
    self.migrate = migrate
    self.processor = processor
  }

  /// The driver of `Feature`, specialized where this is called: `.feature(Counter.self)`.
  @inlinable
  public static func feature<Feature: PluginFeature>(_ feature: Feature.Type) -> FeatureDriver {
    .feature(feature, id: Feature.id)
  }

  /// The driver of `Feature` exported under another id than `Feature.id`: the same code as two
  /// features of one app (`.feature(Counter.self, id: "dev.example.second-counter")`).
  @inlinable
  public static func feature<Feature: PluginFeature>(_: Feature.Type, id: String) -> FeatureDriver {
    .make(Feature.self, id: id, processor: nil, audio: nil)
  }

  /// The driver of any feature; an ``AudioFeature`` adds its processor and `audio`, the
  /// instance's side of it.
  @inlinable
  static func make<Feature: PluginFeature>(
    _: Feature.Type, id: String, processor: ProcessorDriver?,
    audio: InstanceAudio?
  ) -> FeatureDriver {
    let calls = InstanceCalls(Feature.self, audio: audio)
    return FeatureDriver(
      id: id, name: Feature.name, summary: Feature.summary,
      schemaVersion: Feature.schemaVersion, actions: Feature.actions, migrates: Feature.migrates,
      create: { host, state in
        // Its `@Shared(.inMemory)` values are held in a storage of its own, shared with the
        // app's other plugins through the host.
        let sharing = InstanceSharing(host: host, feature: id)
        guard
          let initial = sharing.readState({
            restoreFeatureState(Feature.self, from: state, host: host)
          })
        else {
          return nil
        }
        return FeatureInstance<Feature>(host: host, state: initial, sharing: sharing, calls: calls)
      },
      parseAction: { text, host in parseFeatureAction(Feature.self, text, host: host) },
      formatAction: { bytes, host in formatFeatureAction(Feature.self, bytes, host: host) },
      migrate: { schema, bytes, host in
        migrateFeatureState(Feature.self, from: schema, bytes, host: host)
      },
      processor: processor
    )
  }
}

extension FeatureDriver {
  /// The driver of an ``AudioFeature``: the feature, and its processor.
  @inlinable
  public static func feature<Feature: AudioFeature>(_ feature: Feature.Type) -> FeatureDriver {
    .feature(feature, id: Feature.id)
  }

  /// ``feature(_:)`` under another id.
  @inlinable
  public static func feature<Feature: AudioFeature>(_: Feature.Type, id: String) -> FeatureDriver {
    .make(
      Feature.self, id: id,
      processor: ProcessorDriver(
        // The host passes a block only when there is one: even an empty one is a byte.
        parameterSize: max(MemoryLayout<Feature.Processor.Parameters>.size, 1),
        maxOutputEvents: min(max(Feature.maxProcessorEvents, 0), Int(PB_MAX_PROCESSOR_EVENTS)),
        maxMIDIOutput: min(max(Feature.maxMIDIOutput, 0), Int(PB_MAX_PROCESSOR_EVENTS))),
      audio: InstanceAudio(
        writeParameters: { box, block in
          let instance = unsafeDowncast(box, to: FeatureInstance<Feature>.self)
          block.storeBytes(
            of: Feature.parameters(for: instance.runtime.state),
            as: Feature.Processor.Parameters.self)
        },
        createProcessor: { ProcessorBox<Feature>(configuration: $0) },
        eventAction: { event in
          guard let action = Feature.action(for: event) else { return nil }
          return try? WireValueEncoder().encodeAction(action).bytes
        }))
  }
}

@usableFromInline
func restoreFeatureState<Feature: PluginFeature>(
  _: Feature.Type, from bytes: [UInt8]?, host: HostConnection
) -> Feature.State? {
  guard let bytes else { return Feature.initialState }
  let value: WireValue
  do {
    value = try WireValue(decoding: bytes)
  } catch {
    host.error(
      "\(Feature.id): cannot restore state (schema \(Feature.schemaVersion)): \(error). "
        + "Pass a snapshot made by this feature")
    return nil
  }
  do {
    let (state, note) = try evolvedState(Feature.self, from: value)
    if let note, evolutionNotes.withValue({ $0.insert("\(Feature.id) \(note)").inserted }) {
      host.log(PB_LOG_INFO, "\(Feature.id): the state was read into this build's State: \(note)")
    }
    return state
  } catch let refusal as PluginFeatureError {
    host.error("\(Feature.id): cannot restore state (schema \(Feature.schemaVersion)): \(refusal)")
    return nil
  } catch {
    host.error(
      "\(Feature.id): cannot restore state (schema \(Feature.schemaVersion)): "
        + "\(describeStateError(error)). Keep the field's type and the cases the state holds, "
        + "give a new field a default value, or bump schemaVersion and migrate "
        + "(docs/SWAP.md, \"State across a swap\")")
    return nil
  }
}

/// Refuses an edit that drops a field while it adds one of the same kind beside it: most likely
/// a rename, whose value would be lost without a mark.
func refusePossibleRename<Feature: PluginFeature>(
  _: Feature.Type, value: WireValue, start: WireValue, added: [String], dropped: [String]
) throws {
  func parent(_ path: String) -> Substring {
    path.split(separator: ".").dropLast().joined(separator: ".")[...]
  }
  for old in dropped {
    guard let kind = value.value(at: old)?.kindName else { continue }
    guard
      let new = added.first(where: {
        parent($0) == parent(old) && start.value(at: $0)?.kindName == kind
      })
    else { continue }
    throw PluginFeatureError(
      "field '\(old)' is not in this State, and '\(new)', \(kind == "int" ? "an" : "a") \(kind) "
        + "too, is missing: if '\(new)' is '\(old)' renamed, mark it (static let "
        + "renamedStateFields = [\"\(new)\": \"\(old)\"]); if not, remove the one and add the "
        + "other in two swaps")
  }
}

/// A decoding error as one line naming the field: Swift's own (an enum's raw value that is
/// no case any more) say it in their context.
func describeStateError(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return "\(error)" }
  let context: DecodingError.Context
  switch error {
  case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c),
    .valueNotFound(_, let c):
    context = c
  @unknown default: return "\(error)"
  }
  let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    .joined(separator: ".")
  return path.isEmpty ? context.debugDescription : "field '\(path)': \(context.debugDescription)"
}

/// The notes already logged: each edit of a State is said once per process, not per instance.
private let evolutionNotes = LockedValue<Set<String>>([])

/// The state in `value`, a snapshot of this `State` or of another build of it (an edit):
/// fields added take the start state's values, fields removed are dropped. With what it did,
/// when it did anything.
func evolvedState<Feature: PluginFeature>(
  _: Feature.Type, from value: WireValue
) throws -> (Feature.State, String?) {
  // The start state is only a template: its `@Shared` values go to a storage of their own,
  // or their defaults would be held (and win) before the state read back is.
  let (start, stateTemplates) = try InMemoryStorage.withCurrent(InMemoryStorage()) {
    (try WireValueEncoder().encode(Feature.initialState), Feature.stateTemplates)
  }
  var value = value
  var renamed: [String] = []
  for (new, old) in Feature.renamedStateFields.sorted(by: { $0.key < $1.key })
  where value.value(at: old) != nil && value.value(at: new) == nil {
    value = value.renamingField(old, to: new)
    renamed.append("'\(old)' → '\(new)'")
  }
  var templates = [ObjectIdentifier(Feature.State.self): start]
  for template in stateTemplates { templates[template.type] = template.value }
  let state = try WireValueDecoder(templates: templates).decode(Feature.State.self, from: value)
  let added = value.fieldsAdded(in: start)
  let dropped = value.fieldsNotIn(try WireValueEncoder().encode(state))
  try refusePossibleRename(Feature.self, value: value, start: start, added: added, dropped: dropped)
  let quoted = { (names: [String]) in names.map { "'\($0)'" }.joined(separator: ", ") }
  let notes = [
    renamed.isEmpty ? nil : "renamed \(renamed.joined(separator: ", "))",
    added.isEmpty ? nil : "\(quoted(added)) took the start value",
    dropped.isEmpty ? nil : "\(quoted(dropped)), no longer in State, dropped",
  ].compactMap { $0 }
  return (state, notes.isEmpty ? nil : notes.joined(separator: "; "))
}

@usableFromInline
func parseFeatureAction<Feature: PluginFeature>(
  _: Feature.Type, _ text: String, host: HostConnection
)
  -> [UInt8]?
{
  do {
    let value = try WireValue(parsingAction: text)
    // A held shared value's action (`_shared`) is every feature's.
    if SharedHolding.parse(value) == nil { _ = try decodeAction(Feature.self, from: value) }
    return value.bytes
  } catch {
    host.error(
      "\(Feature.id): cannot parse action '\(text)': \(error). \(knownActions(Feature.self))")
    return nil
  }
}

@usableFromInline
func formatFeatureAction<Feature: PluginFeature>(
  _: Feature.Type, _ bytes: [UInt8], host: HostConnection
)
  -> String?
{
  do {
    let value = try WireValue(decoding: bytes)
    // A held shared value's action (`_shared`) is every feature's.
    if SharedHolding.parse(value) == nil { _ = try decodeAction(Feature.self, from: value) }
    return value.actionText
  } catch {
    host.error("\(Feature.id): cannot format action bytes: \(error). \(knownActions(Feature.self))")
    return nil
  }
}

@usableFromInline
func migrateFeatureState<Feature: PluginFeature>(
  _: Feature.Type, from schema: UInt32, _ bytes: [UInt8], host: HostConnection
) -> (pb_status, [UInt8]) {
  do {
    let old = try WireValue(decoding: bytes)
    let new = try Feature.migrate(from: schema, old)
    // Checked in a storage of its own: the state is not an instance's.
    _ = try InMemoryStorage.withCurrent(InMemoryStorage()) {
      try WireValueDecoder().decode(Feature.State.self, from: new)
    }
    return (PB_OK, new.bytes)
  } catch let error as PluginFeatureError {
    host.error(error.description)
    return (PB_ERR_UNSUPPORTED, [])
  } catch {
    host.error("\(Feature.id): migrating from schema \(schema) failed: \(error)")
    return (PB_ERR_FAILED, [])
  }
}

/// "Actions: increment, setStep." for error messages.
func knownActions<Feature: PluginFeature>(_: Feature.Type) -> String {
  "Actions: \(Feature.actions.map(\.name).joined(separator: ", "))."
}

/// Decodes an action of `Feature`, naming an unknown action as such.
@usableFromInline
func decodeAction<Feature: PluginFeature>(_: Feature.Type, from value: WireValue) throws
  -> Feature.Action
{
  do {
    return try WireValueDecoder().decodeAction(Feature.Action.self, from: value)
  } catch {
    // Effects may send actions the schema does not list (internal ones); only a name that
    // fails to decode and is not listed is reported as unknown.
    if case .case(let name, _) = value, !Feature.actions.contains(where: { $0.name == name }) {
      throw PluginFeatureError("unknown action '\(name)'")
    }
    throw error
  }
}
