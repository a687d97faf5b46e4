import PatchbayLoader
import PatchbayMIDI

/// Every table and key an app config may have, with its type, default and meaning. The reader
/// accepts exactly these (``ConfigReader/checkKeys(_:in:)``), and docs/CONFIG.md is made from
/// them (``markdown``; a test compares the two), so the reference cannot drift from the code.
///
/// ```swift
/// ConfigSchema.table("limits")?.keys.map(\.name)   // ["state-bytes", "view-bytes", …]
/// ```
package enum ConfigSchema {
  public struct Key: Sendable {
    public let name: String
    public let type: String
    /// The value when the key is absent; "required" for a key that must be there.
    public let defaultValue: String
    public let meaning: String
  }

  public struct Table: Sendable {
    /// As the file names it: `app`, or `feature` for `[[feature]]`.
    public let name: String
    /// `[app]`, `[[feature]]`.
    public var header: String { self.name == "feature" ? "[[feature]]" : "[\(self.name)]" }
    public let meaning: String
    public let keys: [Key]
    /// What the keys are, for a table whose keys are the user's (a plugin, a route, a key).
    public let freeKeys: String?

    init(_ name: String, _ meaning: String, keys: [Key] = [], freeKeys: String? = nil) {
      (self.name, self.meaning, self.keys, self.freeKeys) = (name, meaning, keys, freeKeys)
    }
  }

  private static func key(_ name: String, _ type: String, _ defaultValue: String, _ meaning: String)
    -> Key
  {
    Key(name: name, type: type, defaultValue: defaultValue, meaning: meaning)
  }

  public static let tables: [Table] = {
    let limits = OutputLimits.standard
    let sound = SoundSettings()
    return [
      Table(
        "app", "The app: its name and the feature at its root.",
        keys: [
          key("name", "string", "the file's name", "What the terminal UI's title says."),
          key("root", "string", "required", "The `key` of the feature at the root of the tree."),
          key("initial-route", "string", "none", "A route (`[routes]`) to start at."),
        ]),
      Table(
        "plugins", "The plugins to load.",
        keys: [
          key(
            "search-paths", "list of strings", "[]",
            "Folders to search for plugins named without a path (relative to this file)."),
          key(
            "load", "list of strings", "required",
            "Plugins by name (searched for) or path (relative to this file)."),
          key(
            "isolate", "list of strings", "[]",
            "Plugins to run in a process of their own, as `load` names them, or \"all\"."),
        ]),
      Table(
        "sha256", "Pins: a plugin that does not match its SHA-256 is refused.",
        freeKeys: "a plugin as `load` names it = \"64 hex digits\""),
      Table(
        "sandbox",
        "What an isolated plugin's sandbox lets it do after all; the services a WebAssembly "
          + "plugin may import (without a line, none: docs/WASM.md).",
        freeKeys: "a plugin as `load` names it = a list of \"sockets\", \"exec\", \"ptrace\"; "
          + "for a .wasm plugin, of \"midi\", \"navigation\", \"shared\", \"functions\""),
      Table(
        "feature", "One feature of the app's tree, one table each.",
        keys: [
          key("key", "string", "required", "Its name in paths (`studio/metronome`)."),
          key("id", "string", "required (or lv2)", "The feature id a loaded plugin exports."),
          key(
            "lv2", "string", "none",
            "An installed LV2 plugin's URI, instead of id: its controls are the state "
              + "(`patchbay lv2 list`)."),
          key(
            "lv2-realtime", "boolean", "true",
            "false lets an LV2 plugin that is not hard-realtime capable load."),
          key(
            "optional", "boolean", "false",
            "An LV2 feature whose plugin is missing leaves the app silent there, saying why."),
          key("parent", "string", "none (the root)", "The `key` of the feature it lives under."),
          key(
            "kind", "string", "\"child\"",
            "How it lives under its parent: child, stack, presented or collection."),
          key("observe", "list of strings", "[]", "Children whose actions it also receives."),
          key("ids", "list of strings", "[]", "A collection's first instances, by id."),
          key(
            "persist", "boolean", "false",
            "Its state is kept on disk across runs (written atomically)."),
          key(
            "keys", "list of strings", "[]",
            "Its screen's keys: \"KEY ACTION\", or \"KEY ACTION # LABEL\"."),
        ]),
      Table(
        "routes", "Deep links: a route names a feature.", freeKeys: "\"/route\" = a feature `key`"),
      Table(
        "audio", "The sound device and its format.",
        keys: [
          key(
            "device", "string", "\"\(sound.device)\"",
            "auto, null, none, default, hw:0, file:out.wav or alsa:NAME (`patchbay audio devices`)."
          ),
          key(
            "backend", "string", "\"\(sound.backend.rawValue)\"",
            "alsa (plays through `device`) or jack (joins a JACK server as a client; docs/SOUND.md)."
          ),
          key(
            "client-name", "string", "\"\(sound.clientName)\"",
            "jack: the client's name; its ports are NAME:out_1, NAME:out_2, …"),
          key("server", "string", "the default", "jack: the server to join (`jackd -n NAME`)."),
          key(
            "connect", "boolean", "\(sound.connectsToPlayback)",
            "jack: connect the ports to the server's playback ports at start."),
          key(
            "rate", "integer", "\(sound.format.sampleRate)",
            "Samples a second (jack: the server's)."),
          key("period", "integer", "\(sound.format.periodFrames)", "Frames a period."),
          key("channels", "integer", "\(sound.format.channels)", "Channels of the mix."),
        ]),
      Table(
        "midi", "MIDI in.",
        keys: [
          key(
            "input", "string", "\"none\"",
            "One of \(MIDIInputSpec.forms) (`patchbay midi sources`).")
        ]),
      Table(
        "limits", "What a plugin may write and how long its calls may take.",
        keys: [
          key("state-bytes", "integer", "\(limits.stateBytes)", "A larger snapshot fails."),
          key("view-bytes", "integer", "\(limits.viewBytes)", "A larger view fails to render."),
          key(
            "call-seconds", "integer", "\(limits.callSeconds)",
            "A call on the app queue not back by then is a hang: reported, the app stops."),
          key(
            "audio-periods", "integer", "\(limits.audioPeriods)",
            "A processor call not back after this many periods: the same."),
          key(
            "wasm-fuel", "integer", "\(limits.wasmFuel)",
            "Instructions a call into a WebAssembly plugin may run; past it, it traps."),
          key(
            "wasm-memory-mb", "integer", "\(limits.wasmMemoryMB)",
            "Memory an instance of a WebAssembly plugin may grow to."),
          key(
            "flight-actions", "integer", "\(limits.flightActions)",
            "The flight recorder keeps at least this many last actions (0: off)."),
          key(
            "rollback-actions", "integer", "\(limits.rollbackActions)",
            "An isolated crash within this many actions of a swap swaps back…"),
          key(
            "rollback-seconds", "integer", "\(limits.rollbackSeconds)",
            "…or within this many seconds."),
          key(
            "isolated-crashes", "integer", "\(limits.isolatedCrashes)",
            "This many crashes or hangs of an isolated plugin…"),
          key(
            "isolated-crash-seconds", "integer", "\(limits.isolatedCrashSeconds)",
            "…within this many seconds disable it."),
          key(
            "isolated-memory-mb", "integer", "\(limits.isolatedMemoryMB)",
            "An isolated plugin's address space, in MiB (0: no limit)."),
          key(
            "isolated-cpu-seconds", "integer", "\(limits.isolatedCPUSeconds)",
            "An isolated plugin's CPU time (0: no limit)."),
        ]),
      Table(
        "terminal", "What the terminal UI shows on every screen.",
        keys: [
          key("pinned", "list of strings", "[]", "Features whose views stand above every screen.")
        ]),
      Table(
        "keys", "Keys that work on every screen.",
        freeKeys: "a key (one character, or space) = \"PATH ACTION\", or \"PATH ACTION # LABEL\""),
    ]
  }()

  /// The table the file calls `name`.
  public static func table(_ name: String) -> Table? {
    self.tables.first { $0.name == name }
  }

  /// The reference, as docs/CONFIG.md holds it between its markers.
  public static var markdown: String {
    var lines: [String] = []
    for table in self.tables {
      lines += ["", "### `\(table.header)`", "", table.meaning, ""]
      if let free = table.freeKeys {
        lines.append("Keys: \(free).")
        continue
      }
      lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
      for key in table.keys {
        lines.append("| `\(key.name)` | \(key.type) | \(key.defaultValue) | \(key.meaning) |")
      }
    }
    return lines.dropFirst().joined(separator: "\n") + "\n"
  }
}
