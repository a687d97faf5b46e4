import Patchbay
import PatchbayEncoding

/// A function a loaded plugin exports: its name, parsed signature and address, prepared for
/// libffi on first call.
///
/// ```swift
/// let theory = try PluginLoader().load("Theory")
/// try theory.function("note_frequency")!.call([69, 440.0])   // .double(440.0)
/// ```
public final class LoadedFunction: @unchecked Sendable {
  public let name: String
  public let signature: FunctionSignature
  public let summary: String
  /// The C function (in a plugin generation that stays mapped for the life of the process).
  public let pointer: UnsafeRawPointer
  public unowned let plugin: LoadedPlugin
  private let preparedOnce = LockedValue<PreparedFunction?>(nil)

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
    self.preparedOnce.withValue { prepared in
      if let prepared { return prepared }
      let made = PreparedFunction(signature: self.signature)
      prepared = made
      return made
    }
  }

  /// Calls the function with `values` (see ``PreparedFunction``); errors name the function.
  public func call(_ values: [WireValue]) throws(AppError) -> WireValue {
    do {
      return try self.prepared.call(self.pointer, values)
    } catch {
      throw AppError(
        .functionCall(function: "\(self.plugin.name).\(self.name)", reason: error.description))
    }
  }
}

extension LoadedPlugin {
  /// The function named `name`, if the plugin exports it.
  public func function(_ name: String) -> LoadedFunction? {
    self.functions.first { $0.name == name }
  }
}
