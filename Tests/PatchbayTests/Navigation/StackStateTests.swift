import Patchbay
import Testing

@Suite struct StackStateTests {
  @Test func idsAreAssignedInOrderAndNeverReused() {
    var stack = StackState<String>()
    stack.append("a")
    stack.append("b")
    stack.removeLast()
    stack.append("c")
    #expect(Array(stack.ids) == [0, 2])
    #expect(Array(stack) == ["a", "c"])
    #expect(stack.nextElementID == 3)
  }

  @Test func popFromRemovesTheScreenAndEverythingAbove() {
    var stack: StackState<String> = ["root-ish", "b", "c", "d"]
    stack.pop(from: 2)
    #expect(Array(stack) == ["root-ish", "b"])
    stack.append("e")
    stack.pop(to: 0)
    #expect(Array(stack) == ["root-ish"])
  }

  @Test func subscriptByIDReadsWritesAndRemoves() {
    var stack: StackState<Int> = [10, 20, 30]
    stack[id: 1] = 21
    #expect(stack[id: 1] == 21)
    #expect(stack[id: 7] == nil)
    stack[id: 1] = nil
    #expect(Array(stack) == [10])
  }

  @Test func equalityComparesIDsAndElements() {
    var a: StackState<Int> = [1]
    var b: StackState<Int> = [1]
    #expect(a == b)
    a.append(2)
    b.append(2)
    #expect(a == b)
    a.removeLast()
    a.append(2)  // same element, new id
    #expect(a != b)
  }
}
