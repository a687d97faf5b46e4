/// The files of a new WebAssembly plugin (`patchbay new NAME --wasm swift|c`): the feature's
/// source, a Makefile that builds NAME.wasm with the checkout's wasm-swiftc or wasm-cc, an app
/// of that one feature, and a script whose `expect` lines are its test.
///
/// ```swift
/// let files = WasmPluginTemplate(name: "Pinger", language: .swift, patchbayRoot: "/src/patchbay",
///   featureID: "com.example.pinger").files   // [("Pinger.swift", "…"), ("Makefile", "…"), …]
/// ```
package struct WasmPluginTemplate {
  /// What the feature is written in.
  package enum Language: String, CaseIterable, Sendable {
    /// Embedded Swift, with the PatchbayEmbedded SDK (`@Feature`, `Effect`, `#plugin`).
    case swift
    /// C, with patchbay.h and patchbay/sdk.h.
    case c
  }

  let name: String
  let language: Language
  let patchbayRoot: String
  /// The feature's id; the plugin's is it plus `-plugin`.
  let featureID: String

  package init(name: String, language: Language, patchbayRoot: String, featureID: String) {
    (self.name, self.language, self.patchbayRoot, self.featureID) = (
      name, language, patchbayRoot, featureID
    )
  }

  /// The feature's key in the app: the name in lower case.
  var key: String { self.name.lowercased() }

  var source: String { self.language == .swift ? "\(self.name).swift" : "\(self.key).c" }

  package var files: [(String, String)] {
    [
      (self.source, self.language == .swift ? self.swiftFeature : self.cFeature),
      ("Makefile", self.makefile),
      ("app.toml", self.app),
      ("test.script", self.script),
      (".gitignore", "*.wasm\n"),
    ]
  }

  var makefile: String {
    let tool = self.language == .swift ? "wasm-swiftc" : "wasm-cc"
    let what =
      self.language == .swift
      ? "Embedded Swift, with the checkout's macros (run swift build there first)"
      : "C for wasm32, with the checkout's clang and Debian's wasi-libc"
    return """
      # Build, test and inspect this WebAssembly plugin with the Patchbay checkout at PATCHBAY.
      #   make           builds \(self.name).wasm from \(self.source): \(what)
      #   make test      builds, then runs test.script on app.toml: each `expect` line asserts the
      #                  state after the actions before it
      #   make inspect   builds, then lists what the plugin declares
      #   make validate  builds, then runs `patchbay validate` on it (VALIDATE_FLAGS="--strictness 10")
      #   make dev       runs the app, watching \(self.name).wasm: run `make` in another terminal
      #                  after an edit, and the app swaps the new build in, state kept
      PATCHBAY := \(self.patchbayRoot)
      BUILD := $(PATCHBAY)/.build/debug

      \(self.name).wasm: \(self.source)
      \t$(PATCHBAY)/Sources/PatchbayWasmGuest/\(tool) -o $@ \(self.source)

      test: \(self.name).wasm
      \t$(BUILD)/patchbay run app.toml --script test.script

      inspect: \(self.name).wasm
      \t$(BUILD)/patchbay inspect ./\(self.name).wasm

      validate: \(self.name).wasm
      \t$(BUILD)/patchbay validate ./\(self.name).wasm $(VALIDATE_FLAGS)

      dev: \(self.name).wasm
      \t$(BUILD)/patchbay run app.toml --watch

      .PHONY: test inspect validate dev

      """
  }

  var app: String {
    """
    # An app of this plugin's one feature, for `make test` and `make dev` (docs/CONFIG.md).
    # Paths are relative to this file.
    [app]
    name = "\(self.name)"
    root = "\(self.key)"

    [plugins]
    search-paths = ["."]
    load = ["\(self.name).wasm"]

    [[feature]]
    key = "\(self.key)"
    id = "\(self.featureID)"

    """
  }

  var script: String {
    """
    # make test: actions sent to the feature, and what its state must be after them.
    send \(self.key) setMessage(text: "hello")
    expect \(self.key) /message "hello"
    send \(self.key) ping
    send \(self.key) ping
    expect \(self.key) /pings 2
    render

    """
  }

  var swiftFeature: String {
    """
    import PatchbayEmbedded

    /// \(self.name): a feature in Embedded Swift, built as WebAssembly (`make`). Edit the
    /// state, the actions and `reduce`: `@Feature` writes the action list from `enum Action`
    /// (each case's doc comment is its summary) and the value encoding of both; `#plugin` below
    /// exports it. Int is 32 bits in wasm32: use Int64 for what may grow past 2³¹.
    @Feature
    struct \(self.name) {
      static let id: StaticString = "\(self.featureID)"
      static let summary: StaticString = "Remembers a message and counts pings."

      struct State {
        var pings: Int64 = 0
        var message = ""
      }

      enum Action {
        /// Counts one ping
        case ping
        /// Remembers a message
        case setMessage(text: String)
      }

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .ping:
          state.pings += 1
        case .setMessage(let text):
          state.message = text
        }
        return .none
      }

      static func render(_ state: State) -> String {
        "\\(state.message.isEmpty ? "(no message)" : state.message) — \\(state.pings) ping(s)"
      }
    }

    #plugin(
      id: "\(self.featureID)-plugin", name: "\(self.name)", version: "0.1.0",
      features: [\(self.name).self])

    """
  }

  var cFeature: String {
    let prefix = "\(self.key)_feature"
    return """
      /*
       * \(self.name): a feature in C, built as WebAssembly (`make`), against patchbay.h and
       * patchbay/sdk.h. State {pings: int, message: string}; actions ping and
       * setMessage(text:). Every failure reports one line through host->error and changes
       * nothing. Plugins/Echo/echo.c in the Patchbay checkout is a fuller example.
       */
      #include <patchbay.h>
      #include <patchbay/sdk.h>

      #include <stdio.h>
      #include <stdlib.h>
      #include <string.h>

      #define FEATURE_ID "\(self.featureID)"

      typedef struct \(prefix) {
        const pb_host *host;
        int64_t pings;
        char *message; /* NUL-terminated */
        size_t message_length;
      } \(prefix);

      static int keep(\(prefix) *self, const char *text, size_t length) {
        char *copy = malloc(length + 1);
        if (!copy) return -1;
        memcpy(copy, text, length);
        copy[length] = 0;
        free(self->message);
        self->message = copy;
        self->message_length = length;
        return 0;
      }

      static void *\(prefix)_create(const pb_feature_desc *feature, const pb_host *host,
                                  const uint8_t *state, size_t length) {
        (void)feature;
        \(prefix) *self = calloc(1, sizeof *self);
        if (!self || keep(self, "", 0)) {
          pb_sdk_report(host, FEATURE_ID ": out of memory creating an instance");
          free(self);
          return NULL;
        }
        self->host = host;
        if (state) {
          pb_sdk_string message = {"", 0};
          const pb_sdk_state_field fields[] = {
              {"pings", PB_SDK_INT, &self->pings},
              {"message", PB_SDK_STRING, &message},
          };
          char reason[192] = "out of memory", why[256];
          if (pb_sdk_read_state(state, length, fields, 2, reason, sizeof reason) ||
              keep(self, message.utf8, message.length)) {
            pb_sdk_restore_refused(FEATURE_ID, reason, why, sizeof why);
            pb_sdk_report(host, why);
            free(self->message);
            free(self);
            return NULL;
          }
        }
        return self;
      }

      static void \(prefix)_destroy(void *instance) {
        \(prefix) *self = instance;
        free(self->message);
        free(self);
      }

      static pb_status \(prefix)_reduce(void *instance, const uint8_t *action, size_t length) {
        \(prefix) *self = instance;
        pb_reader in = {action, length, 0, NULL};
        const char *name, *label, *text;
        size_t name_length, label_length, text_length;
        uint32_t fields;
        if (pb_read_case(&in, &name, &name_length, &fields) == 0) {
          if (pb_name_equals(name, name_length, "ping") && fields == 0 && in.offset == length) {
            self->pings += 1;
            return PB_OK;
          }
          if (pb_name_equals(name, name_length, "setMessage") && fields == 1 &&
              pb_read_name(&in, &label, &label_length) == 0 &&
              pb_name_equals(label, label_length, "text") &&
              pb_read_string(&in, &text, &text_length) == 0 && in.offset == length) {
            if (keep(self, text, text_length)) {
              pb_sdk_report(self->host, FEATURE_ID ": out of memory; the state is unchanged");
              return PB_ERR_FAILED;
            }
            return PB_OK;
          }
        }
        pb_sdk_report(self->host,
                      FEATURE_ID ": not an action of this feature. Send ping or setMessage(text: \\"…\\").");
        return PB_ERR_DECODE;
      }

      static pb_status \(prefix)_snapshot(void *instance, const pb_writer *out) {
        \(prefix) *self = instance;
        return pb_write_record(out, 2) || pb_write_name(out, "pings") ||
                       pb_write_int(out, self->pings) || pb_write_name(out, "message") ||
                       pb_write_string(out, self->message, self->message_length)
                   ? PB_ERR_FAILED
                   : PB_OK;
      }

      /* The view: plain text, the message's control characters written as escapes. */
      static pb_status \(prefix)_render(void *instance, const pb_writer *out) {
        \(prefix) *self = instance;
        char pings[64];
        int length = snprintf(pings, sizeof pings, " — %lld ping(s)", (long long)self->pings);
        int failed = self->message_length
                         ? pb_sdk_write_plain(out, self->message, self->message_length)
                         : pb_sdk_write_all(out, "(no message)", 12);
        return failed || pb_sdk_write_all(out, pings, (size_t)length) ? PB_ERR_FAILED : PB_OK;
      }

      static pb_status \(prefix)_parse_action(const pb_feature_desc *feature, const pb_host *host,
                                            const char *text, size_t length,
                                            const pb_writer *out) {
        (void)feature;
        return pb_sdk_parse_action(FEATURE_ID, host, text, length, out, NULL,
                                   "Send ping or setMessage(text: \\"…\\").");
      }

      static pb_status \(prefix)_format_action(const pb_feature_desc *feature, const pb_host *host,
                                             const uint8_t *action, size_t length,
                                             const pb_writer *out) {
        (void)feature;
        return pb_sdk_format_action(FEATURE_ID, host, action, length, out, NULL);
      }

      static void \(prefix)_cancel_effects(void *instance) { (void)instance; }

      PB_SDK_ACTIONS(actions, PB_SDK_ACTION0("ping", "Counts one ping"),
                     PB_SDK_ACTION("setMessage", "Remembers a message",
                                   PB_SDK_FIELD("text", "string")));

      static const pb_feature_vtable vtable = PB_SDK_VTABLE(\(prefix));

      static const pb_feature_desc feature = {
          .struct_size = sizeof(pb_feature_desc),
          .id = FEATURE_ID,
          .name = "\(self.name)",
          .summary = "Remembers a message and counts pings.",
          .state_schema_version = 1,
          .action_count = PB_SDK_COUNT(actions),
          .actions = actions,
          .vtable = &vtable,
      };

      PB_SDK_PLUGIN(FEATURE_ID "-plugin", "\(self.name)", "0.1.0", &feature)

      """
  }
}
