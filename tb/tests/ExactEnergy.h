#pragma once
// Exact energy comparisons for tests: figures computed by hand from the config against the
// report's, to a relative 1e-9.
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace ssd::test {

inline constexpr double kRelTol = 1e-9;

inline void expect_rel(double got, double want) {
  EXPECT_NEAR(got, want, std::abs(want) * kRelTol) << "got " << got << ", want " << want;
}

// Energy of component `comp` in state `st` in report.json's energy_j (0 if it has none).
inline double state_j(const nlohmann::ordered_json& rep, const std::string& comp,
                      const std::string& st) {
  return rep["energy_j"][comp].value(st, 0.0);
}

}  // namespace ssd::test
