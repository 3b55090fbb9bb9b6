// ssdtlm::Ssd as a platform embeds it (docs/embedding.md): plain generic payloads through the
// block target's b_transport and nb_transport_fw time like the testbench host's requests,
// refused payloads get the base protocol's response statuses, data reads back.
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "ip/Scoreboard.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "ssdtlm/Ssd.h"
#include "tb/run/Simulation.h"
#include "tb/tests/EmbedRig.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using sc_core::sc_time;
using sc_core::SC_US;
using test::Initiator;
using test::report_of;
using test::set;

// The testbench host's completion times (us) for `reqs`, one at a time as they arrive, and
// its report.json.
struct TestbenchRun {
  std::vector<double> completions;
  nlohmann::json report;
};
TestbenchRun testbench_run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  tb::RunOptions opts;
  opts.out_dir = test::temp_dir("tb");
  opts.request_log = "requests.csv";
  opts.series = false;
  tb::run_simulation(cfg, src, opts);
  std::ifstream in(opts.out_dir + "/requests.csv");
  std::string line;
  std::getline(in, line);  // header
  TestbenchRun out;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string arrival, start, completion;
    std::getline(ss, arrival, ',');
    std::getline(ss, start, ',');
    std::getline(ss, completion, ',');
    out.completions.push_back(std::stod(completion));
  }
  std::ifstream report(opts.out_dir + "/report.json");
  out.report = nlohmann::json::parse(report);
  return out;
}

// Two reports' figures equal, numbers to 1e-9 relative (the latencies are the same integer
// picoseconds, summed in another order), at every key of `want`.
void expect_same_figures(const nlohmann::json& got, const nlohmann::json& want,
                         const std::string& at) {
  if (want.is_number() && got.is_number()) {
    const double w = want.get<double>();
    EXPECT_NEAR(got.get<double>(), w, 1e-9 * std::abs(w)) << at;
  } else if (want.is_structured() && got.type() == want.type()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      const std::string key = want.is_object() ? it.key() : std::to_string(it - want.begin());
      const nlohmann::json& g = want.is_object() ? got.value(it.key(), nlohmann::json())
                                                 : got.at(std::size_t(it - want.begin()));
      expect_same_figures(g, *it, at + "/" + key);
    }
    EXPECT_EQ(got.size(), want.size()) << at;
  } else {
    EXPECT_EQ(got, want) << at;
  }
}

struct Req {
  double at_us;
  tlm::tlm_command cmd;
  uint64_t offset, length;
};

std::vector<tb::HostRequest> as_host_requests(const std::vector<Req>& reqs) {
  std::vector<tb::HostRequest> out;
  for (const Req& r : reqs)
    out.push_back(test::request(r.at_us,
                                r.cmd == tlm::TLM_READ_COMMAND ? tb::IoOp::Read : tb::IoOp::Write,
                                r.offset, r.length));
  return out;
}

// Reads and writes of several sizes, aligned and not, far enough apart that each completes
// before the next arrives.
std::vector<Req> spaced_requests() {
  std::vector<Req> out;
  const uint64_t sizes[] = {4096, 512, 16384, 65536, 3000};
  for (int i = 0; i < 10; ++i) {
    const auto cmd = i % 3 == 2 ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND;
    out.push_back(Req{2000.0 * i + 7.5, cmd, uint64_t(i % 4) * 8192 + (i % 2) * 512, sizes[i % 5]});
  }
  return out;
}

