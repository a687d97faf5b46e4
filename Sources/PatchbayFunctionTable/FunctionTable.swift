import Foundation
import Patchbay
import PatchbayAppError
import PatchbayEncoding
import PatchbayFunctions
import PatchbayLoader

/// The functions plugins resolved from each other in one app (patchbay/functions.h), each
/// behind a trampoline the host owns: a swap of its provider points it at the new code, and
/// the app going away points it at a function that returns zero and logs. Trampolines are
/// never freed: a plugin may hold one for as long as the process lives. [app queue]
///
/// ```swift
/// let pointer = try table.resolve("dev.patchbay.theory-plugin", "note_frequency",
///                                 "double(int32, double)", in: registry)
/// let f = unsafeBitCast(pointer, to: (@convention(c) (Int32, Double) -> Double).self)
/// f(69, 440)   // 440.0, through whichever Theory generation is current
/// ```
package final class FunctionTable {
  package struct Entry {
    package let provider: String
    package let name: String
    package let signature: FunctionSignature
    package let trampoline: StableTrampoline
    package var function: LoadedFunction
  }

  package init() {}

  package private(set) var entries: [Entry] = []
  /// How new trampolines forward (tests and benchmarks make both).
  package var kind = StableTrampoline.Kind.default

  /// The function `name` of `provider` (a plugin id or name, or a feature id) as `registry`
  /// has it now.
  package static func find(_ provider: String, _ name: String, in registry: FeatureRegistry)
    throws(AppError) -> LoadedFunction
  {
    guard let plugin = registry.provider(provider) else {
      let known = registry.currentPlugins.map(\.id)
      throw AppError(
        .functionCall(
          function: "\(provider).\(name)",
          reason:
            "no plugin or feature '\(provider)' is loaded.\(suggestion(for: provider, among: known)) "
            + "Loaded: \(known.joined(separator: ", "))."))
    }
    if plugin.isolatedFunctions.contains(name) {
      throw AppError(
        .functionCall(
          function: "\(plugin.name).\(name)",
          reason:
            "\(plugin.path) runs isolated, so its functions run in its own process and cannot "
            + "be called from this one. Isolate the plugin that calls it too (it then loads its "
            + "own copy), or take \(plugin.name) out of [plugins] isolate."))
    }
    guard let function = plugin.function(name) else {
      let names = plugin.functions.map(\.name)
      throw AppError(
        .functionCall(
          function: "\(plugin.name).\(name)",
          reason:
            "\(plugin.path) exports no function '\(name)'.\(suggestion(for: name, among: names)) "
            + (names.isEmpty ? "It exports none." : "It exports: \(names.joined(separator: ", ")).")
        )
      )
    }
    return function
  }

  /// ``find(_:_:in:)``, checked against `signature`.
  package static func lookup(
    _ provider: String, _ name: String, _ signature: FunctionSignature,
    in registry: FeatureRegistry
  ) throws(AppError) -> LoadedFunction {
    let function = try Self.find(provider, name, in: registry)
    guard function.signature == signature else {
      throw AppError(
        .functionCall(
          function: "\(function.plugin.name).\(name)",
          reason: "is \(function.signature), not \(signature). Resolve it with its signature."))
    }
    return function
  }

  /// A stable pointer to `name` of `provider`, made once per (provider, name, signature).
  package func resolve(
    _ provider: String, _ name: String, _ signatureText: String, in registry: FeatureRegistry
  ) throws(AppError) -> UnsafeRawPointer {
    let signature: FunctionSignature
    do {
      signature = try FunctionSignature(parsing: signatureText)
    } catch {
      throw AppError(
        .functionCall(
          function: "\(provider).\(name)",
          reason: "the signature '\(signatureText)' does not parse: \(error)."))
    }
    if let entry = self.entries.first(where: {
      $0.provider == provider && $0.name == name && $0.signature == signature
    }) {
      return entry.trampoline.pointer
    }
    let function = try Self.lookup(provider, name, signature, in: registry)
    guard let trampoline = StableTrampoline(to: function, kind: self.kind) else {
      throw AppError(
        .functionCall(function: "\(provider).\(name)", reason: "no memory for a trampoline."))
    }
    self.entries.append(
      Entry(
        provider: provider, name: name, signature: signature, trampoline: trampoline,
        function: function))
    return trampoline.pointer
  }

  /// Why `registry` (after a swap) would leave a resolved function without its code; nil when
  /// every one is still there with its signature.
  package func refusal(in registry: FeatureRegistry) -> AppError? {
    for entry in self.entries {
      do throws(AppError) {
        _ = try Self.lookup(entry.provider, entry.name, entry.signature, in: registry)
      } catch {
        return AppError(
          .functionCall(
            function: "\(entry.provider).\(entry.name)",
            reason: "a plugin resolved it as \(entry.signature), and the new code "
              + "\(error.description.components(separatedBy: ": ").dropFirst().joined(separator: ": "))"
          ))
      }
    }
    return nil
  }

  /// Points every trampoline at its function in `registry`; returns how many moved.
  @discardableResult
  package func retarget(in registry: FeatureRegistry) -> Int {
    var moved = 0
    for index in self.entries.indices {
      let entry = self.entries[index]
      guard
        let function = try? Self.lookup(entry.provider, entry.name, entry.signature, in: registry),
        function !== entry.function
      else { continue }
      entry.trampoline.retarget(to: function.pointer)
      self.entries[index].function = function
      moved += 1
    }
    return moved
  }

  /// The app is going away: every trampoline from now on returns zero and logs through `log`.
  package func abandon(log: @escaping @Sendable (String) -> Void) {
    for entry in self.entries {
      let message =
        "\(entry.provider).\(entry.name) was called after its app closed; it returned zero. "
        + "Resolve functions again in the app you run now."
      entry.trampoline.abandon { log(message) }
    }
  }
}
