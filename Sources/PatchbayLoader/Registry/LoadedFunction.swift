import PatchbayEncoding
import PatchbayFunctions
import Synchronization

/// A function a loaded plugin exports: its name, parsed signature and address, prepared for
/// libffi on first call.
///
/// ```swift
/// let theory = try PluginLoader().load("Theory")
/// try theory.function("note_frequency")!.call([69, 440.0])   // .double(440.0)
/// ```
///
/// `@unchecked Sendable`: its properties are immutable (the pointer is into code that stays
/// mapped), and the prepared call is made once, lock-free.
public final class LoadedFunction: @unchecked Sendable {
  public let name: String
  public let signature: FunctionSignature
  public let summary: String
  /// The C function (in a plugin generation that stays mapped for the life of the process).
  public let pointer: UnsafeRawPointer
  public unowned let plugin: LoadedPlugin
  /// Why a call failed, where its code can say (a WebAssembly plugin's); set by its loader
  /// before anyone calls it. Held here, not read through `plugin`, which a caller that keeps
  /// only the function need not keep alive.
  package var faults: (any FunctionFaults)?
  private let preparedOnce = AtomicLazyReference<PreparedFunction>()

  init(
    name: String, signature: FunctionSignature, summary: String, pointer: UnsafeRawPointer,
    plugin: LoadedPlugin
  ) {
    self.name = name
    self.signature = signature
    self.summary = summary
    self.pointer = pointer
    self.plugin = plugin
  }

  /// The function's `ffi_cif`, prepared once.
  public var prepared: PreparedFunction {
    // Two threads may both prepare one on the first call; one of them is kept.
    self.preparedOnce.load()
      ?? self.preparedOnce.storeIfNil(PreparedFunction(signature: self.signature))
  }

  /// Calls the function with `values` (see ``PreparedFunction``); errors name the function,
  /// and say why its code failed where it can (``FunctionFaults``).
  public func call(_ values: [WireValue]) throws(FunctionCallError) -> WireValue {
    let faults = self.faults
    faults?.watch()
    do throws(FunctionCallFailure) {
      let result = try self.prepared.call(self.pointer, values)
      if let fault = faults?.endWatch() {
        throw FunctionCallFailure("\(fault); the call returned zero")
      }
      return result
    } catch {
      _ = faults?.endWatch()
      throw FunctionCallError(
        function: "\(self.plugin.name).\(self.name)", reason: error.description)
    }
  }
}

extension LoadedPlugin {
  /// The function named `name`, if the plugin exports it.
  public func function(_ name: String) -> LoadedFunction? {
    self.functions.first { $0.name == name }
  }
}

extension StableTrampoline {
  /// A trampoline to a plugin's exported function; nil when memory runs out.
  public convenience init?(to function: LoadedFunction, kind: Kind = .default) {
    self.init(to: function.pointer, signature: function.signature, kind: kind)
  }
}
