// GoogleTest entry. libsystemc expects sc_main; the suites run inside it so SystemC is set up.
// ctest runs each test in its own process (gtest_discover_tests), so each test that builds
// modules gets a fresh SystemC kernel.
#include <gtest/gtest.h>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// Our own entry point: the SystemC banner is printed before sc_main runs, so it can only be
// silenced here (stdout carries the summary).
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