// The spaced requests sent to an embedded drive, each by `send` (which returns when the
// request completed, in us), complete when the testbench host's do, and the drive's report
// (the CLI's report builder) has the testbench run's figures.
template <class Send>
void expect_testbench_times(Send send) {
  const config::DriveConfig cfg = test::shipped("default");
  const std::vector<Req> reqs = spaced_requests();
  const TestbenchRun expected = testbench_run(cfg, as_host_requests(reqs));
  ASSERT_EQ(expected.completions.size(), reqs.size());

  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  std::vector<double> got;
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf;
    tlm::tlm_generic_payload gp;
    for (const Req& r : reqs) got.push_back(send(self, gp, r, buf));
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  ASSERT_EQ(got.size(), expected.completions.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected.completions[i], 1e-6) << i;

  const nlohmann::json report = report_of(ssd, "embedded");
  for (const char* key : {"sim_time_s",
                          "iops",
                          "bandwidth_mbps",
                          "latency_us",
                          "latency_histogram_us",
                          "latency_breakdown_us",
                          "host_queues",
                          "flash_ops",
                          "waf",
                          "firmware",
                          "write_buffer",
                          "gc",
                          "energy_j",
                          "energy_by_group_j",
                          "energy_by_work_j",
                          "energy_total_j",
                          "energy_span_s",
                          "peak_current_ma",
                          "rails",
                          "power_analyser",
                          "nand_breakdown_j"})
    expect_same_figures(report[key], expected.report[key], key);
  // The whole run's utilisation; the drive cannot tell when the platform's workload ends, so
  // it has no host phase and tail.
  for (const char* part : {"span_s", "channels", "dies", "controller", "host_link", "bottleneck"})
    expect_same_figures(report["utilisation"][part], expected.report["utilisation"][part], part);
  EXPECT_TRUE(report["utilisation"]["host_phase"].is_null());
  EXPECT_EQ(report["flows"][0]["name"], "socket");
  expect_same_figures(report["flows"][0]["latency_us"], expected.report["flows"][0]["latency_us"],
                      "flows/0/latency_us");
  EXPECT_EQ(report["requests"]["count"], expected.report["requests"]["count"]);
  EXPECT_EQ(report["scoreboard"]["pages_checked"], expected.report["scoreboard"]["pages_checked"]);
}

TEST(Embed, BTransportWithAnnotatedDelaysTimesLikeTheTestbenchHost) {
  expect_testbench_times([](Initiator& self, tlm::tlm_generic_payload& gp, const Req& r,
                            std::vector<unsigned char>& buf) {
    // Temporally decoupled: the thread runs 5 us behind the request's start time.
    const sc_time at(r.at_us, SC_US), ahead(5, SC_US);
    sc_core::wait(at - ahead - sc_core::sc_time_stamp());
    buf.assign(r.length, 0x5a);
    set(gp, r.cmd, r.offset, buf);
    sc_time delay = ahead;
    self.socket->b_transport(gp, delay);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    return (sc_core::sc_time_stamp() + delay).to_seconds() * 1e6;
  });
}

TEST(Embed, NbTransportWithBeginReqDelaysTimesLikeTheTestbenchHost) {
  expect_testbench_times([](Initiator& self, tlm::tlm_generic_payload& gp, const Req& r,
                            std::vector<unsigned char>& buf) {
    // BEGIN_REQ sent 3 us early, its delay the rest.
    const sc_time at(r.at_us, SC_US), ahead(3, SC_US);
    sc_core::wait(at - ahead - sc_core::sc_time_stamp());
    buf.assign(r.length, 0x11);
    set(gp, r.cmd, r.offset, buf);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = ahead;
    EXPECT_EQ(self.socket->nb_transport_fw(gp, phase, delay), tlm::TLM_ACCEPTED);
    sc_core::wait(self.got_begin_resp);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    return sc_core::sc_time_stamp().to_seconds() * 1e6;
  });
}

