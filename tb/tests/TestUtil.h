#pragma once
// Shared helpers for the suites: shipped configs, scripted requests, temporary directories.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "config/DriveConfig.h"
#include "tb/host/HostRequest.h"

namespace ssd::test {

inline std::string source_path(const std::string& rel) {
  return std::string(SSDTLM_SOURCE_DIR) + "/" + rel;
}

inline config::DriveConfig shipped(const std::string& name) {
  return config::load_drive_config(source_path("configs/" + name + ".json"));
}

inline tb::HostRequest request(double at_us, tb::IoOp op, uint64_t offset, uint64_t length) {
  tb::HostRequest r;
  r.arrival = sc_core::sc_time(at_us, sc_core::SC_US);
  r.op = op;
  r.offset_bytes = offset;
  r.length_bytes = length;
  return r;
}

// A fresh, empty directory for this test.
inline std::string temp_dir(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path p = std::filesystem::path(::testing::TempDir()) / "ssdtlm" /
                                  (std::string(info->test_suite_name()) + "." + info->name() + "." + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ssd::test
