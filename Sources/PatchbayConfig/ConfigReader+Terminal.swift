import PatchbayTOML

extension ConfigReader {
  /// `[terminal]` and `[keys]`: what a terminal shows on every screen.
  mutating func readTerminal(_ terminal: TOMLDocument.Table?, keys: TOMLDocument.Table?)
    -> TerminalSettings
  {
    var settings = TerminalSettings()
    if let terminal {
      self.checkKeys(terminal, in: "terminal")
      settings.pinned = (self.strings(terminal, "pinned") ?? []).map(\.value)
    }
    for (name, value) in keys?.entries ?? [] {
      guard case .string(let text) = value.kind else {
        self.error(
          value.line, "keys.\(name)", .wrongType(expected: "a string", found: value.typeName))
        continue
      }
      let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else {
        self.error(value.line, "keys.\(name)", .badKeyTarget(text))
        continue
      }
      let (key, problem) = KeyBinding.parse(name)
      if let key {
        let (action, label) = KeyBinding.splitLabel(parts[1])
        settings.keys.append(
          KeyBinding(key: key, path: parts[0], action: action, label: label, line: value.line))
      } else if let problem {
        self.error(value.line, "keys.\(name)", problem)
      }
    }
    return settings
  }

  /// A feature's `keys = ["a key(0) # C", "space toggle"]`: its screen's keys, each
  /// `KEY ACTION`, with an optional ` # LABEL` for the footer.
  mutating func readNodeKeys(_ table: TOMLDocument.Table) -> [KeyBinding] {
    var bindings: [KeyBinding] = []
    for (index, entry) in (self.strings(table, "keys") ?? []).enumerated() {
      let parts = entry.value.split(separator: " ", maxSplits: 1).map(String.init)
      let path = "\(table.name).keys[\(index)]"
      guard parts.count == 2 else {
        self.error(entry.line, path, .badNodeKey(entry.value))
        continue
      }
      let (key, problem) = KeyBinding.parse(parts[0])
      if let key, bindings.contains(where: { $0.key == key }) {
        self.error(entry.line, path, .duplicateBinding(parts[0]))
      } else if let key {
        let (action, label) = KeyBinding.splitLabel(parts[1])
        bindings.append(
          KeyBinding(key: key, path: nil, action: action, label: label, line: entry.line))
      } else if let problem {
        self.error(entry.line, path, problem)
      }
    }
    return bindings
  }
}
