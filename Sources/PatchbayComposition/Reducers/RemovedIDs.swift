import Foundation
import OrderedCollections

extension OrderedSet {
  /// The ids of `self` — a collection's ids before a reduce — that `after` no longer holds, in
  /// order: the children whose effects a `forEach` or a stack cancels.
  ///
  /// ```swift
  /// let before: OrderedSet = [1, 2, 3, 4]
  /// before.removed(in: [1, 2, 4, 5])   // [3]
  /// ```
  ///
  /// It looks up only the ids between the two sets' common start and common end, and sets that
  /// share their storage (the reduce did not touch the collection) cost one comparison. So a
  /// list of 100,000 rows that lost or gained one pays two walks of equal ids, not 100,000
  /// lookups in a hash table (issue 44's growth curves: a row removed in process cost 6× the
  /// identified array's own `remove(id:)`). Ids of plain bits (`Int`, `UUID`) are walked with
  /// `memcmp`: here the ids' type is generic, and a generic `==` an id costs more than the
  /// array's own removal.
  package func removed(in after: OrderedSet<Element>) -> [Element] {
    let (before, later) = (self.elements, after.elements)
    if before == later { return [] }
    let (start, end) = Self.changedStretch(before, later)
    return before[start..<end].filter { !after.contains($0) }
  }

  /// Where `before` and `after` differ: from their first unequal id to just past the last
  /// unequal id of `before`, counting equal ids from both ends.
  private static func changedStretch(_ before: [Element], _ after: [Element]) -> (Int, Int) {
    let shorter = Swift.min(before.count, after.count)
    if _isPOD(Element.self) {
      return before.withUnsafeBytes { b in
        after.withUnsafeBytes { a in
          let stride = MemoryLayout<Element>.stride
          let start = SameBits.prefix(b, a, count: shorter, stride: stride)
          let end = SameBits.suffix(b, a, count: shorter - start, stride: stride)
          return (start, before.count - end)
        }
      }
    }
    var start = 0
    while start < shorter, before[start] == after[start] { start += 1 }
    var (end, afterEnd) = (before.count, after.count)
    while end > start, afterEnd > start, before[end - 1] == after[afterEnd - 1] {
      end -= 1
      afterEnd -= 1
    }
    return (start, end)
  }
}

/// Counts elements of plain bits that two buffers share at their start or end. The same bits
/// are the same id; different bits are treated as different (an id whose `==` says otherwise,
/// like -0.0, is only looked up more).
private enum SameBits {
  /// Elements compared in one `memcmp` before narrowing down to one.
  static let block = 256

  /// How many of the first `count` elements are bit for bit the same in `a` and `b`.
  static func prefix(
    _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int, stride: Int
  ) -> Int {
    guard count > 0, let a = a.baseAddress, let b = b.baseAddress else { return 0 }
    var done = 0
    while done + Self.block <= count,
      memcmp(a + done * stride, b + done * stride, Self.block * stride) == 0
    {
      done += Self.block
    }
    while done < count,
      memcmp(a + done * stride, b + done * stride, stride) == 0
    {
      done += 1
    }
    return done
  }

  /// How many of the last elements of `a` and `b` (at most `count`) are bit for bit the same.
  static func suffix(
    _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, count: Int, stride: Int
  ) -> Int {
    guard count > 0, let aEnd = a.baseAddress.map({ $0 + a.count }),
      let bEnd = b.baseAddress.map({ $0 + b.count })
    else { return 0 }
    var done = 0
    while done + Self.block <= count,
      memcmp(
        aEnd - (done + Self.block) * stride, bEnd - (done + Self.block) * stride,
        Self.block * stride) == 0
    {
      done += Self.block
    }
    while done < count,
      memcmp(aEnd - (done + 1) * stride, bEnd - (done + 1) * stride, stride) == 0
    {
      done += 1
    }
    return done
  }
}
