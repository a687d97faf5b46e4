import Foundation
import PatchbayHost
import PatchbayLoader
import Testing

/// Plugins others could have written are refused, unless the user says otherwise. Echo (C)
/// stands in for any plugin.
@Suite struct PluginFileTrustTests {
  /// A folder of mode `mode` holding a copy of libEcho.so of mode `fileMode`.
  func echo(folderMode: mode_t = 0o755, fileMode: mode_t = 0o755) throws -> (URL, String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("trust-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let plugin = folder.appendingPathComponent("libEcho.so").path
    try FileManager.default.copyItem(atPath: try BuiltPlugins.path("Echo"), toPath: plugin)
    // chmod, not the creation mode: the umask does not apply.
    #expect(chmod(plugin, fileMode) == 0 && chmod(folder.path, folderMode) == 0)
    return (folder, plugin)
  }

  func refusal(_ plugin: String, allowing: Bool = false) -> String? {
    var loader = PluginLoader()
    loader.allowsInsecurePaths = allowing
    do {
      _ = try loader.load(plugin)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aPluginOfYoursInAFolderOfYoursLoads() throws {
    let (folder, plugin) = try self.echo()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(self.refusal(plugin) == nil)
  }

  @Test func aFileOthersCanWriteIsRefused() throws {
    let (folder, plugin) = try self.echo(fileMode: 0o666)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(
      self.refusal(plugin)
        == "\(plugin): is writable by others (mode 666): anyone who can write there could "
        + "replace the code Patchbay runs. chmod go-w it, move the plugin to a folder of yours, "
        + "or pass --allow-insecure-plugin-path.")
  }

  @Test(arguments: [
    (mode_t(0o775), "its group", "775"), (0o777, "others", "777"), (0o1777, "others", "1777"),
  ])
  func aFolderOthersCanWriteIsRefused(_ mode: mode_t, _ writer: String, _ shown: String) throws {
    let (folder, plugin) = try self.echo(folderMode: mode)
    defer { try? FileManager.default.removeItem(at: folder) }
    let message = try #require(self.refusal(plugin))
    #expect(
      message.hasPrefix(
        "\(plugin): is in a folder that is writable by \(writer) (\(folder.path)) (mode \(shown))"))
  }

  @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
  func aFileOfAnotherUserIsRefused() throws {
    let (folder, plugin) = try self.echo()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(chown(plugin, 65534, 65534) == 0)  // nobody
    #expect(
      self.refusal(plugin)?.hasPrefix(
        "\(plugin): is owned by uid 65534, neither you nor root: that user could replace") == true)
  }

  @Test func aLinkIsJudgedByAndNamesItsTarget() throws {
    let (folder, plugin) = try self.echo(fileMode: 0o666)
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathExtension("so").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: plugin)
    defer { try? FileManager.default.removeItem(atPath: link) }
    #expect(
      self.refusal(link)?.hasPrefix("\(link): (a link to \(plugin)) is writable by others") == true)
  }

  @Test func theUserCanAllowItAndKeepsTheOldBehaviour() throws {
    let (folder, plugin) = try self.echo(folderMode: 0o777, fileMode: 0o666)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(self.refusal(plugin) != nil)
    #expect(self.refusal(plugin, allowing: true) == nil)
  }
}
