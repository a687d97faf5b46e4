import Patchbay
import PatchbayTesting
import Testing

/// A login flow, as executable documentation: field validation, an async login through an
/// auth dependency, and a delayed navigation driven by a test clock.
struct Login: Reducer {
  struct State: Equatable {
    var username = ""
    var password = ""
    var isLoggingIn = false
    var error: String?
    var user: String?
    var route: Route = .form

    enum Route: Equatable { case form, home }

    var isFormValid: Bool { self.username.count >= 3 && self.password.count >= 6 }
  }

  @CasePathable
  enum Action: Equatable {
    case usernameChanged(String)
    case passwordChanged(String)
    case loginTapped
    case loginSucceeded(user: String)
    case loginFailed(String)
    case showHome
  }

  @Dependency(AuthClient.self) var auth
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .usernameChanged(let username):
      state.username = username
      return .none
    case .passwordChanged(let password):
      state.password = password
      return .none
    case .loginTapped:
      guard state.isFormValid else {
        state.error = "Username needs 3 characters and password 6."
        return .none
      }
      state.isLoggingIn = true
      state.error = nil
      return .run { [auth, username = state.username, password = state.password] send in
        let user = try await auth.login(username, password)
        await send(.loginSucceeded(user: user))
      } catch: { error, send in
        await send(.loginFailed("\(error)"))
      }
    case .loginSucceeded(let user):
      state.isLoggingIn = false
      state.user = user
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.showHome)
      }
    case .loginFailed(let message):
      state.isLoggingIn = false
      state.error = message
      return .none
    case .showHome:
      state.route = .home
      return .none
    }
  }
}

struct AuthClient: Sendable {
  var login: @Sendable (_ username: String, _ password: String) async throws -> String
}

extension AuthClient: TestDependencyKey {
  static let testValue = AuthClient(login: unimplemented("AuthClient.login", placeholder: ""))
}

struct WrongPassword: Error, CustomStringConvertible {
  var description: String { "Wrong password" }
}

@Suite struct LoginFlowTests {
  @Test func invalidFormDoesNotCallAuth() async {
    let store = TestStore(initialState: Login.State()) { Login() }
    await store.send(.usernameChanged("al")) { $0.username = "al" }
    await store.send(.passwordChanged("secret1")) { $0.password = "secret1" }
    await store.send(.loginTapped) { $0.error = "Username needs 3 characters and password 6." }
    await store.send(.usernameChanged("alice")) { $0.username = "alice" }
    await store.send(.passwordChanged("short")) { $0.password = "short" }
    await store.send(.loginTapped)
  }

  @Test func successNavigatesHomeAfterADelay() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Login.State(username: "alice", password: "secret1")
    ) {
      Login()
    } withDependencies: {
      $0[AuthClient.self].login = { username, _ in "user-\(username)" }
      $0.continuousClock = clock
    }
    await store.send(.loginTapped) { $0.isLoggingIn = true }
    await store.receive(.loginSucceeded(user: "user-alice")) {
      $0.isLoggingIn = false
      $0.user = "user-alice"
    }
    await clock.advance(by: .milliseconds(999))
    await store.send(.usernameChanged("alice"))  // nothing yet: the route is still the form
    await clock.advance(by: .milliseconds(1))
    await store.receive(.showHome) { $0.route = .home }
    await store.finish()
  }

  @Test func failureShowsTheError() async {
    let store = TestStore(
      initialState: Login.State(username: "alice", password: "secret1")
    ) {
      Login()
    } withDependencies: {
      $0[AuthClient.self].login = { _, _ in throw WrongPassword() }
    }
    await store.send(.loginTapped) { $0.isLoggingIn = true }
    await store.receive(.loginFailed("Wrong password")) {
      $0.isLoggingIn = false
      $0.error = "Wrong password"
    }
  }
}
