import PatchbayABI
import PatchbayAppQueue
import PatchbayHost
import PatchbayLoader
import Testing

/// What "patchbay.shared/1" refuses, each with one line, and the Drums' bad actions.
@Suite struct SharedBadInputTests {
  @Test func badNamesAndActionsAreRefusedWithALine() {
    let context = HostContext(executor: AppExecutor(name: "shared-bad-input"))
    let (name, action, fine) = context.executor.sync {
      let name = context.share(.publish(name: "no spaces!", value: [UInt8(ascii: "n")]))
      let nameWhy = context.takeErrors()
      let action = context.share(.subscribe(name: "transport", action: "9lives"))
      let actionWhy = context.takeErrors()
      let fine = context.share(.subscribe(name: "transport", action: "transport"))
      return ((name, nameWhy), (action, actionWhy), fine)
    }
    #expect(name.0 == PB_ERR_INVALID)
    #expect(
      name.1
        == "patchbay.shared/1: 'no spaces!' is not a shared name: use 1 to 64 letters, digits, "
        + "'.', '-', '_'")
    #expect(action.0 == PB_ERR_INVALID)
    #expect(
      action.1 == "patchbay.shared/1: '9lives' is not an action name: use [A-Za-z_][A-Za-z0-9_]*")
    #expect(fine == PB_OK)
    // Only the good request is kept for the app.
    #expect(
      context.executor.sync { context.takeShared() } == [
        .subscribe(name: "transport", action: "transport")
      ])
    // Off the app queue ([main-thread] only): refused, never kept.
    #expect(context.share(.publish(name: "late", value: [])) == PB_ERR_INVALID)
    #expect(context.executor.sync { context.takeShared() }.isEmpty)
  }

  @Test func theDrumsRefuseBadPatternsAndKeepTheirState() throws {
    let app = try makeApp("rhythm")
    let before = try app.state("metronome/drums")
    for (text, reason) in [
      (#"setPattern(voice: "cowbell", steps: "x...............")"#, "no voice 'cowbell'"),
      (#"setPattern(voice: "kick", steps: "x.x")"#, "steps 'x.x' are not 16 of 'x'"),
      (#"toggle(voice: "hat", step: 17)"#, "step 17 is not 1 to 16"),
      ("setPattern(voice: 3, steps: 4)", "cannot decode action"),
      ("shout", "unknown action 'shout'"),
    ] {
      #expect(throws: (any Error).self) { try app.send("metronome/drums", text) }
      do {
        try app.send("metronome/drums", text)
      } catch {
        #expect("\(error)".contains("dev.patchbay.drums: "), "\(error)")
        #expect("\(error)".contains(reason), "\(error)")
      }
    }
    #expect(try app.state("metronome/drums") == before)
  }
}
