import Foundation
import PatchbayEncoding
import PatchbayFunctions
import PatchbayHost
import PatchbayLoader

/// Functions: each export's signature, and calls with edge values through libffi.
extension ValidationSuite {
  static let functions: [ValidationTest] = [
    ValidationTest(
      "functions.signatures", level: 1, inProcessOnly: true,
      "each exported function's signature parses"
    ) { context in
      let plugin = try context.load()
      guard !plugin.functions.isEmpty else { return .skip("the plugin exports no function") }
      // The loader refuses a plugin whose signature does not parse: a load is the check.
      return .pass(
        plugin.functions.map { "\($0.name) \($0.signature)" }.joined(separator: ", "))
    },
    ValidationTest(
      "functions.imports", level: 2, inProcessOnly: true,
      "the functions each feature imports resolve against the --provider plugins: provider, "
        + "name and signature"
    ) { context in
      let plugin = try context.load()
      let providers = try context.providers.map { path in
        context.step("load the provider \(path)")
        return try PluginLoader().load(path)
      }
      let imported = Lines()
      let missing = Lines()
      for feature in plugin.features {
        // Whatever the feature asks for when it starts, answered from the providers.
        let resolver: FunctionResolver = { provider, name, signature in
          let asked = "\(provider).\(name) as \(signature)"
          guard
            let source = ([plugin] + providers).first(where: {
              $0.id == provider || $0.name == provider || $0.feature(provider) != nil
            })
          else {
            missing.add("\(asked): no provider '\(provider)' (give it with --provider)")
            throw ValidationFailure("no provider")
          }
          guard let function = source.function(name) else {
            missing.add("\(asked): \(source.name) exports no '\(name)'")
            throw ValidationFailure("no function")
          }
          guard (try? FunctionSignature(parsing: signature)) == function.signature else {
            missing.add("\(asked): \(source.name) exports it as \(function.signature)")
            throw ValidationFailure("signature")
          }
          imported.add("\(provider).\(name)")
          return function.pointer
        }
        context.step("create \(feature.id), resolving its imports")
        _ = try? FeatureHandle(feature: feature, functions: resolver)
      }
      guard missing.all.isEmpty else {
        throw ValidationFailure(
          "imports that do not resolve: " + missing.all.joined(separator: "; "))
      }
      guard !imported.all.isEmpty else { return .skip("no feature imports a function") }
      return .pass(
        "\(imported.all.count) import(s) resolved: \(imported.all.joined(separator: ", "))")
    },
    ValidationTest(
      "functions.edges", level: 7, inProcessOnly: true,
      "each exported function called through libffi with every parameter at its edges "
        + "(0, ±1, the type's limits, NaN, ±∞, empty and long strings and buffers): no crash"
    ) { context in
      let plugin = try context.load()
      guard !plugin.functions.isEmpty else { return .skip("the plugin exports no function") }
      var calls = 0
      var refused = 0
      var skipped: [String] = []
      for function in plugin.functions {
        let parameters = function.signature.parameters.filter { $0 != .outString }
        guard !parameters.contains(.pointer) else {
          skipped.append("\(function.name) (takes a pointer: no value is safe to make up)")
          continue
        }
        let edges = parameters.map(edgeValues)
        // Each parameter through its edges, the others at their first (ordinary) value.
        for (index, values) in edges.enumerated() {
          for value in values {
            var arguments = edges.map { $0[0] }
            arguments[index] = value
            let call = WireValue.case(
              function.name,
              arguments.enumerated().map { WireValue.Field("_\($0.offset)", $0.element) })
            context.step("call \(call.actionText.prefix(200))")
            do {
              _ = try function.call(arguments)
            } catch {
              refused += 1  // refused with a reason (a value the type cannot take)
            }
            calls += 1
          }
        }
      }
      return .pass(
        "\(calls) call(s), \(refused) refused with a reason"
          + (skipped.isEmpty ? "" : "; not called: " + skipped.joined(separator: ", ")))
    },
  ]
}

/// A parameter type's values, the ordinary one first.
private func edgeValues(_ type: FunctionSignature.ValueType) -> [WireValue] {
  switch type {
  case .bool: return [false, true]
  case .int8: return [1, 0, -1, .int(Int64(Int8.min)), .int(Int64(Int8.max))]
  case .int16: return [1, 0, -1, .int(Int64(Int16.min)), .int(Int64(Int16.max))]
  case .int32: return [1, 0, -1, .int(Int64(Int32.min)), .int(Int64(Int32.max))]
  case .int64: return [1, 0, -1, .int(.min), .int(.max)]
  case .uint8: return [1, 0, .int(Int64(UInt8.max))]
  case .uint16: return [1, 0, .int(Int64(UInt16.max))]
  case .uint32: return [1, 0, .int(Int64(UInt32.max))]
  case .uint64, .size: return [1, 0, .int(.max)]
  case .float, .double:
    return [
      1.0, 0.0, .double(-0.0), .double(.nan), .double(.infinity), .double(-.infinity),
      .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
    ]
  case .string:
    return ["a", "", .string(String(repeating: "x", count: 65_536)), "ü 😀 \u{1b}"]
  case .buffer:
    return [.list([1, 2, 3]), .list([]), .list((0..<4_096).map { .int(Int64($0 % 256)) })]
  case .void, .pointer, .outString: return [.nil]
  }
}

/// Lines a resolver records from whichever thread the plugin resolves on.
private final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func add(_ line: String) { self.lock.withLock { self.lines.append(line) } }
  var all: [String] { self.lock.withLock { self.lines } }
}