// Back to back on the AT path, END_RESP on the forward path: every one completes, in order.
TEST(Embed, NbTransportBackToBackWithEndRespOnTheForwardPath) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  int completed = 0;
  Initiator init("init", [&](Initiator& self) {
    self.bw_reply = tlm::TLM_ACCEPTED;
    std::vector<unsigned char> buf(4096, 1);
    std::vector<tlm::tlm_generic_payload> gps(8);
    for (std::size_t i = 0; i < gps.size(); ++i) {
      set(gps[i], tlm::TLM_WRITE_COMMAND, 4096 * i, buf);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_time delay = sc_core::SC_ZERO_TIME;
      ASSERT_EQ(self.socket->nb_transport_fw(gps[i], phase, delay), tlm::TLM_ACCEPTED);
      sc_core::wait(self.got_end_req);
    }
    while (completed < int(gps.size())) {
      sc_core::wait(self.got_begin_resp);
      sc_core::wait(1, SC_US);
      tlm::tlm_phase phase = tlm::END_RESP;
      sc_time delay = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(self.socket->nb_transport_fw(gps[std::size_t(completed)], phase, delay),
                tlm::TLM_COMPLETED);
      EXPECT_EQ(gps[std::size_t(completed)].get_response_status(), tlm::TLM_OK_RESPONSE);
      ++completed;
    }
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  EXPECT_EQ(completed, 8);
}

TEST(Embed, BeginReqBeforeEndReqIsAProtocolError) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  bool thrown = false;
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf(4096);
    tlm::tlm_generic_payload a, b;
    set(a, tlm::TLM_WRITE_COMMAND, 0, buf);
    set(b, tlm::TLM_WRITE_COMMAND, 4096, buf);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay(10, SC_US);
    self.socket->nb_transport_fw(a, phase, delay);
    phase = tlm::BEGIN_REQ;
    try {
      self.socket->nb_transport_fw(b, phase, delay);
    } catch (const sc_core::sc_report& r) {
      thrown = std::string(r.get_msg_type()) == ssdtlm::msg::kProtocol;
    }
    EXPECT_EQ(b.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
    sc_core::wait(self.got_begin_resp);  // the first goes on
    EXPECT_EQ(a.get_response_status(), tlm::TLM_OK_RESPONSE);
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  EXPECT_TRUE(thrown);
}

TEST(Embed, TheModelBuildsItsEnergyMonitor) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  EXPECT_FALSE(ssd.monitor().component_energy().empty());
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf(65536, 3);
    tlm::tlm_generic_payload gp;
    sc_time delay;
    set(gp, tlm::TLM_WRITE_COMMAND, 0, buf);
    self.socket->b_transport(gp, delay);
    ssdtlm::BlockCommand flush(ssdtlm::BlockCommand::Op::Flush);
    set(gp, tlm::TLM_IGNORE_COMMAND, 0, buf);
    gp.set_extension(&flush);
    self.socket->b_transport(gp, delay);
    gp.clear_extension(&flush);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  ssd.finish();
  EXPECT_GT(ssd.energy_j(), 0.0);
  EXPECT_GT(ssd.average_power_w(), 0.0);
  EXPECT_GE(ssd.peak_power_w(), ssd.average_power_w());
  EXPECT_GT(ssd.model().controller().work_horizon(), sc_core::SC_ZERO_TIME);
}

TEST(Embed, WritesItsReportWithoutTheTestbench) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf(4096, 9);
    tlm::tlm_generic_payload gp;
    sc_time delay;
    for (uint64_t page : {0, 1, 7}) {
      set(gp, tlm::TLM_WRITE_COMMAND, page * 4096, buf);
      self.socket->b_transport(gp, delay);
    }
    set(gp, tlm::TLM_READ_COMMAND, 4096, buf);
    self.socket->b_transport(gp, delay);
    set(gp, tlm::TLM_READ_COMMAND, ssd.capacity_bytes(), buf);  // beyond the drive: refused
    self.socket->b_transport(gp, delay);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  const std::string dir = test::temp_dir("report");
  ssd.write_report(dir);
  std::ifstream in(dir + "/report.json");
  const nlohmann::json r = nlohmann::json::parse(in);
  EXPECT_EQ(r["requests"]["write"].get<uint64_t>(), 3u);
  EXPECT_EQ(r["requests"]["write_bytes"].get<uint64_t>(), 3u * 4096);
  EXPECT_EQ(r["requests"]["read"].get<uint64_t>(), 1u);
  EXPECT_EQ(r["requests"]["refused"].get<uint64_t>(), 1u);
  const uint64_t programs = ssd.model().controller().flash_counters().programs;
  EXPECT_EQ(r["flash_ops"]["program"].get<uint64_t>(), programs);
  EXPECT_EQ(ssd.figure("flash_ops", "program"), double(programs));
  EXPECT_FALSE(ssd.figure("flash_ops", "no_such_figure"));
  EXPECT_EQ(r["energy_total_j"].get<double>(), ssd.energy_j());
  EXPECT_EQ(r["workload"], "commands through the platform's socket");
  // The CLI's summary, from the same figures.
  const std::string summary = ssd.summary();
  EXPECT_NE(summary.find("commands through the platform's socket"), std::string::npos) << summary;
  EXPECT_NE(summary.find("scoreboard 1 page reads checked, 0 mismatches"), std::string::npos)
      << summary;
  // The backing store's scoreboard checked the page read against the writes.
  EXPECT_EQ(r["scoreboard"]["pages_checked"].get<uint64_t>(), 1u);
  EXPECT_EQ(r["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  for (const char* kind : {"read", "write"}) {
    double stages = 0;
    for (const auto& [stage, us] : r["latency_breakdown_us"][kind]["mean"].items())
      stages += us.get<double>();
    const double mean = r["latency_us"][kind]["mean"].get<double>();
    EXPECT_GT(mean, 0) << kind;
    EXPECT_NEAR(stages, mean, 1e-9 * mean) << kind;
  }
  // A directory that cannot be made is a report error naming it (cached, not thrown: ASan
  // cannot follow a throw once coroutines have run).
  sc_core::sc_report_handler::set_actions(ssdtlm::msg::kReport, sc_core::SC_ERROR,
                                          sc_core::SC_CACHE_REPORT);
  ssd.write_report(dir + "/report.json/below");  // under a file
  const sc_core::sc_report* e = sc_core::sc_report_handler::get_cached_report();
  ASSERT_NE(e, nullptr);
  EXPECT_STREQ(e->get_msg_type(), ssdtlm::msg::kReport);
  EXPECT_NE(std::string(e->get_msg()).find("report.json/below"), std::string::npos) << e->get_msg();
  sc_core::sc_report_handler::clear_cached_report();
}

