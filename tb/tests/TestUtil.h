#pragma once
// Shared helpers for the suites: shipped configs, scripted requests, temporary directories,
// running the executable.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/host/HostRequest.h"

namespace ssd::test {

inline std::string source_path(const std::string& rel) {
  return std::string(SSDTLM_SOURCE_DIR) + "/" + rel;
}

inline config::DriveConfig shipped(const std::string& name) {
  return config::load_drive_config(source_path("configs/" + name + ".json"));
}

// The ConfigError message parse_drive_config gives for the JSON `text`, origin "t.json".
inline std::string config_error(const std::string& text) {
  try {
    config::parse_drive_config(nlohmann::json::parse(text), "t.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

// A config choice by its name in config files (tests are parameterised by those names).
template <class E>
E choice(const std::string& name) {
  const std::optional<E> value = config::parse_choice<E>(name);
  if (!value)
    throw std::invalid_argument(std::string("no ") + config::Choice<E>::kWhat + " " + name);
  return *value;
}

// `qd` commands in the drive: past SATA NCQ's 32 the host side becomes the shipped NVMe
// drive's (its queues, fetch and completion costs), so the config stays one a user can run.
inline void set_queue_depth(config::DriveConfig& cfg, uint32_t qd) {
  if (qd > 32) cfg.host = shipped("nvme_tlc_1tb").host;
  cfg.host.queue_depth = qd;
}

inline tb::HostRequest request(double at_us, tb::IoOp op, uint64_t offset, uint64_t length) {
  tb::HostRequest r;
  r.arrival = sc_core::sc_time(at_us, sc_core::SC_US);
  r.op = op;
  r.offset_bytes = offset;
  r.length_bytes = length;
  return r;
}

// `n` reads, writes and trims (4:4:2) of 4-16 KiB at random 4 KiB offsets in the first
// `hot_pages` pages, 20 us apart; after every `burst` requests the drive gets `gap_us` more.
inline std::vector<tb::HostRequest> hot_mix(uint64_t n, uint64_t seed, uint64_t hot_pages,
                                            uint64_t burst = 0, double gap_us = 0) {
  std::mt19937_64 rng(seed);
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t roll = rng() % 10;
    const tb::IoOp op = roll < 4 ? tb::IoOp::Read : roll < 8 ? tb::IoOp::Write : tb::IoOp::Trim;
    const uint64_t bursts_before = burst ? i / burst : 0;
    const double at = 20.0 * double(i) + gap_us * double(bursts_before);
    reqs.push_back(request(at, op, (rng() % hot_pages) * 4096, 4096 * (1 + rng() % 4)));
  }
  return reqs;
}

// A fresh, empty directory for this test.
inline std::string temp_dir(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path p =
      std::filesystem::path(::testing::TempDir()) / "ssdtlm" /
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

// How many times `needle` occurs in `text` (the lines of a CSV with a field).
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

// Runs the executable; returns its exit code and fills `out` with stdout+stderr.
inline int run_cli(const std::string& args, std::string& out) {
  const std::string log = temp_dir("cli") + "/log.txt";
  const int rc =
      std::system((std::string(SSDTLM_BINARY) + " " + args + " >" + log + " 2>&1").c_str());
  out = slurp(log);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace ssd::test
