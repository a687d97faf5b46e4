import Foundation
import PatchbayEncoding
import PatchbayFunctionTable
import PatchbayFunctions
import PatchbayLoader

/// Plugins' exported functions in a running app (patchbay/functions.h): calling them by name,
/// and the stable pointers plugins resolve through "patchbay.functions/1".
extension AppRuntime {
  /// Calls the function `name` of `provider` (a plugin id, a feature id, or a plugin name)
  /// with `values`; the result as a value.
  ///
  /// ```swift
  /// try app.call("dev.patchbay.theory-plugin", "note_frequency", [69, 440.0])  // 440.0
  /// ```
  public func call(_ provider: String, _ name: String, _ values: [WireValue]) throws(AppError)
    -> WireValue
  {
    let function = try self.executor.sync { () throws(AppError) -> LoadedFunction in
      try self.function(provider, name)
    }
    return try Self.calling(function, values)
  }

  /// Calls the one loaded function named `name` (`call NAME ARGS…` in scripts).
  public func call(_ name: String, _ values: [WireValue]) throws(AppError) -> WireValue {
    let function = try self.executor.sync { () throws(AppError) -> LoadedFunction in
      let found = self.owned.features.currentPlugins.compactMap { $0.function(name) }
      guard found.count == 1 else {
        let all = self.owned.features.currentPlugins.flatMap { plugin in
          plugin.functions.map(\.name)
        }
        throw AppError(
          .functionCall(
            function: name,
            reason: found.isEmpty
              ? "no loaded plugin exports it.\(suggestion(for: name, among: all))"
                + (all.isEmpty
                  ? " None exports any." : " Functions: \(all.joined(separator: ", ")).")
              : "\(found.count) plugins export it (\(found.map(\.plugin.id).joined(separator: ", "))); name the plugin."
          ))
      }
      return found[0]
    }
    return try Self.calling(function, values)
  }

  /// Calls `function`, failing as the app does.
  private static func calling(_ function: LoadedFunction, _ values: [WireValue]) throws(AppError)
    -> WireValue
  {
    do {
      return try function.call(values)
    } catch {
      throw AppError(.functionCall(function: error.function, reason: error.reason))
    }
  }

  /// A stable pointer to `provider`'s function `name`, called as `signature` — what
  /// "patchbay.functions/1" gives a plugin. It follows swaps of the provider.
  public func resolve(_ provider: String, _ name: String, _ signature: String) throws(AppError)
    -> UnsafeRawPointer
  {
    try self.executor.sync { () throws(AppError) -> UnsafeRawPointer in
      try self.functions.resolve(provider, name, signature, in: self.owned.features)
    }
  }

  /// The function `name` of the plugin `provider` names now. On the app queue.
  func function(_ provider: String, _ name: String) throws(AppError) -> LoadedFunction {
    try FunctionTable.find(provider, name, in: self.owned.features)
  }

  /// What instances of this app resolve functions with: a stable pointer per provider, name
  /// and signature, on the app queue.
  var functionResolver: FunctionResolver {
    { [weak self] provider, name, signature throws(AppError) in
      guard let self else {
        throw AppError(.functionCall(function: "\(provider).\(name)", reason: "the app is gone."))
      }
      return try self.resolve(provider, name, signature)
    }
  }

  /// ``functionResolver``, made once for all instances. On the app queue.
  var instancesFunctionResolver: FunctionResolver {
    if let resolver = self.owned.functionResolver { return resolver }
    let resolver = self.functionResolver
    self.owned.functionResolver = resolver
    return resolver
  }
}
