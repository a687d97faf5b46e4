/* A test fixture: a real shared library without `patchbay_plugin_entry`. */
__attribute__((visibility("default"))) int patchbay_fixture_answer(void) { return 42; }