// SsdOptions::out_dir: the drive streams the CLI's waveform and energy series files as it
// runs; the signals chosen are the only ones in the VCD. A pattern matching nothing is fatal.
TEST(Embed, WritesWaveformsAndTheEnergySeries) {
  tb::reset_kernel();
  const std::string dir = test::temp_dir("embed-files");
  ssdtlm::SsdOptions opts;
  opts.out_dir = dir + "/made";
  opts.vcd = true;
  opts.energy_series = true;
  opts.vcd_signals = {"drive_total", "rail_*"};
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"), opts);
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf(16384, 3);
    tlm::tlm_generic_payload gp;
    sc_time delay;
    for (uint64_t page = 0; page < 8; ++page) {
      set(gp, tlm::TLM_WRITE_COMMAND, page * buf.size(), buf);
      self.socket->b_transport(gp, delay);
    }
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  ssd.finish();
  std::ifstream vcd_in(opts.out_dir + "/current.vcd");
  const std::string vcd((std::istreambuf_iterator<char>(vcd_in)), {});
  EXPECT_NE(vcd.find(" drive_total_ma "), std::string::npos);
  EXPECT_EQ(vcd.find("w0d0"), std::string::npos) << "a die's signal was not chosen";
  std::ifstream series(opts.out_dir + "/energy.csv");
  std::string header, row;
  ASSERT_TRUE(std::getline(series, header));
  EXPECT_TRUE(std::getline(series, row)) << "no window in energy.csv";

  tb::reset_kernel();
  sc_core::sc_report_handler::set_actions(ssdtlm::msg::kConfig, sc_core::SC_FATAL,
                                          sc_core::SC_THROW);
  opts.vcd_signals = {"no_such_signal*"};
  try {
    ssdtlm::Ssd bad("bad", test::source_path("configs/default.json"), opts);
    ADD_FAILURE() << "a pattern matching no signal was taken";
  } catch (const sc_core::sc_report& e) {
    EXPECT_NE(std::string(e.what()).find("SsdOptions::vcd_signals"), std::string::npos) << e.what();
  }
}

TEST(Embed, AConfigThatCannotBeReadIsFatal) {
  tb::reset_kernel();
  sc_core::sc_report_handler::set_actions(ssdtlm::msg::kConfig, sc_core::SC_FATAL,
                                          sc_core::SC_THROW);
  EXPECT_THROW(ssdtlm::Ssd("ssd", "/nonexistent/drive.json"), sc_core::sc_report);
  const nlohmann::json bad = nlohmann::json::parse(R"({"flash": {"channels": "four"}})");
  EXPECT_THROW(ssdtlm::Ssd("ssd2", bad), sc_core::sc_report);
}

}  // namespace
}  // namespace ssd
