import FlyingFox
import Foundation

/// A page's WebSocket: the feed's entries go out as text frames, one JSON object each. The
/// page sends nothing but pings and small text frames (which are ignored); anything else
/// closes this connection with the code RFC 6455 gives for it, and only this connection: a
/// frame with a reserved bit or an unknown opcode (1002), text that is not UTF-8 (1007), a frame over
/// ``largestFrame`` bytes (1009).
///
/// ```swift
/// WebSocketHTTPHandler(handler: DevToolsSocket(feed: feed))   // GET /api/socket
/// ```
struct DevToolsSocket: WSHandler {
  let feed: DevToolsFeed
  static let largestFrame = 4_096

  func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws
    -> AsyncStream<WSFrame>
  {
    let (frames, out) = AsyncStream.makeStream(of: WSFrame.self)
    let entries = self.feed.subscribe()
    let sender = Task {
      for await entry in entries {
        out.yield(WSFrame(fin: true, opcode: .text, mask: nil, payload: Data(entry.utf8)))
      }
    }
    let receiver = Task {
      do {
        for try await frame in client {
          if let code = Self.refusal(of: frame) {
            out.yield(.close(code: code))
            break
          }
          if frame.opcode == .ping {
            out.yield(WSFrame(fin: true, opcode: .pong, mask: nil, payload: frame.payload))
          } else if frame.opcode == .close {
            out.yield(.close(code: .normalClosure))
            break
          }
        }
      } catch {}
      out.finish()
    }
    out.onTermination = { _ in
      sender.cancel()
      receiver.cancel()
    }
    return frames
  }

  /// Why a frame from the page closes its connection, or nil when it is acceptable.
  static func refusal(of frame: WSFrame) -> WSCloseCode? {
    if frame.rsv1 || frame.rsv2 || frame.rsv3 {
      return WSCloseCode(1002, reason: "no extension was agreed, so no reserved bit may be set")
    }
    guard [.text, .binary, .continuation, .ping, .pong, .close].contains(frame.opcode) else {
      return WSCloseCode(1002, reason: "unknown opcode \(frame.opcode.rawValue)")
    }
    if frame.payload.count > Self.largestFrame {
      return WSCloseCode(1009, reason: "frames from a page are at most \(Self.largestFrame) bytes")
    }
    if frame.opcode == .text, String(validating: frame.payload, as: UTF8.self) == nil {
      return WSCloseCode(1007, reason: "text that is not UTF-8")
    }
    return nil
  }
}
