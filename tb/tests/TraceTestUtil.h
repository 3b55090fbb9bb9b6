#pragma once
// Helpers of the trace and workload suites: files written at test time, readers run to the
// end, the CLI run in a child process.
#include <sys/wait.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>
#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "common/Errors.h"
#include "tb/host/HostRequest.h"
#include "tb/tests/TestUtil.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::test {

// `text` in a file named `name` in this test's own directory.
inline std::string write_file(const std::string& name, const std::string& text) {
  static std::string dir;
  static std::string owner;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test = std::string(info->test_suite_name()) + "." + info->name();
  if (owner != test) {
    dir = temp_dir("files");
    owner = test;
  }
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// `text` gzip-compressed into `name`.
inline std::string write_gzip(const std::string& name, const std::string& text) {
  std::string path = write_file(name, "");
  boost::iostreams::filtering_ostream out;
  out.push(boost::iostreams::gzip_compressor());
  out.push(boost::iostreams::file_sink(path, std::ios::binary));
  out << text;
  return path;
}

inline std::vector<tb::HostRequest> read_all(tb::RequestSource& source) {
  std::vector<tb::HostRequest> all;
  tb::HostRequest r;
  while (source.next(r)) all.push_back(r);
  return all;
}

inline tb::TraceOptions with_format(const std::string& format) {
  tb::TraceOptions o;
  o.format = format;
  return o;
}

// Every request of `path` read with `opts`.
inline std::vector<tb::HostRequest> read_trace(const std::string& path,
                                               const tb::TraceOptions& opts) {
  const std::unique_ptr<tb::TraceReader> reader = tb::open_trace(path, opts);
  return read_all(*reader);
}

// The InputError message of opening and reading the whole trace, or "" if there is none.
inline std::string trace_error(const std::string& path, const tb::TraceOptions& opts) {
  try {
    read_trace(path, opts);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Arrival in picoseconds (the default SystemC time resolution).
inline uint64_t ps(const tb::HostRequest& r) { return r.arrival.value(); }

// Runs `ssdtlm ARGS`, stdout and stderr into `output`; returns the exit status. `shell` comes
// first in the shell's command line (limits set with ulimit, a command ssdtlm runs under).
inline int run_ssdtlm(const std::string& args, std::string& output, const std::string& shell = "") {
  const std::string log = write_file("ssdtlm.log", "");
  const int rc =
      std::system((shell + std::string(SSDTLM_BINARY) + " " + args + " >" + log + " 2>&1").c_str());
  output = slurp(log);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace ssd::test
