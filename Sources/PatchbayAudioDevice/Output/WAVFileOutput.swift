import Foundation

/// A 16-bit PCM WAV file written directly, for offline renders: the same samples give the
/// same bytes, every run (docs/ARCHITECTURE.md, "Audio and MIDI").
///
/// ```swift
/// let wav = try WAVFileOutput(path: "out.wav", format: AudioFormat(sampleRate: 48_000))
/// wav.write(period)   // one period of interleaved floats, -1…1 (clipped beyond)
/// wav.close()         // writes the header's sizes
/// ```
public final class WAVFileOutput: AudioOutput, @unchecked Sendable {
  public let format: AudioFormat
  public let name: String
  public var pacesItself: Bool { false }
  private let file: UnsafeMutablePointer<FILE>
  private let buffer: UnsafeMutablePointer<Int16>
  private var dataBytes = 0
  private var closed = false

  public init(path: String, format: AudioFormat) throws(AudioError) {
    guard let file = fopen(path, "wb") else {
      throw AudioError(
        "\(path): cannot create the WAV file (\(String(cString: strerror(errno)))). Check the "
          + "folder exists and is writable.")
    }
    self.file = file
    self.format = format
    self.name = "WAV file \(path)"
    self.buffer = .allocate(capacity: format.periodSamples)
    self.writeHeader()
  }

  deinit {
    self.close()
    self.buffer.deallocate()
  }

  /// Frames written so far.
  public var framesWritten: Int { self.dataBytes / 2 / self.format.channels }

  public func write(_ samples: UnsafePointer<Float>) -> AudioWriteResult {
    let count = self.format.periodSamples
    for index in 0..<count {
      let sample = samples[index]
      let clipped = sample.isNaN ? 0 : min(max(sample, -1), 1)  // never a trapping conversion
      self.buffer[index] = Int16((clipped * 32_767).rounded())
    }
    guard fwrite(self.buffer, 2, count, self.file) == count else { return .failed(errno) }
    self.dataBytes += 2 * count
    return .written
  }

  public func close() {
    guard !self.closed else { return }
    self.closed = true
    fseek(self.file, 0, SEEK_SET)
    self.writeHeader()
    fclose(self.file)
  }

  private func writeHeader() {
    let channels = self.format.channels
    let rate = self.format.sampleRate
    var header: [UInt8] = []
    func text(_ string: String) { header += Array(string.utf8) }
    func u32(_ value: Int) { header += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
    func u16(_ value: Int) { header += withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
    text("RIFF")
    u32(36 + self.dataBytes)
    text("WAVEfmt ")
    u32(16)
    u16(1)  // PCM
    u16(channels)
    u32(rate)
    u32(rate * channels * 2)
    u16(channels * 2)
    u16(16)
    text("data")
    u32(self.dataBytes)
    _ = header.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, self.file) }
  }
}
