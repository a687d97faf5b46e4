import Patchbay
import PatchbayTesting
import Testing

/// The "mini-TCA" checkout flow, as executable documentation: appear, submit a payment, and
/// see it succeed or fail.
struct Checkout: Reducer {
  struct State: Equatable {
    enum Step: Equatable { case cart, payment, completed }
    var step = Step.cart
    var total = 0
    var isLoading = false
    var errorMessage: String?
  }

  @CasePathable
  enum Action: Equatable {
    case onAppear
    case submitTapped
    case paymentSucceeded
    case paymentFailed(String)
  }

  @Dependency(PaymentClient.self) var payments

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      state.step = .payment
      return .none
    case .submitTapped:
      guard !state.isLoading else { return .none }
      state.isLoading = true
      state.errorMessage = nil
      return .run { [payments, total = state.total] send in
        try await payments.charge(total)
        await send(.paymentSucceeded)
      } catch: { error, send in
        await send(.paymentFailed("\(error)"))
      }
    case .paymentSucceeded:
      state.isLoading = false
      state.step = .completed
      return .none
    case .paymentFailed(let message):
      state.isLoading = false
      state.errorMessage = message
      return .none
    }
  }
}

struct PaymentClient: Sendable {
  var charge: @Sendable (_ amount: Int) async throws -> Void
}

extension PaymentClient: TestDependencyKey {
  static let testValue = PaymentClient(charge: unimplemented("PaymentClient.charge"))
}

struct Declined: Error, CustomStringConvertible {
  var description: String { "Card declined" }
}

@Suite struct CheckoutFlowTests {
  @Test func successfulPayment() async {
    let store = TestStore(initialState: Checkout.State(total: 42)) {
      Checkout()
    } withDependencies: {
      $0[PaymentClient.self].charge = { amount in #expect(amount == 42) }
    }
    await store.send(.onAppear) { $0.step = .payment }
    await store.send(.submitTapped) { $0.isLoading = true }
    await store.receive(.paymentSucceeded) {
      $0.isLoading = false
      $0.step = .completed
    }
  }

  @Test func failedPaymentThenRetryClearsTheError() async {
    let attempts = LockIsolated(0)
    let store = TestStore(initialState: Checkout.State(total: 5)) {
      Checkout()
    } withDependencies: {
      $0[PaymentClient.self].charge = { _ in
        attempts.withValue { $0 += 1 }
        if attempts.value == 1 { throw Declined() }
      }
    }
    await store.send(.onAppear) { $0.step = .payment }
    await store.send(.submitTapped) { $0.isLoading = true }
    await store.receive(.paymentFailed("Card declined")) {
      $0.isLoading = false
      $0.errorMessage = "Card declined"
    }
    await store.send(.submitTapped) {
      $0.isLoading = true
      $0.errorMessage = nil
    }
    await store.receive(.paymentSucceeded) {
      $0.isLoading = false
      $0.step = .completed
    }
    #expect(attempts.value == 2)
  }
}
