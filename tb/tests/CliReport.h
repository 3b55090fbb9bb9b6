#pragma once
// Runs of the executable whose report or refusal a test reads.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tb/tests/TestUtil.h"

namespace ssd::test {

// Runs the executable with `args` and `--out dir`, which must succeed: its report.json.
inline nlohmann::json cli_report(const std::string& args, const std::string& dir) {
  std::string out;
  const int rc = run_cli(args + " --out " + dir, out);
  EXPECT_EQ(rc, 0) << out;
  return rc == 0 ? nlohmann::json::parse(slurp(dir + "/report.json")) : nlohmann::json();
}

// What a run with `args` prints (a refusal's message, for the rule tests).
inline std::string cli_output(const std::string& args) {
  std::string out;
  run_cli(args, out);
  return out;
}

}  // namespace ssd::test
