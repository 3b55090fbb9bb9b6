// GoogleTest entry. libsystemc expects sc_main; the suites run inside it so SystemC is set up.
// ctest runs each test in its own process (gtest_discover_tests), so each test that builds
// modules gets a fresh SystemC kernel.
#include <gtest/gtest.h>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
