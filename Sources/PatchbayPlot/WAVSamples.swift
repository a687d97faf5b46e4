import Foundation

/// The samples of a 16-bit PCM WAV file (what `patchbay render` writes), as interleaved floats
/// from -1 to 1.
///
/// ```swift
/// let wav = try WAVSamples(contentsOf: "demo.wav")
/// wav.sampleRate   // 48000
/// wav.channels     // 2
/// wav.frames       // 480000
/// ```
public struct WAVSamples: Sendable {
  public let sampleRate: Int
  public let channels: Int
  /// Interleaved: frame 0's channels, then frame 1's, ….
  public let samples: [Float]
  public var frames: Int { self.samples.count / max(self.channels, 1) }

  public init(sampleRate: Int, channels: Int, samples: [Float]) {
    (self.sampleRate, self.channels, self.samples) = (sampleRate, channels, samples)
  }

  /// Reads `path`: a RIFF WAVE file with a `fmt ` chunk of 16-bit PCM and a `data` chunk.
  public init(contentsOf path: String) throws(PlotError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw PlotError("\(path): cannot read the WAV file. Check the path, or render again.")
    }
    let bytes = [UInt8](data)
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func long(_ at: Int) -> Int { word(at) | word(at + 2) << 16 }
    func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
    guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
      throw PlotError("\(path): not a WAV file (no RIFF/WAVE header at byte 0). Render again.")
    }
    var format: (channels: Int, rate: Int, bits: Int)?
    var offset = 12
    while offset + 8 <= bytes.count {
      let (name, size) = (tag(offset), long(offset + 4))
      let body = offset + 8
      guard body + size <= bytes.count || name == "data" else {
        throw PlotError(
          "\(path): the \(name) chunk at byte \(offset) runs past the file's end. Render again.")
      }
      if name == "fmt ", size >= 16 {
        guard word(body) == 1 else {
          throw PlotError(
            "\(path): format \(word(body)) at byte \(body); only PCM (1) is read. Render again.")
        }
        format = (word(body + 2), long(body + 4), word(body + 14))
      } else if name == "data" {
        guard let format, format.bits == 16, format.channels > 0 else {
          throw PlotError(
            "\(path): no 16-bit PCM format before the data at byte \(offset); render again.")
        }
        let end = min(bytes.count, body + size) & ~1
        self.init(
          sampleRate: format.rate, channels: format.channels,
          samples: stride(from: body, to: end, by: 2).map {
            Float(Int16(bitPattern: UInt16(word($0)))) / 32_767
          })
        return
      }
      offset = body + size + (size & 1)
    }
    throw PlotError("\(path): no data chunk; the file is cut short. Render again.")
  }
}
