import Patchbay
import PatchbayABI
import PatchbayEncoding

/// The effects of an instance after its isolated process crashed (patchbay/feature.h,
/// `effect_origins` and `restart_effects`): the host keeps, for each action whose effects
/// still run, the state it was reduced on, and a new process starts those effects again.
extension FeatureInstance {
  /// The actions whose effects still run, as `effect_origins` writes them: the number of the
  /// last call, then each action's number and its running effects' numbers.
  @usableFromInline
  func effectOrigins() -> [UInt8] {
    let origins = self.runtime.effectOrigins
    var byAction: [(action: UInt64, effects: [UInt32])] = []
    for origin in origins {
      if byAction.last?.action == origin.action {
        byAction[byAction.count - 1].effects.append(origin.effect)
      } else {
        byAction.append((origin.action, [origin.effect]))
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(12 + byAction.count * 16 + origins.count * 4)
    bytes.appendLittleEndian(self.calls)
    bytes.appendLittleEndian(UInt32(byAction.count))
    for (action, effects) in byAction {
      bytes.appendLittleEndian(action)
      bytes.appendLittleEndian(UInt32(effects.count))
      for effect in effects { bytes.appendLittleEndian(effect) }
    }
    return bytes
  }

  /// Starts again the effects `effects` that the action in `actionBytes` started when it was
  /// reduced on the state in `stateBytes`; this instance's state stays as it is.
  @usableFromInline
  func restartEffects(
    state stateBytes: UnsafeRawBufferPointer, action actionBytes: UnsafeRawBufferPointer,
    effects: Set<UInt32>
  ) -> pb_status {
    self.calls += 1
    guard
      let state = self.sharing.readState({
        restoreFeatureState(Feature.self, from: Array(stateBytes), host: self.host)
      }),
      let action = decodeActionBytes(Feature.self, actionBytes, host: self.host)
    else { return PB_ERR_DECODE }
    let number = self.calls
    let restart = {
      self.runtime.restartEffects(of: action, reducedOn: state, effects: effects, number: number)
    }
    if let imports = self.imports {
      ImportedFunctions.withCurrent(imports, restart)
    } else {
      restart()
    }
    return PB_OK
  }
}

extension [UInt8] {
  @usableFromInline
  mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
    Swift.withUnsafeBytes(of: value.littleEndian) { self.append(contentsOf: $0) }
  }
}
