import Patchbay
import PatchbayABI
import PatchbayEncoding

/// What the C vtable calls for one feature type: the type-erased side of a ``PluginFeature``.
class AnyFeatureDriver: @unchecked Sendable {
  func create(host: HostConnection, state: [UInt8]?) -> AnyFeatureInstance? { nil }
  func parseAction(_ text: String, host: HostConnection) -> [UInt8]? { nil }
  func formatAction(_ bytes: [UInt8], host: HostConnection) -> String? { nil }
  func migrate(from schema: UInt32, _ bytes: [UInt8], host: HostConnection) -> (
    pb_status, [UInt8]
  ) { (PB_ERR_UNSUPPORTED, []) }
}

final class FeatureDriver<Feature: PluginFeature>: AnyFeatureDriver, @unchecked Sendable {
  override func create(host: HostConnection, state: [UInt8]?) -> AnyFeatureInstance? {
    var initial = Feature.initialState
    if let state {
      do {
        initial = try decodeState(Feature.State.self, from: state)
      } catch {
        host.error(
          "\(Feature.id): cannot restore state (schema \(Feature.schemaVersion)): \(error). "
            + "Pass a snapshot of this schema, or migrate it first."
        )
        return nil
      }
    }
    return FeatureInstance<Feature>(host: host, state: initial)
  }

  override func parseAction(_ text: String, host: HostConnection) -> [UInt8]? {
    do {
      let value = try WireValue(parsingAction: text)
      _ = try decodeAction(Feature.self, from: value)
      return value.bytes
    } catch {
      host.error("\(Feature.id): cannot parse action '\(text)': \(describe(error, actions: true))")
      return nil
    }
  }

  override func formatAction(_ bytes: [UInt8], host: HostConnection) -> String? {
    do {
      let value = try WireValue(decoding: bytes)
      _ = try decodeAction(Feature.self, from: value)
      return value.actionText
    } catch {
      host.error("\(Feature.id): cannot format action bytes: \(describe(error, actions: true))")
      return nil
    }
  }

  override func migrate(from schema: UInt32, _ bytes: [UInt8], host: HostConnection) -> (
    pb_status, [UInt8]
  ) {
    do {
      let old = try WireValue(decoding: bytes)
      let new = try Feature.migrate(from: schema, old)
      _ = try WireValueDecoder().decode(Feature.State.self, from: new)
      return (PB_OK, new.bytes)
    } catch let error as PluginFeatureError {
      host.error(error.description)
      return (PB_ERR_UNSUPPORTED, [])
    } catch {
      host.error("\(Feature.id): migrating from schema \(schema) failed: \(error)")
      return (PB_ERR_FAILED, [])
    }
  }

  private func describe(_ error: any Error, actions: Bool) -> String {
    let known = Feature.actions.map(\.name).joined(separator: ", ")
    return "\(error). Actions: \(known)."
  }
}

/// Decodes state bytes into `State`.
func decodeState<State: Decodable>(_: State.Type, from bytes: [UInt8]) throws -> State {
  try WireValueDecoder().decode(State.self, from: WireValue(decoding: bytes))
}

/// Decodes an action of `Feature`, naming an unknown action as such.
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
