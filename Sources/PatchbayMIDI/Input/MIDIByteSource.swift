import CALSA
import CPatchbayALSAErrors
import Foundation
import PatchbayRealtime

/// Where a MIDI input reads bytes from: a file, FIFO or standard input, or an ALSA rawmidi
/// port. `read` blocks until bytes come; 0 means the stream ended.
public protocol MIDIByteSource: AnyObject, Sendable {
  /// For people: `file tune.mid.raw`, `ALSA rawmidi hw:1,0,0`.
  var name: String { get }
  /// Whether bytes arrive as they are played (a port, a FIFO, stdin), so their reader needs
  /// realtime priority; a regular file is read as fast as it goes.
  var isLive: Bool { get }
  /// Reads up to `buffer.count` bytes. [MIDI reader thread] Returns the count, 0 at the end,
  /// or a negative errno.
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
  func close()
}

/// A raw byte stream: a regular file, a FIFO, or standard input.
///
/// ```swift
/// let fifo = try FileByteSource(path: "/tmp/midi.fifo")   // mkfifo /tmp/midi.fifo
/// ```
public final class FileByteSource: MIDIByteSource, @unchecked Sendable {
  public let name: String
  public let isLive: Bool
  private let fd: Int32
  private let owned: Bool

  /// Opens `path` for reading (a FIFO blocks here until a writer opens it).
  public init(path: String) throws(MIDIError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw MIDIError("\(path): cannot open for reading: \(String(cString: strerror(errno))).")
    }
    self.fd = fd
    self.owned = true
    var info = stat()
    fstat(fd, &info)
    self.isLive = (info.st_mode & S_IFMT) != S_IFREG
    self.name = (info.st_mode & S_IFMT) == S_IFIFO ? "FIFO \(path)" : "file \(path)"
  }

  /// Standard input.
  public init(standardInput: Void = ()) {
    self.fd = STDIN_FILENO
    self.owned = false
    self.name = "standard input"
    var info = stat()
    fstat(STDIN_FILENO, &info)
    self.isLive = (info.st_mode & S_IFMT) != S_IFREG
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = Foundation.read(self.fd, buffer.baseAddress, buffer.count)
      if count < 0 && errno == EINTR { continue }
      return count < 0 ? -Int(errno) : count
    }
  }

  public func close() {
    if self.owned { Foundation.close(self.fd) }
  }
}

/// An ALSA rawmidi input port (`hw:1,0,0`): a MIDI interface's bytes, as they arrive.
public final class RawMIDISource: MIDIByteSource, @unchecked Sendable {
  public let name: String
  public let isLive = true
  private let handle: OpaquePointer

  /// Opens the rawmidi port `device` for input.
  public init(device: String) throws(MIDIError) {
    patchbay_alsa_errors_capture()  // ALSA reports through Patchbay's errors, not stderr
    var input: OpaquePointer?
    let status = snd_rawmidi_open(&input, nil, device, 0)
    guard status >= 0, let input else {
      throw MIDIError(
        "ALSA rawmidi '\(device)': \(String(cString: snd_strerror(status))). List ports with `patchbay midi sources`"
          + (FileManager.default.fileExists(atPath: "/dev/snd")
            ? "." : "; this machine has no /dev/snd (no sound hardware)."))
    }
    self.handle = input
    self.name = "ALSA rawmidi \(device)"
  }

  public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    snd_rawmidi_read(self.handle, buffer.baseAddress, buffer.count)
  }

  public func close() {
    snd_rawmidi_close(self.handle)
  }

  /// The rawmidi input ports of every card, as `hw:CARD,DEVICE,SUB — name` lines.
  public static func ports() -> [String] {
    var lines: [String] = []
    var card: Int32 = -1
    while snd_card_next(&card) == 0 && card >= 0 {
      var control: OpaquePointer?
      guard snd_ctl_open(&control, "hw:\(card)", 0) >= 0, let control else { continue }
      defer { snd_ctl_close(control) }
      var device: Int32 = -1
      while snd_ctl_rawmidi_next_device(control, &device) == 0 && device >= 0 {
        var info: OpaquePointer?
        snd_rawmidi_info_malloc(&info)
        defer { snd_rawmidi_info_free(info) }
        snd_rawmidi_info_set_device(info, UInt32(device))
        snd_rawmidi_info_set_stream(info, SND_RAWMIDI_STREAM_INPUT)
        guard snd_ctl_rawmidi_info(control, info) >= 0 else { continue }
        let count = snd_rawmidi_info_get_subdevices_count(info)
        for sub in 0..<count {
          lines.append(
            "hw:\(card),\(device),\(sub) — \(String(cString: snd_rawmidi_info_get_name(info)))")
        }
      }
    }
    return lines
  }
}

/// Why a MIDI source could not start, or a file could not be read: one line, with the fix.
public struct MIDIError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
