import Foundation
import PatchbayAudioGraph
import PatchbayConfig
import PatchbayDevTools
import PatchbayHost
import Testing

/// The DevTools page in a real browser (headless Chromium, from Debian's `chromium`, which
/// `make deps` installs): it shows the tree, sends an action from the form, goes back in time,
/// and shows a swap in the plugin's history. Its screenshots are docs/DEVTOOLS.md's pictures
/// (`make screenshots` writes them to docs/images; otherwise they go to a temporary folder and
/// are only checked).
@Suite(
  .enabled(
    if: Chromium.path != nil,
    "chromium is not installed: apt-get install chromium (make deps installs it)"))
struct DevToolsBrowserTests {
  /// Where the screenshots go.
  static let writesDocs = ProcessInfo.processInfo.environment["PATCHBAY_WRITE_SCREENSHOTS"] == "1"
  static let pictures: URL = {
    if Self.writesDocs {
      return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../docs/images").standardized
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent(
      "devtools-screenshots-\(UUID().uuidString)")
  }()

  func save(_ png: Data, _ name: String) throws {
    // A PNG, and not a blank one: the signature, and more than one colour's worth of bytes.
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    #expect(png.count > 10_000, "\(name): \(png.count) bytes")
    try FileManager.default.createDirectory(at: Self.pictures, withIntermediateDirectories: true)
    try png.write(to: Self.pictures.appendingPathComponent("devtools-\(name).png"))
  }

  @Test func aPersonSeesTheTreeActsTravelsBackAndSeesASwap() async throws {
    let fixture = try await DevToolsServerTests.Fixture()
    defer {
      Task { await fixture.devtools.stop() }
      if !Self.writesDocs { try? FileManager.default.removeItem(at: Self.pictures) }
    }
    try fixture.app.send("counter", "increment")
    _ = await fixture.app.settle()
    let browser = try await Chromium.open(fixture.url)

    // The tree, with the counter's feature and plugin; the state, selected.
    #expect(
      try await browser.waitFor("document.querySelector('#status').textContent === 'connected'"))
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#tree .node')].some(n => "
          + "n.innerText.includes('dev.patchbay.counter') && n.innerText.includes('libCounter'))"))
    #expect(
      try await browser.waitFor("document.querySelector('#stateView').innerText.includes('count')"))
    try self.save(try await browser.screenshot(), "state")

    // The Act panel: setStep(by: 7) from its form, then increment.
    try await browser.click("[data-tab=act]")
    #expect(try await browser.waitFor("document.querySelectorAll('form.send').length > 3"))
    _ = try await browser.evaluate(
      """
      (() => {
        const form = [...document.querySelectorAll('form.send')]
          .find(f => f.querySelector('button').textContent === 'setStep');
        form.querySelector('input[name=by]').value = '7';
        form.querySelector('button').click();
      })()
      """)
    #expect(
      try await browser.waitFor(
        "document.querySelector('#sendResult').innerText.includes('sent setStep(by: 7)')"))
    _ = try await browser.evaluate(
      "[...document.querySelectorAll('form.send')].find(f => "
        + "f.querySelector('button').textContent === 'increment').querySelector('button').click()")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#sendResult').innerText.includes('sent increment')"))
    _ = await fixture.app.settle()
    let sent = try fixture.app.state("counter").json()
    #expect(sent.contains(#""count":8"#), "\(sent)")
    // The page applied the changes it was sent: the state it shows is the app's.
    try await browser.click("[data-tab=state]")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stateView').innerText.includes('count: 8') && "
          + "document.querySelector('#stateView').innerText.includes('step: 7')"))
    #expect(
      try await browser.waitFor("document.querySelectorAll('#stateView .changed').length > 0"))
    try await browser.click("[data-tab=actions]")
    #expect(try await browser.waitFor("document.querySelectorAll('#log tr.entry').length === 3"))
    try self.save(try await browser.screenshot(), "actions")

    // Back in time: after step 1 the count was 1 and the step 1.
    _ = try await browser.evaluate(
      """
      (() => { const s = document.querySelector('#scrub'); s.value = '1';
        s.dispatchEvent(new Event('input')); })()
      """)
    try await browser.click("[data-tab=state]")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stepLabel').textContent === '1 / 3' && "
          + "document.querySelector('#stateView').innerText.includes('count: 1') && "
          + "document.querySelector('#stateView').innerText.includes('step: 1')"))
    try self.save(try await browser.screenshot(), "time-travel")
    try await browser.click("#live")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stateView').innerText.includes('count: 8')"))

    // A swap, from the Act panel: it shows in the plugins' history, and the state is kept.
    let alternative = try BuiltPlugins.path("CounterAlt")
    try await browser.click("[data-tab=act]")
    _ = try await browser.evaluate(
      """
      (() => { document.querySelector('#swapPlugin').value = '\(alternative)';
        document.querySelector('#swapButton').click(); })()
      """)
    let swapped = try await browser.waitFor(
      "document.querySelector('#swapResult').innerText === 'swapped'")
    let said = try await browser.evaluate("document.querySelector('#swapResult').innerText")
    #expect(swapped, "the Act panel says: \(said ?? "nothing")")
    // The panel is drawn again when the swap's own event comes, which may be after the answer:
    // what it said is kept.
    _ = try await browser.evaluate("document.querySelector('#swapResult').dataset.drawn = 'before'")
    try await browser.click("#tree .node[data-path=counter]")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#swapResult') && "
          + "document.querySelector('#swapResult').dataset.drawn !== 'before'"))
    let panel = try await browser.evaluate(
      "[document.querySelector('#sendResult').innerText, "
        + "document.querySelector('#swapResult').innerText].join(' · ')")
    #expect(panel as? String == "sent increment · swapped")
    try await browser.click("[data-tab=plugins]")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#plugins').innerText.includes('libCounterAlt') && "
          + "document.querySelector('#plugins').innerText.includes('swap')"))
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#tree .node')].some(n => n.innerText.includes('libCounterAlt'))"
      ))
    try self.save(try await browser.screenshot(), "plugins")
    await browser.close()
    let kept = try fixture.app.state("counter").json()
    // CounterAlt keeps the count as `value`, and the step as `stride`: migrated, not lost.
    #expect(kept.contains(#""value":8,"stride":7"#), "\(kept)")
  }

  @Test func theMetersMoveWhileTheTrioPlaysAndMIDIShowsIn() async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let config = try AppConfig(
      contentsOf: root.appendingPathComponent("host-config/trio.toml").path)
    let loader = config.loader(firstSearchPaths: [BuiltPlugins.directory])
    let registry = try config.loadPlugins(with: loader)
    let app = try AppRuntime(config: config, registry: registry, loader: loader)
    let feed = DevToolsFeed()
    feed.attach(to: app)
    let devtools = DevTools(app: app, feed: feed, session: .live(config: config.file)) {
      () throws(AppError) in
      try AppRuntime(config: config, registry: registry, loader: loader, replaying: true)
    }
    let url = try await devtools.start()
    // MIDI through a FIFO the test writes when the page looks, so nothing depends on how
    // soon the page is up: the notes it plays are held until the test lets them go.
    let fifo = FileManager.default.temporaryDirectory
      .appendingPathComponent("devtools-\(UUID().uuidString).fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // Opening a FIFO waits for the other end: the writer opens it on a thread of its own.
    let writer = Task.detached { FileHandle(forWritingAtPath: fifo) }
    var settings = SoundSettings()
    settings.device = "null"
    settings.midi = .file(fifo)
    let live = try LiveSession(app: app, settings: settings)
    await devtools.attach(live)
    live.start()
    defer {
      live.stop()
      Task { await devtools.stop() }
    }
    let keyboard = try #require(await writer.value)
    defer { try? keyboard.close() }
    let browser = try await Chromium.open(url)
    #expect(try await browser.waitFor("document.querySelectorAll('#tree .node').length === 3"))
    try await browser.click("[data-tab=sound]")
    #expect(try await browser.waitFor("sound.last !== null"))
    keyboard.write(Data([0x90, 60, 100, 0x90, 64, 100, 0x91, 36, 100]))  // held: C, E, and a low C
    // The mix and the synth's own meter both show sound; the scope and spectrum are drawn;
    // the song's notes arrive in the MIDI monitor.
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#mixMeters .meter')].some(m => Number(m.dataset.peak) > 0)")
    )
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#processorMeters .meter')].some(m => "
          + "m.dataset.key.includes('synth') && Number(m.dataset.peak) > 0)"))
    #expect(
      try await browser.waitFor("document.querySelector('#midiLog').innerText.includes('note-on')"))
    let heard = try await browser.waitFor("sound.last && sound.last.spectrum.some(v => v > -90)")
    let last = try await browser.evaluate("JSON.stringify(sound.last).slice(0, 1500)")
    #expect(heard, "\(last ?? "")")
    try self.save(try await browser.screenshot(), "sound")
    keyboard.write(Data([0x80, 60, 0, 0x80, 64, 0, 0x81, 36, 0]))
    await browser.close()
  }
}
