import Foundation
import Testing

/// The practice studio on a real terminal (tmux): every screen reached by keys, the beat
/// moving, a chord played on the computer keyboard and graded, and the terminal restored.
@Suite(.enabled(if: Tmux.available, "tmux is not installed: apt-get install -y tmux"))
struct StudioTerminalTests {
  @Test func everyScreenByKeysTheBeatMovesAChordIsGradedAndQuitRestores() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try await Tmux.start(
      "XDG_STATE_HOME=\(folder.path) \(CLI.directory)/patchbay run "
        + "\(CheckTests.root)/host-config/studio.toml --audio null --plugin-path \(CLI.directory)"
        + "; echo EXITED $?; stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon'; sleep 30")
    defer { tmux.kill() }
    #expect(await tmux.waitFor("Patchbay Studio — 120 BPM ■"))
    #expect(await tmux.waitFor("keys: 1 Practice  2 Trainer  3 Monitor  space toggle"))

    // Space starts the Metronome from any screen; its beat moves (○ ● ○ ○ then another).
    await tmux.keys(" ")
    #expect(await tmux.waitFor("Metronome — 120 BPM, 4/4, playing"))
    let first = await tmux.waitForLine { $0.contains("●") && !$0.contains("▸") }
    #expect(first != nil)
    #expect(await tmux.waitForLine { $0.contains("●") && $0 != first && !$0.contains("▸") } != nil)
    #expect(await tmux.waitFor("L ▕"))  // the level meter, from the audio thread's output

    // Practice: the chords on, the fretboard, the pinned beat above it.
    await tmux.keys("1")
    #expect(await tmux.waitFor("Patchbay Studio — studio › practice"))
    await tmux.keys("p")
    #expect(await tmux.waitFor("Practice — C major, 120 BPM, chords playing"))
    #expect(await tmux.waitFor(" e "))
    #expect(await tmux.waitFor("Metronome — 120 BPM, 4/4, playing"))

    // The Chord Trainer, played from the computer keyboard: a d g is C major.
    await tmux.keys("b", "2")
    #expect(await tmux.waitFor("Play: C major, any inversion"))
    await tmux.keys("a", "d", "g")
    #expect(await tmux.waitFor("✓ C major"))
    #expect(await tmux.waitFor("score 1"))

    // The MIDI Monitor, and the help overlay.
    await tmux.keys("b", "3")
    #expect(await tmux.waitFor("MIDI Monitor — 0 heard"))
    await tmux.keys("?")
    #expect(await tmux.waitFor("Keys on every screen"))
    await tmux.keys("x")
    #expect(await tmux.waitFor("(play something)"))

    // Resized, it redraws to the new width.
    await tmux.resize(columns: 70)
    #expect(await tmux.waitFor("\n" + String(repeating: "─", count: 70) + "\n"))

    await tmux.keys("q")
    #expect(await tmux.waitFor("EXITED 0"))
    #expect(await tmux.waitFor("\nicanon"))  // cooked mode again
  }
}
