extension AppConfig {
  /// The config of an app of one feature: its root, `key`, is feature `id` of `plugin` (a path,
  /// or a name on the search paths). What `patchbay validate` renders a processor in, and how a
  /// test or an embedder runs one plugin alone.
  ///
  /// ```swift
  /// let text = AppConfig.oneFeature("dev.patchbay.counter", of: "Counter", key: "counter",
  ///                                 plugins: ["search-paths = [\".build/debug\"]"])
  /// // [app]
  /// // root = "counter"
  /// // [plugins]
  /// // load = ["Counter"]
  /// // search-paths = [".build/debug"]
  /// // [[feature]]
  /// // key = "counter"
  /// // id = "dev.patchbay.counter"
  /// let config = try AppConfig(parsing: text, file: "counter.toml")
  /// ```
  ///
  /// Each of `app`, `plugins` and `feature` are lines added to that table (`name = "Kept"`,
  /// `isolate = ["all"]`, `persist = true`); `tables` follow the feature (`[limits]`, `[audio]`).
  /// `also` are more plugins to load, after `plugin`.
  public static func oneFeature(
    _ id: String, of plugin: String, key: String = "f", also: [String] = [], app: [String] = [],
    plugins: [String] = [], feature: [String] = [], tables: String = ""
  ) -> String {
    let load = ([plugin] + also).map(Self.quoted).joined(separator: ", ")
    let lines =
      ["[app]", "root = \(Self.quoted(key))"] + app
      + ["[plugins]", "load = [\(load)]"] + plugins
      + ["[[feature]]", "key = \(Self.quoted(key))", "id = \(Self.quoted(id))"] + feature
      + (tables.isEmpty ? [] : [tables])
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as a TOML basic string: `"text"`, with `\` and `"` escaped.
  public static func quoted(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}
