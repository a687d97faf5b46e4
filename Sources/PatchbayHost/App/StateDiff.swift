import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// `- old` / `+ new` lines between two states' pretty JSON; empty when they are equal.
func stateDiff(_ before: WireValue?, _ after: WireValue) -> String {
  let old = (before?.json(pretty: true) ?? "").split(separator: "\n").map(String.init)
  let new = after.json(pretty: true).split(separator: "\n").map(String.init)
  var removed: [(Int, String)] = []
  var inserted: [(Int, String)] = []
  for change in new.difference(from: old) {
    switch change {
    case .remove(let offset, let line, _): removed.append((offset, line))
    case .insert(let offset, let line, _): inserted.append((offset, line))
    }
  }
  let trim = { (line: String) in line.trimmingCharacters(in: .whitespaces) }
  return
    (removed.sorted { $0.0 < $1.0 }.map { "- " + trim($0.1) }
    + inserted.sorted { $0.0 < $1.0 }.map { "+ " + trim($0.1) }).joined(separator: "\n")
}
