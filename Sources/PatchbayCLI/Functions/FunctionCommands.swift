import ArgumentParser
import Foundation
import PatchbayEncoding
import PatchbayHost

/// `patchbay functions PLUGIN`: the functions a plugin exports.
struct Functions: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the C functions a plugin exports, with their signatures.",
    discussion: """
      Example:
        patchbay functions Theory
      """
  )

  @Argument(help: "The plugin: a name (Theory) or a path.")
  var plugin: String

  @OptionGroup var search: PluginSearchOptions

  func run() throws {
    let plugin = try self.search.load(self.plugin)
    guard !plugin.functions.isEmpty else {
      Terminal.out("\(plugin.name) exports no functions.")
      return
    }
    let nameWidth = plugin.functions.map(\.name.count).max() ?? 0
    let signatureWidth = plugin.functions.map(\.signature.description.count).max() ?? 0
    for function in plugin.functions {
      let name = function.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      let signature = function.signature.description.padding(
        toLength: signatureWidth, withPad: " ", startingAt: 0)
      Terminal.out(
        "\(name)  \(signature)" + (function.summary.isEmpty ? "" : "  \(function.summary)"))
    }
  }
}

/// `patchbay call PLUGIN NAME ARGS…`: calls an exported function through libffi.
struct Call: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Call a function a plugin exports, and print its result.",
    discussion: """
      Arguments are values: 69, 440.0, true, "C4" (quote it for the shell: '"C4"'), [60, 64, 67]. \
      An out_string parameter takes no argument: its text is the result.

      Examples:
        patchbay call Theory note_frequency 69 440      # 440.0
        patchbay call Theory note_name 61               # C#4
        patchbay call Theory chord_name '[64, 67, 72]'  # C major/E
      """
  )

  @Argument(help: "The plugin: a name (Theory) or a path.")
  var plugin: String

  @Argument(help: "The function's name.")
  var name: String

  @Argument(parsing: .allUnrecognized, help: "The arguments, as values.")
  var arguments: [String] = []

  @OptionGroup var search: PluginSearchOptions

  func run() throws {
    let plugin = try self.search.load(self.plugin)
    guard let function = plugin.function(self.name) else {
      let names = plugin.functions.map(\.name)
      throw CommandFailure(
        "\(plugin.name).\(self.name): no such function."
          + (names.isEmpty
            ? " \(plugin.name) exports none." : " It exports: \(names.joined(separator: ", ")).")
      )
    }
    let values = try self.arguments.enumerated().map { index, text in
      guard let value = WireValue(stateText: text) else {
        throw CommandFailure(
          "\(plugin.name).\(self.name): argument \(index + 1) '\(text)' is not a value (a number, true, \"text\" or [1, 2])."
        )
      }
      return value
    }
    do {
      Terminal.out(try function.call(values).callText)
    } catch {
      throw CommandFailure(error.description)
    }
  }
}
