import Foundation
import PatchbayAudioGraph
import PatchbayHost
import PatchbayPlot
import Synchronization

/// The Sound view's feed: 15 times a second, while a page listens, what played since the last
/// time — the mix's peak and RMS per channel, the clip count, each processor's peak, a scope
/// and a spectrum of the mix — as one message to every page (not kept in the timeline). It
/// reads the graph's ``SoundTap`` on a thread of its own; the audio thread never waits for it,
/// and copies nothing while no page listens.
///
/// ```swift
/// let watch = SoundWatch(graph: live.graph, app: app, feed: feed)
/// watch.start()     // {"kind":"sound","peak":[0.42,0.40],"clipped":0,"processors":[…],…}
/// ```
final class SoundWatch: Sendable {
  let graph: ProcessorGraph
  let app: AppRuntime
  let feed: DevToolsFeed
  private let running = Atomic<Bool>(false)
  static let interval: UInt32 = 66_000  // µs

  init(graph: ProcessorGraph, app: AppRuntime, feed: DevToolsFeed) {
    self.graph = graph
    self.app = app
    self.feed = feed
  }

  func start() {
    guard !self.running.exchange(true, ordering: .relaxed) else { return }
    let thread = Thread { [self] in self.run() }
    thread.name = "patchbay-devtools-sound"
    thread.start()
  }

  func stop() {
    self.running.store(false, ordering: .relaxed)
    self.graph.tap.isOn = false
  }

  private func run() {
    var frames = [Float](repeating: 0, count: 65_536)
    var recent = [Float](repeating: 0, count: 2048)
    let spectrum = Spectrum(size: 2048, sampleRate: self.graph.format.sampleRate)
    while self.running.load(ordering: .relaxed) {
      usleep(Self.interval)
      let listening = self.feed.pageCount > 0
      self.graph.tap.isOn = listening
      guard listening else { continue }
      let count = self.graph.tap.read(into: &frames)
      var peak: (Float, Float) = (0, 0)
      var squares: (Double, Double) = (0, 0)
      var mono: [Float] = []
      mono.reserveCapacity(count / 2)
      for frame in 0..<count / 2 {
        let (left, right) = (frames[frame * 2], frames[frame * 2 + 1])
        peak = (max(peak.0, abs(left)), max(peak.1, abs(right)))
        squares.0 += Double(left * left)
        squares.1 += Double(right * right)
        mono.append((left + right) / 2)
      }
      recent = Array((recent + mono).suffix(2048))
      let frameCount = Double(max(count / 2, 1))
      let processors = self.app.perform { self.graph.processorPeaks() }
      let scope = stride(from: 1024, to: 2048, by: 4).map { Self.rounded(recent[$0]) }
      let message = JSONText.object([
        ("kind", #""sound""#), ("t", String(self.feed.milliseconds)),
        ("peak", JSONText.array([Self.rounded(peak.0), Self.rounded(peak.1)])),
        (
          "rms",
          JSONText.array([
            Self.rounded(Float((squares.0 / frameCount).squareRoot())),
            Self.rounded(Float((squares.1 / frameCount).squareRoot())),
          ])
        ),
        ("clipped", String(self.graph.clippedSamples)),
        ("dropped", String(self.graph.tap.dropped)),
        (
          "processors",
          JSONText.array(
            processors.map {
              JSONText.object([("path", JSONText.string($0.path)), ("peak", Self.rounded($0.peak))])
            })
        ),
        ("scope", JSONText.array(scope)),
        ("spectrum", JSONText.array(spectrum.levels(of: recent).map { String(Int($0)) })),
      ])
      self.feed.broadcast(message)
    }
  }

  static func rounded(_ value: Float) -> String {
    String(format: "%.4f", value.isFinite ? value : 0)
  }
}
