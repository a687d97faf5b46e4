import ArgumentParser
import PatchbayLV2

/// `patchbay lv2`: the LV2 plugins installed here, and whether Patchbay can host each.
struct LV2Command: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lv2",
    abstract: "List the installed LV2 plugins, and show one's ports and presets.",
    subcommands: [List.self, Info.self]
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "One line per installed LV2 plugin: its URI, name and class, and why not if "
        + "Patchbay cannot host it.")

    @Flag(help: "Only the plugins Patchbay can host.")
    var hostable = false

    func run() async throws {
      let plugins = LV2World.shared.plugins
      guard !plugins.isEmpty else {
        Terminal.out(
          "no LV2 plugins found in LV2_PATH (Debian: apt-get install x42-plugins lsp-plugins-lv2)")
        return
      }
      for plugin in plugins {
        let refusal = plugin.refusal(allowingNonRealtime: false)
        if self.hostable && refusal != nil { continue }
        Terminal.out(
          "\(plugin.uri)  \(plugin.name) (\(plugin.classLabel))"
            + (refusal.map { "  — not hosted: \(LV2Command.short($0, plugin))" } ?? ""))
      }
    }
  }

  struct Info: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "An LV2 plugin's ports, presets and required features.")

    @Argument(help: "The plugin's URI (from `patchbay lv2 list`).")
    var uri: String

    func run() async throws {
      let plugin: LV2PluginInfo
      do {
        plugin = try LV2World.shared.plugin(uri: self.uri)
      } catch {
        throw CommandFailure(error.description)
      }
      Terminal.out("\(plugin.name) (\(plugin.classLabel))")
      Terminal.out("uri:       \(plugin.uri)")
      Terminal.out(
        "hosted:    "
          + (plugin.refusal(allowingNonRealtime: false).map { "no: \($0)" } ?? "yes"))
      Terminal.out(
        "requires:  "
          + (plugin.requiredFeatures.isEmpty
            ? "nothing" : plugin.requiredFeatures.joined(separator: ", ")))
      Terminal.out(
        "realtime:  \(plugin.isHardRealtimeCapable ? "hard-realtime capable" : "not said")")
      Terminal.out(
        "state:     \(plugin.hasStateInterface ? "saves and restores its own" : "its controls")")
      Terminal.out("ports:")
      for port in plugin.ports { Terminal.out("  \(port)") }
      Terminal.out(plugin.presets.isEmpty ? "presets:   none" : "presets:")
      for preset in plugin.presets { Terminal.out("  \(preset.label)") }
    }
  }

  /// A refusal without the URI it starts with (the line already has it).
  static func short(_ refusal: String, _ plugin: LV2PluginInfo) -> String {
    let prefix = "<\(plugin.uri)> "
    return refusal.hasPrefix(prefix) ? String(refusal.dropFirst(prefix.count)) : refusal
  }
}
