import Patchbay
import Testing

private struct Row: Equatable, Identifiable {
  let id: Int
}

@CasePathable
private enum RowAction: Equatable {
  case checkBoxToggled
  case rename(String)
}

@CasePathable
private enum Action {
  case decrementButtonTapped
  case setCount(Int)
  case search(String)
  case results([String])
  case selection(Int?)
  case rows(IdentifiedAction<Int, RowAction>)
  case child(RowAction)
  case path(StackAction<Int, RowAction>)
  case response(Result<String, any Error>)
}

@Suite struct CaseKeyPathDescriptionTests {
  @Test func namesEachCaseAsWritten() {
    #expect(describeCaseKeyPath(\Action.Cases.decrementButtonTapped) == #"\.decrementButtonTapped"#)
    #expect(describeCaseKeyPath(\Action.Cases.setCount) == #"\.setCount"#)
    #expect(describeCaseKeyPath(\Action.Cases.search) == #"\.search"#)
    #expect(describeCaseKeyPath(\Action.Cases.results) == #"\.results"#)
    #expect(describeCaseKeyPath(\Action.Cases.selection) == #"\.selection"#)
  }

  @Test func followsNestedCasesAndIdentifiedElements() {
    #expect(describeCaseKeyPath(\Action.Cases.child.checkBoxToggled) == #"\.child.checkBoxToggled"#)
    #expect(describeCaseKeyPath(\Action.Cases.child.rename) == #"\.child.rename"#)
    #expect(
      describeCaseKeyPath(\Action.Cases.rows[id: 3].checkBoxToggled)
        == #"\.rows[id: 3].checkBoxToggled"#
    )
    #expect(describeCaseKeyPath(\Action.Cases.path[id: 0].rename) == #"\.path[id: 0].rename"#)
  }

  @Test func namesTheTypesWhenNoSampleValueCanBeMade() {
    #expect(
      describeCaseKeyPath(\Action.Cases.response)
        == "a 'Result<String, Error>' case of 'Action'"
    )
  }
}
