import Foundation
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
    _ = try await browser.evaluate("document.querySelector('[data-tab=act]').click()")
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
    _ = try await browser.evaluate("document.querySelector('[data-tab=state]').click()")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stateView').innerText.includes('count: 8') && "
          + "document.querySelector('#stateView').innerText.includes('step: 7')"))
    #expect(
      try await browser.waitFor("document.querySelectorAll('#stateView .changed').length > 0"))
    _ = try await browser.evaluate("document.querySelector('[data-tab=actions]').click()")
    #expect(try await browser.waitFor("document.querySelectorAll('#log tr.entry').length === 3"))
    try self.save(try await browser.screenshot(), "actions")

    // Back in time: after step 1 the count was 1 and the step 1.
    _ = try await browser.evaluate(
      """
      (() => { const s = document.querySelector('#scrub'); s.value = '1';
        s.dispatchEvent(new Event('input')); })()
      """)
    _ = try await browser.evaluate("document.querySelector('[data-tab=state]').click()")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stepLabel').textContent === '1 / 3' && "
          + "document.querySelector('#stateView').innerText.includes('count: 1') && "
          + "document.querySelector('#stateView').innerText.includes('step: 1')"))
    try self.save(try await browser.screenshot(), "time-travel")
    _ = try await browser.evaluate("document.querySelector('#live').click()")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#stateView').innerText.includes('count: 8')"))

    // A swap, from the Act panel: it shows in the plugins' history, and the state is kept.
    let alternative = try BuiltPlugins.path("CounterAlt")
    _ = try await browser.evaluate("document.querySelector('[data-tab=act]').click()")
    _ = try await browser.evaluate(
      """
      (() => { document.querySelector('#swapPlugin').value = '\(alternative)';
        document.querySelector('#swapButton').click(); })()
      """)
    #expect(
      try await browser.waitFor("document.querySelector('#swapResult').innerText === 'swapped'"))
    _ = try await browser.evaluate("document.querySelector('[data-tab=plugins]').click()")
    #expect(
      try await browser.waitFor(
        "document.querySelector('#plugins').innerText.includes('libCounterAlt') && "
          + "document.querySelector('#plugins').innerText.includes('swap')"))
    #expect(
      try await browser.waitFor(
        "[...document.querySelectorAll('#tree .node')].some(n => n.innerText.includes('libCounterAlt'))"
      ))
    try self.save(try await browser.screenshot(), "plugins")
    let kept = try fixture.app.state("counter").json()
    // CounterAlt keeps the count as `value`, and the step as `stride`: migrated, not lost.
    #expect(kept.contains(#""value":8,"stride":7"#), "\(kept)")
  }
}
