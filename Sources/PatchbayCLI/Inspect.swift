import ArgumentParser
import Foundation
import PatchbayDigest
import PatchbayEncoding
import PatchbayHost
import PatchbayLV2
import PatchbayLV2Feature
import PatchbayLoader

/// `patchbay inspect PLUGIN [--json]`: what a plugin declares.
struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Load a plugin and print its ABI version, id, version, features and actions.",
    discussion: """
      Examples:
        patchbay inspect Counter
        patchbay inspect .build/debug/libEcho.so --json
      """
  )

  @Argument(help: "The plugin: a name (Counter) or a path (.build/debug/libCounter.so).")
  var plugin: String

  @Flag(help: "Print JSON instead of text.")
  var json = false

  @OptionGroup var search: PluginSearchOptions

  func run() throws {
    let plugin = try self.search.load(self.plugin)
    Terminal.out(self.json ? PluginReport.json(plugin) : PluginReport.text(plugin))
  }
}

/// How `inspect` shows a plugin.
enum PluginReport {
  /// The SHA-256 of the plugin's file, to pin it in host-config's `[sha256]`.
  static func hash(_ plugin: LoadedPlugin) -> String {
    (try? SHA256.hex(ofFile: plugin.path)) ?? "(unreadable)"
  }

  static func text(_ plugin: LoadedPlugin) -> String {
    var lines = [
      "\(plugin.name) \(plugin.version) (\(plugin.id))",
      "  file: \(plugin.path)\(symbolicLinkTarget(plugin.path).map { " → \($0)" } ?? "")",
      "  ABI:  \(plugin.abiMajor).\(plugin.abiMinor)",
      "  sha256: \(Self.hash(plugin))",
    ]
    if let services = plugin.services {  // a WebAssembly plugin: what [sandbox] must grant it
      let listed = services.map { "\"\($0)\"" }.joined(separator: ", ")
      lines.append(
        "  services: " + (services.isEmpty ? "none" : "\(listed) ([sandbox] grants them)"))
    }
    if PluginLoader.scheme(of: plugin.path) == LV2FeaturePlugin.scheme {
      // An installed LV2 plugin: lilv found it; `patchbay lv2 info` says the rest.
      let uri = String(plugin.path.dropFirst(LV2FeaturePlugin.scheme.count + 1))
      let library = (try? LV2World.shared.plugin(uri: uri))?.libraryPath ?? "(not found)"
      lines[1...3] = ["  LV2:  \(library) (ports and presets: patchbay lv2 info '\(uri)')"]
    }
    for feature in plugin.features {
      lines.append("")
      lines.append(
        "  \(feature.id) — \(feature.name) (state schema \(feature.schemaVersion)"
          + (feature.migrates ? ", migrates" : "") + ")"
      )
      if !feature.summary.isEmpty { lines.append("    \(feature.summary)") }
      if let processor = feature.processorInfo {
        lines.append(
          "    processor: \(processor.parameterBytes)-byte parameters, up to "
            + "\(processor.maxEvents) event(s) a period")
      }
      lines.append("    actions:")
      let width = feature.actions.map(\.signature.count).max() ?? 0
      for action in feature.actions {
        let padded = action.signature.padding(toLength: width, withPad: " ", startingAt: 0)
        let note = action.sentBy.map { "(sent by the \($0))" }
        let text = ([action.summary] + (note.map { [$0] } ?? [])).filter { !$0.isEmpty }
        lines.append("      \(padded)" + (text.isEmpty ? "" : "  " + text.joined(separator: " ")))
      }
    }
    if !plugin.functions.isEmpty {
      lines.append("")
      lines.append("  functions:")
      for function in plugin.functions {
        lines.append(
          "    \(function.name)  \(function.signature)"
            + (function.summary.isEmpty ? "" : "  \(function.summary)"))
      }
    }
    return lines.joined(separator: "\n")
  }

  static func json(_ plugin: LoadedPlugin) -> String {
    let features = plugin.features.map { feature -> WireValue in
      .record(
        fields: ("id", .string(feature.id)),
        ("name", .string(feature.name)),
        ("summary", .string(feature.summary)),
        ("stateSchemaVersion", .int(Int64(feature.schemaVersion))),
        ("migrates", .bool(feature.migrates)),
        (
          "processor",
          feature.processorInfo.map {
            .record(
              fields: ("parameterBytes", .int(Int64($0.parameterBytes))),
              ("maxEventsPerPeriod", .int(Int64($0.maxEvents))))
          } ?? .nil
        ),
        (
          "actions",
          .list(
            feature.actions.map { action in
              WireValue.record(
                [
                  .init("name", .string(action.name)),
                  .init("summary", .string(action.summary)),
                  .init(
                    "fields",
                    .list(
                      action.fields.map { field in
                        .record(
                          fields: ("name", .string(field.name)), ("type", .string(field.type)))
                      })),
                ] + (action.sentBy.map { [WireValue.Field("sentBy", .string($0))] } ?? []))
            })
        ))
    }
    return WireValue.record(
      fields: ("file", .string(plugin.path)),
      ("sha256", .string(Self.hash(plugin))),
      ("abi", .string("\(plugin.abiMajor).\(plugin.abiMinor)")),
      ("id", .string(plugin.id)),
      ("name", .string(plugin.name)),
      ("version", .string(plugin.version)),
      ("services", plugin.services.map { .list($0.map(WireValue.string)) } ?? .nil),
      ("features", .list(features)),
      (
        "functions",
        .list(
          plugin.functions.map { function in
            .record(
              fields: ("name", .string(function.name)),
              ("signature", .string(function.signature.description)),
              ("summary", .string(function.summary)))
          })
      )
    ).json(pretty: true)
  }
}

/// Where `path` leads when it is a symbolic link: the file that is really loaded.
func symbolicLinkTarget(_ path: String) -> String? {
  guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else {
    return nil
  }
  return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}
