import PatchbayABI
import PatchbayLoader

/// What an isolated plugin declares, as its process loaded it: the host builds its
/// ``LoadedPlugin`` from this without loading the library itself. Sent once, as JSON, in reply
/// to ``IsolatedCall/describe``.
package struct PluginDescription: Codable, Sendable, Equatable {
  package struct Feature: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var summary: String
    package var schemaVersion: UInt32
    package var actions: [Action]
    package var migrates: Bool
    /// The processor's parameter bytes and most events a period; nil without one.
    package var processor: Processor?
    /// Whether its instances cancel effects by key (ABI 2.4); nil from older children.
    package var cancelsByKey: Bool?
  }

  package struct Action: Codable, Sendable, Equatable {
    package var name: String
    package var summary: String
    package var fields: [Field]
    package var sentBy: String?
  }

  package struct Field: Codable, Sendable, Equatable {
    package var name: String
    package var type: String
  }

  package struct Processor: Codable, Sendable, Equatable {
    package var parameterSize: UInt32
    package var maxOutputEvents: UInt32
    /// MIDI it sends to the processors after it, a period (ABI 2.3); nil from older children.
    package var maxMIDIOutput: UInt32?
    /// Whether it has `write_parameters` and `event_action`.
    package var writesParameters: Bool
    package var turnsEventsIntoActions: Bool
    /// An effect on the mix (``FeatureCode/processorInserts``); nil from older children.
    package var inserts: Bool?
  }

  package var id: String
  package var name: String
  package var version: String
  /// The ABI version the plugin was built for.
  package var abiMajor: Int
  package var abiMinor: Int
  package var features: [Feature]
  /// The names of the functions it exports: other plugins cannot call them across processes.
  package var functions: [String]
  /// The load error, when the process could not load the plugin (then nothing else is set).
  package var error: String?

  package init(loaded plugin: LoadedPlugin) {
    self.id = plugin.id
    self.name = plugin.name
    self.version = plugin.version
    self.abiMajor = plugin.abiMajor
    self.abiMinor = plugin.abiMinor
    self.features = plugin.features.map { feature in
      Feature(
        id: feature.id, name: feature.name, summary: feature.summary,
        schemaVersion: feature.schemaVersion,
        actions: feature.actions.map { action in
          Action(
            name: action.name, summary: action.summary,
            fields: action.fields.map { Field(name: $0.name, type: $0.type) },
            sentBy: action.sentBy)
        },
        migrates: feature.migrates,
        processor: feature.code.processor.map {
          Processor(
            parameterSize: $0.parameter_size, maxOutputEvents: $0.max_output_events,
            maxMIDIOutput: $0.max_midi_output,
            writesParameters: $0.write_parameters != nil,
            turnsEventsIntoActions: $0.event_action != nil, inserts: feature.code.processorInserts)
        },
        cancelsByKey: feature.code.cancelsByKey)
    }
    self.functions = plugin.functions.map(\.name)
    self.error = nil
  }

  package init(error: String) {
    self.id = ""
    self.name = ""
    self.version = ""
    self.abiMajor = 0
    self.abiMinor = 0
    self.features = []
    self.functions = []
    self.error = error
  }
}
