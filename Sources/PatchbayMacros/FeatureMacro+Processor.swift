import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@Feature` derives for an `AudioFeature`'s realtime half:
/// - from the cases marked `@SentBy(.processor)`, the event each becomes
///   (`static func event(_:at:)`, for the processor) and back (`static func action(for:)`, for
///   the host); an event's `kind` is a hash of the case's name, so it survives reordering and
///   a swap;
/// - from a nested `struct Parameters`, `static func parameters(for:)`, which copies the state's
///   properties of the same names.
///
/// Either is skipped when the feature writes its own.
extension FeatureMacro {
  static func processorMembers(
    action: EnumDeclSyntax, members: MemberBlockItemListSyntax, access: String,
    in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    var generated: [DeclSyntax] = []
    if !members.contains(where: { Self.declaresStaticFunction("action", $0.decl) }),
      let events = Self.events(of: action, in: context), !events.isEmpty
    {
      generated.append(contentsOf: Self.eventFunctions(events, access: access, action: action))
    }
    if !members.contains(where: { Self.declaresStaticFunction("parameters", $0.decl) }),
      let parameters = members.lazy.compactMap({ $0.decl.as(StructDeclSyntax.self) })
        .first(where: { $0.name.text == "Parameters" })
    {
      let copies = Self.storedProperties(of: parameters).map { "\($0): state.\($0)" }
      generated.append(
        """
        /// The block the processor reads, made from the state's properties of the same names.
        \(raw: access)static func parameters(for state: State) -> Parameters {
          Parameters(\(raw: copies.joined(separator: ", ")))
        }
        """)
    }
    return generated
  }

  /// A processor case: its name, the event kind, and its payload's type (nil for none).
  struct ProcessorCase {
    let name: String
    let kind: UInt32
    let payload: String?
    /// `index: ` for `beat(index: Int)`; empty for an unlabeled field.
    let label: String
  }

  /// The cases marked `@SentBy(.processor)`; nil (with a diagnostic) when one cannot travel as
  /// an event, or two names hash alike.
  private static func events(
    of action: EnumDeclSyntax, in context: some MacroExpansionContext
  ) -> [ProcessorCase]? {
    var events: [ProcessorCase] = []
    var failed = false
    for member in action.memberBlock.members {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self),
        Self.sender(of: caseDecl) == ".processor"
      else { continue }
      for element in caseDecl.elements {
        let parameters = element.parameterClause?.parameters ?? []
        let payload = parameters.first?.type.trimmedDescription
        if parameters.count > 1 || payload.map({ Self.conversion(of: $0) == nil }) == true {
          context.diagnose(
            Diagnostic(
              node: element,
              message: FeatureDiagnostic(
                "a processor event carries one integer, Double, Float or Bool; '\(element.name.text)' "
                  + "carries \(parameters.map(\.type.trimmedDescription).joined(separator: ", ")): "
                  + "change its fields, or write 'static func action(for:)' yourself")))
          failed = true
          continue
        }
        let kind = Self.kind(of: element.name.text)
        if let other = events.first(where: { $0.kind == kind }) {
          context.diagnose(
            Diagnostic(
              node: element,
              message: FeatureDiagnostic(
                "'\(element.name.text)' and '\(other.name)' hash to one event kind; rename one")))
          failed = true
        }
        let label = parameters.first?.firstName.map { $0.text == "_" ? "" : "\($0.text): " } ?? ""
        events.append(
          ProcessorCase(name: element.name.text, kind: kind, payload: payload, label: label))
      }
    }
    return failed ? nil : events
  }

  private static func eventFunctions(
    _ events: [ProcessorCase], access: String, action: EnumDeclSyntax
  ) -> [DeclSyntax] {
    var toAction: [String] = []
    var toEvent: [String] = []
    for event in events {
      if let payload = event.payload, let (encode, decode) = Self.conversion(of: payload) {
        toAction.append("case \(event.kind): .\(event.name)(\(event.label)\(decode))")
        toEvent.append(
          "case .\(event.name)(let value): ProcessorEvent(frame: frame, kind: \(event.kind), "
            + "value: \(encode))")
      } else {
        toAction.append("case \(event.kind): .\(event.name)")
        toEvent.append("case .\(event.name): ProcessorEvent(frame: frame, kind: \(event.kind))")
      }
    }
    let caseCount = action.memberBlock.members.reduce(0) {
      $0 + ($1.decl.as(EnumCaseDeclSyntax.self)?.elements.count ?? 0)
    }
    if caseCount > events.count { toEvent.append("default: ProcessorEvent(frame: frame, kind: 0)") }
    return [
      """
      /// The action a processor event becomes (its kind names a `@SentBy(.processor)` case).
      \(raw: access)static func action(for event: ProcessorEvent) -> Action? {
        switch event.kind {
        \(raw: toAction.joined(separator: "\n"))
        default: nil
        }
      }
      """,
      """
      /// The event the processor emits for a `@SentBy(.processor)` action, on the audio thread
      /// (it allocates nothing): `period.emit(Self.event(.beat(index: 3), at: frame))`. Another
      /// action gives kind 0, which the host drops.
      \(raw: access)static func event(_ action: Action, at frame: Int) -> ProcessorEvent {
        switch action {
        \(raw: toEvent.joined(separator: "\n"))
        }
      }
      """,
    ]
  }

  /// How a payload travels in `ProcessorEvent.value` (an `Int64`): its encoding of `value`, and
  /// the expression that reads it back from `event.value`.
  private static func conversion(of type: String) -> (String, String)? {
    switch type {
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
      ("Int64(truncatingIfNeeded: value)", "\(type)(truncatingIfNeeded: event.value)")
    case "Bool": ("value ? 1 : 0", "event.value != 0")
    case "Double":
      ("Int64(bitPattern: value.bitPattern)", "Double(bitPattern: UInt64(bitPattern: event.value))")
    case "Float":
      ("Int64(value.bitPattern)", "Float(bitPattern: UInt32(truncatingIfNeeded: event.value))")
    default: nil
    }
  }

  /// FNV-1a of the case's name, never 0 (the kind of no event).
  static func kind(of name: String) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return hash == 0 ? 1 : hash
  }

  /// The names of a struct's stored instance properties, in order.
  private static func storedProperties(of type: StructDeclSyntax) -> [String] {
    type.memberBlock.members.flatMap { member -> [String] in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
      else { return [] }
      return variable.bindings.compactMap { binding in
        guard binding.accessorBlock == nil,
          !(variable.bindingSpecifier.tokenKind == .keyword(.let) && binding.initializer != nil)
        else { return nil }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      }
    }
  }

  /// `static func <name>(…)`.
  static func declaresStaticFunction(_ name: String, _ decl: DeclSyntax) -> Bool {
    guard let function = decl.as(FunctionDeclSyntax.self), function.name.text == name else {
      return false
    }
    return function.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
  }
}
