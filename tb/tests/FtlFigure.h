#pragma once
// A figure an FTL reports, read as report.json reads it (by its group and name), for the
// suites that check a counter exactly.
#include <cstdint>
#include <string>

#include "firmware/Ftl.h"
#include "firmware/StatisticsJson.h"

namespace ssd::test {

// 0 if the FTL has no figure of that name.
inline uint64_t figure(const fw::Ftl& ftl, const std::string& group, const std::string& name) {
  return uint64_t(figure_value({&ftl.statistics()}, group, name).value_or(0));
}

}  // namespace ssd::test
