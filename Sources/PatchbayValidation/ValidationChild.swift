import Foundation
import PatchbayLoader

/// The child side of ``ChildRunner``: runs one test, prints its result as JSON on standard
/// output, and leaves a breadcrumb on standard error before each call into the plugin.
/// `patchbay validate --child` and `patchbay-probe` both end here.
///
/// ```swift
/// // patchbay-probe --child processor.realtime synth.so --seed 7 --strictness 5
/// exit(ValidationChild.main(Array(CommandLine.arguments.dropFirst())))
/// ```
package enum ValidationChild {
  /// Runs `name` on the plugin at `path`, with the watchdog ending the process when a call
  /// has not returned in `callSeconds`. Throws when there is no such test.
  package static func run(
    _ name: String, plugin path: String, seed: UInt64, strictness: Int, keep: [Int]?,
    providers: [String], isolated: Bool = false, callSeconds: Int = 5
  ) throws {
    guard let test = ValidationSuite.test(named: name) else {
      throw ValidationFailure("--child \(name): no such test")
    }
    // A call, or a period, that does not return is named as the app names it.
    CrashReports.watch(callSeconds: callSeconds)
    let context = ValidationContext(
      pluginPath: path, seed: seed, strictness: strictness, keep: keep, providers: providers,
      isolated: isolated, callSeconds: callSeconds
    ) { step in
      FileHandle.standardError.write(Data("step: \(step)\n".utf8))
    }
    let result = test.run(context)
    context.step("done")
    FileHandle.standardOutput.write(try JSONEncoder().encode(result))
  }

  /// Parses `--child TEST PLUGIN --seed N --strictness N [--call-seconds N] [--keep 1,2]
  /// [--provider P]… [--isolated]` and
  /// runs the test, with the host's crash reports installed (a crash in a plugin call is one
  /// line and exit status 3, as in `patchbay`); the exit status (2 with one line on standard
  /// error for bad arguments).
  package static func main(_ arguments: [String]) -> Int32 {
    CrashReports.install()
    var rest = arguments[...]
    var test: String?
    var plugin: String?
    var seed: UInt64 = 0
    var strictness = 5
    var keep: [Int]?
    var providers: [String] = []
    var isolated = false
    var callSeconds = 5
    func value(_ option: String) throws -> String {
      guard let value = rest.popFirst() else {
        throw ValidationFailure("\(option) needs a value")
      }
      return value
    }
    do {
      while let argument = rest.popFirst() {
        switch argument {
        case "--child": test = try value(argument)
        case "--seed": seed = UInt64(try value(argument)) ?? 0
        case "--strictness": strictness = Int(try value(argument)) ?? 5
        case "--keep":
          keep = try value(argument).split(separator: ",").compactMap { Int($0) }
        case "--provider": providers.append(try value(argument))
        case "--isolated": isolated = true
        case "--call-seconds": callSeconds = max(1, Int(try value(argument)) ?? 5)
        default:
          guard plugin == nil, !argument.hasPrefix("--") else {
            throw ValidationFailure("unexpected argument '\(argument)'")
          }
          plugin = argument
        }
      }
      guard let test, let plugin else {
        throw ValidationFailure("usage: --child TEST PLUGIN [--seed N] [--strictness N]")
      }
      try self.run(
        test, plugin: plugin, seed: seed, strictness: strictness, keep: keep,
        providers: providers, isolated: isolated, callSeconds: callSeconds)
      return 0
    } catch {
      let message = (error as? ValidationFailure)?.message ?? "\(error)"
      FileHandle.standardError.write(Data("patchbay-probe: \(message)\n".utf8))
      return 2
    }
  }
}
