/// What a JACK output reports: its events (xruns, a new buffer size or rate, the server gone)
/// and its counts.
extension JACKOutput {
  /// What the process callback tells the app.
  public struct Event: Sendable, BitwiseCopyable, Equatable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
      case xrun, bufferSize, sampleRate, serverLost
    }
    public var kind: Kind
    public var period: Int
    /// The new buffer size or rate; 0 for the others.
    public var value: Int
  }

  /// Counts since ``activate(rendering:inChunksOf:)``, and the server's current shape.
  public struct Statistics: Sendable, Equatable {
    public var periods: Int
    public var xruns: Int
    public var bufferFrames: Int
    public var sampleRate: Int
    public var serverLost: Bool
    /// Periods played silent because the server ran at another rate than the app was made
    /// for (PipeWire can change it while clients run; JACK2 cannot).
    public var silentForRate: Int
    /// The rate the app renders at: the server's when the client was activated.
    public var renderRate: Int
  }

  /// What the client did, for the line a run ends with: `1,875 periods of 128 frames, 0 xruns`,
  /// then what went wrong, if anything: the periods silent at another rate, the server gone.
  public var summary: String {
    let statistics = self.statistics
    var text =
      "\(statistics.periods) periods of \(statistics.bufferFrames) frames, \(statistics.xruns) xruns"
    if statistics.silentForRate > 0 {
      text +=
        "; \(statistics.silentForRate) periods silent while the server ran at "
        + "\(statistics.sampleRate) Hz, not the \(statistics.renderRate) Hz the app plays at "
        + "(start the app again to follow the server)"
    }
    guard let reason = self.serverLostReason else { return text }
    return text + "; the server went away (\(reason)) and the app went on silent"
  }
}
