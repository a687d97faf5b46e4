import Testing

/// `patchbay lv2 list` and `patchbay lv2 info`, against Debian's x42-plugins (make deps).
struct LV2CommandTests {
  /// Debian's plugins, and the fixtures beside them (`LV2_PATH`): one that needs a feature
  /// Patchbay does not give, one that does not say it is hard-realtime capable.
  static let path =
    "\(CheckTests.root)/Tests/PatchbayLV2Tests/Fixtures:/usr/lib/lv2"

  @Test func listNamesEachPluginAndWhyNotWhenItCannotBeHosted() async throws {
    let list = try await CLI.run("lv2", "list", environment: ["LV2_PATH": Self.path])
    #expect(list.exitCode == 0, "\(list.stderr)")
    let lines = list.stdout.split(separator: "\n")
    #expect(
      lines.contains(
        "http://gareus.org/oss/lv2/fil4#mono  x42-eq - Parametric Equalizer Mono (Parametric EQ Plugin)"
      ))
    #expect(
      lines.contains(
        "urn:patchbay:test:needs-map-path  Needs mapPath (Plugin)  — not hosted: requires the "
          + "LV2 feature <http://lv2plug.in/ns/ext/state#mapPath>, which Patchbay does not "
          + "provide (it provides urid:map, urid:unmap, options, buf-size:boundedBlockLength "
          + "and worker:schedule)"))
    #expect(
      lines.contains {
        $0.hasPrefix("urn:patchbay:test:not-realtime  ")
          && $0.contains("— not hosted: does not say it is hard-realtime capable")
      })
    let hostable = try await CLI.run(
      "lv2", "list", "--hostable", environment: ["LV2_PATH": Self.path])
    #expect(!hostable.stdout.contains("not hosted"))
    #expect(hostable.stdout.split(separator: "\n").count == lines.count - 2)
  }

  @Test func infoShowsPortsAndPresets() async throws {
    let info = try await CLI.run("lv2", "info", "http://gareus.org/oss/lv2/fil4#mono")
    #expect(info.exitCode == 0, "\(info.stderr)")
    #expect(info.stdout.hasPrefix("x42-eq - Parametric Equalizer Mono (Parametric EQ Plugin)\n"))
    #expect(info.stdout.contains("hosted:    yes\n"))
    #expect(info.stdout.contains("  3 gain (control in, -18.0…18.0, default 0.0): Gain\n"))
  }

  @Test func anUnknownURIIsOneLine() async throws {
    let info = try await CLI.run("lv2", "info", "http://example.org/none")
    #expect(info.exitCode == 1)
    #expect(
      info.stderr
        == "Error: no LV2 plugin <http://example.org/none> is installed: list them with "
        + "`patchbay lv2 list` (Debian: apt-get install x42-plugins lsp-plugins-lv2; or set "
        + "LV2_PATH)\n")
  }
}
