import Patchbay
import PatchbayABI
import PatchbayEncoding

/// One live instance of a feature, behind the ABI's opaque `void *instance`.
class AnyFeatureInstance {
  func reduce(_ bytes: [UInt8]) -> pb_status { PB_ERR_UNSUPPORTED }
  func snapshot() -> [UInt8]? { nil }
  func render() -> String { "" }
  func cancelEffects() {}
}

final class FeatureInstance<Feature: PluginFeature>: AnyFeatureInstance {
  let host: HostConnection
  let runtime: ReducerRuntime<Feature.State, Feature.Action>

  init(host: HostConnection, state: Feature.State) {
    self.host = host
    // A plugin runs live even inside a test process: the host is what a test drives.
    self.runtime = withDependencies {
      $0.context = .live
    } operation: {
      ReducerRuntime(initialState: state, reducer: Feature()) { action in
        do {
          host.send(try WireValueEncoder().encodeAction(action).bytes)
        } catch {
          host.log(PB_LOG_ERROR, "\(Feature.id): an effect's action could not be encoded: \(error)")
        }
      }
    }
  }

  deinit {
    self.runtime.cancelEffects()
  }

  override func reduce(_ bytes: [UInt8]) -> pb_status {
    let action: Feature.Action
    do {
      action = try decodeAction(Feature.self, from: WireValue(decoding: bytes))
    } catch {
      let known = Feature.actions.map(\.name).joined(separator: ", ")
      self.host.error(
        "\(Feature.id): cannot decode action: \(error). Send one of: \(known)."
      )
      return PB_ERR_DECODE
    }
    self.runtime.reduce(action)
    return PB_OK
  }

  override func snapshot() -> [UInt8]? {
    do {
      return try WireValueEncoder().encode(self.runtime.state).bytes
    } catch {
      self.host.error("\(Feature.id): cannot encode state: \(error)")
      return nil
    }
  }

  override func render() -> String {
    Feature.render(self.runtime.state)
  }

  override func cancelEffects() {
    self.runtime.cancelEffects()
  }
}
