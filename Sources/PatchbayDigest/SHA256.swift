import Foundation

/// SHA-256 (FIPS 180-4), for pinning plugin files: `patchbay inspect` prints a file's hash, and
/// `[sha256]` in host-config refuses a file whose bytes differ.
///
/// ```swift
/// SHA256.hex(of: Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// try SHA256.hex(ofFile: ".build/debug/libEcho.so")
/// ```
///
/// Written here because Foundation on Linux has no hash functions, and a plugin host should not
/// need OpenSSL for one.
package struct SHA256 {
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19,
  ]
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  package init() {}

  /// Adds `bytes` to what is hashed.
  package mutating func update(_ bytes: some Collection<UInt8>) {
    self.length += UInt64(bytes.count)
    self.pending.append(contentsOf: bytes)
    let whole = self.pending.count / 64 * 64
    guard whole > 0 else { return }
    self.pending.withUnsafeBufferPointer { buffer in
      for start in stride(from: 0, to: whole, by: 64) {
        Self.compress(&self.state, UnsafeBufferPointer(rebasing: buffer[start..<start + 64]))
      }
    }
    self.pending.removeFirst(whole)
  }

  /// The digest, as 64 lowercase hex digits.
  package mutating func finish() -> String {
    let bits = self.length &* 8
    var tail: [UInt8] = [0x80]
    tail += [UInt8](repeating: 0, count: (55 &- self.pending.count) & 63)
    tail += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
    self.update(tail)
    return self.state.map { word in
      let hex = String(word, radix: 16)
      return String(repeating: "0", count: 8 - hex.count) + hex
    }.joined()
  }

  /// The hash of `bytes`.
  package static func hex(of bytes: some Collection<UInt8>) -> String {
    var hash = SHA256()
    hash.update(bytes)
    return hash.finish()
  }

  /// The hash of the file at `path`, read in 1 MB pieces.
  package static func hex(ofFile path: String) throws -> String {
    guard let file = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? file.close() }
    var hash = SHA256()
    while let piece = try file.read(upToCount: 1 << 20), !piece.isEmpty {
      hash.update(piece)
    }
    return hash.finish()
  }

  private static func compress(_ state: inout [UInt32], _ block: UnsafeBufferPointer<UInt8>) {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      Self.compress(&state, block, schedule: w)
    }
  }

  private static func compress(
    _ state: inout [UInt32], _ block: UnsafeBufferPointer<UInt8>,
    schedule w: UnsafeMutableBufferPointer<UInt32>
  ) {
    for t in 0..<16 {
      w[t] =
        UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16
        | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
    }
    for t in 16..<64 {
      let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
      let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
      w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    for t in 0..<64 {
      let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
      let choice = (e & f) ^ (~e & g)
      let temp1 = h &+ s1 &+ choice &+ Self.k[t] &+ w[t]
      let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let temp2 = s0 &+ majority
      (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }
}

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    (self >> count) | (self << (32 - count))
  }
}
