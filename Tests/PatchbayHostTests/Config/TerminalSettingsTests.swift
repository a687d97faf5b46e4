import PatchbayConfig
import Testing

/// `[terminal]`, `[keys]` and a feature's `keys`: what a terminal shows and what keys send.
@Suite struct TerminalSettingsTests {
  static func config(_ extra: String, keys: String = "") -> String {
    """
    [app]
    name = "Keys"
    root = "home"
    [plugins]
    load = ["Counter"]
    \(extra)
    [[feature]]
    key = "home"
    id = "dev.patchbay.counter"
    \(keys)
    """
  }

  static func errors(_ text: String) -> [String] {
    do {
      _ = try AppConfig(parsing: text, file: "keys.toml")
      return []
    } catch {
      return error.errors.map(\.description)
    }
  }

  @Test func keysPinsAndBindingsAreRead() throws {
    let config = try AppConfig(
      parsing: Self.config(
        "[terminal]\npinned = [\"home\"]\n[keys]\nspace = \"home increment\"\n\"+\" = \"home setStep(by: 5)\"",
        keys: "keys = [\"i increment\", \"s setStep(by: 2)\"]"),
      file: "keys.toml")
    #expect(config.terminal.pinned == ["home"])
    #expect(config.terminal.keys.map(\.name) == ["space", "+"])
    #expect(config.terminal.keys[1].path == "home")
    #expect(config.terminal.keys[1].action == "setStep(by: 5)")
    #expect(config.node("home")?.keys.map(\.key) == ["i", "s"])
    #expect(config.node("home")?.keys[1].action == "setStep(by: 2)")
  }

  @Test func badKeysSayWhatIsWrongAndWhatToDo() {
    #expect(
      Self.errors(
        Self.config(
          "[terminal]\npinned = [\"nobody\"]\n[keys]\nq = \"home increment\"\nxx = \"home a\"\n"
            + "space = \"increment\"",
          keys: "keys = [\"i increment\", \"i decrement\", \"?x\", \": increment\"]"))
        == [
          "keys.toml:15: feature[0].keys[1]: key 'i' is bound twice on this screen.",
          "keys.toml:15: feature[0].keys[2]: '?x' is not KEY ACTION: write the key, a space, then "
            + "the action (\"n skip\").",
          "keys.toml:15: feature[0].keys[3]: ':' starts a command on the terminal; bind another key.",
          "keys.toml:9: keys.q: 'q' quits on the terminal; bind another key.",
          "keys.toml:10: keys.xx: 'xx' is not a key: write one character (a, +, 1) or space.",
          "keys.toml:11: keys.space: 'increment' is not PATH ACTION: write where the action goes, "
            + "then the action (\"studio/metronome toggle\").",
          "keys.toml:6: terminal.pinned: no feature 'nobody' to pin; features: home.",
        ])
  }
}
