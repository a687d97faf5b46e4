/* SynthFM has no headers of its own: it builds the Synth's (Plugins/Synth/include). */
