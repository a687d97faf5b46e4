import ArgumentParser
import PatchbayConfig
import PatchbayHost

/// `patchbay check [CONFIG]`: is this app config sound, and do its plugins load?
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Validate an app config and every plugin it names.",
    discussion: """
      Prints every problem as FILE:LINE: KEY: what is wrong and what is expected, and exits 1; \
      prints a summary and exits 0 when all is well.

      Example:
        patchbay check host-config/app.toml
      """
  )

  @Argument(help: "The app config.")
  var config: String = "host-config/app.toml"

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func run() throws {
    do {
      let app = try AppConfig(contentsOf: self.config)
      let registry = try app.loadPlugins(
        with: try self.search.loader(for: app, isolating: self.isolation))
      Terminal.out(
        "\(self.config): ok — \(registry.plugins.count) plugin(s), \(app.nodes.count) feature(s), "
          + "\(app.routes.count) route(s), root '\(app.root)'")
    } catch let usage as ValidationError {
      throw usage
    } catch {
      throw CommandFailure("\(error)")
    }
  }
}
