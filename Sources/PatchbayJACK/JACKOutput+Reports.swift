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
  }
}
