// libsystemc.so refers to sc_main (from its own main()), so every program linking it must
// define one. The harnesses run under libFuzzer's main(), which never calls it.
extern "C" int sc_main(int, char*[]) { return 0; }
