// Namespaces (namespaces): the config's layout and rules, workloads naming a namespace, the drive
// placing each namespace's commands in its own range (checked by the scoreboard), figures per
// namespace, preconditioning of what the namespaces cover, and the embedded drive's addresses.
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <ssdtlm/Ssd.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadJob.h"

namespace ssd {
namespace {

constexpr uint64_t kMiB = 1 << 20;

// small_gc (24 MiB logical, 4 KiB pages) with these namespaces.
nlohmann::json small_with(const nlohmann::json& namespaces) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  doc["namespaces"] = namespaces;
  return doc;
}

// db (12 MiB) then logs (8 MiB): 4 MiB of the 24 left over.
const nlohmann::json kTwo = {{{"name", "db"}, {"size_bytes", 12 * kMiB}},
                             {{"name", "logs"}, {"size_bytes", 8 * kMiB}}};

config::DriveConfig two_namespaces() {
  return config::parse_drive_config(small_with(kTwo), "t.json");
}

TEST(Namespaces, FollowOneAnotherFromByteZeroInConfigOrder) {
  const config::DriveConfig cfg = two_namespaces();
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  ASSERT_EQ(layout.size(), 2u);
  EXPECT_EQ(layout[0].name, "db");
  EXPECT_EQ(layout[0].first_byte, 0u);
  EXPECT_EQ(layout[0].size_bytes, 12 * kMiB);
  EXPECT_EQ(layout[1].name, "logs");
  EXPECT_EQ(layout[1].first_byte, 12 * kMiB);
  EXPECT_EQ(layout[1].size_bytes, 8 * kMiB);
  EXPECT_EQ(cfg.allocated_bytes(), 20 * kMiB);
  EXPECT_EQ(cfg.allocated_units(), 20 * kMiB / 4096);
  // The effective config reads back as it was.
  EXPECT_EQ(config::to_json(config::parse_drive_config(config::to_json(cfg), "t.json")),
            config::to_json(cfg));
}

TEST(Namespaces, NoneListedIsOneOfTheWholeCapacity) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  ASSERT_EQ(layout.size(), 1u);
  EXPECT_EQ(layout[0].name, "ns1");
  EXPECT_EQ(layout[0].first_byte, 0u);
  EXPECT_EQ(layout[0].size_bytes, cfg.logical_bytes());
  EXPECT_EQ(cfg.allocated_units(), cfg.logical_units());
}

TEST(Namespaces, BrokenRulesNameTheKey) {
  const auto error = [](const nlohmann::json& ns) {
    return test::config_error(small_with(ns).dump());
  };
  EXPECT_EQ(error({{{"name", "db"}, {"size_bytes", 4097}}}),
            "t.json: namespaces[0].size_bytes: must be a whole number of flash pages (4096 bytes), "
            "got 4097");
  EXPECT_EQ(error({{{"name", "db"}, {"size_bytes", 4096}}, {{"name", "db"}, {"size_bytes", 4096}}}),
            "t.json: namespaces[1].name: \"db\" names two namespaces");
  EXPECT_EQ(
      error(
          {{{"name", "a"}, {"size_bytes", 16 * kMiB}}, {{"name", "b"}, {"size_bytes", 16 * kMiB}}}),
      "t.json: namespaces: the conventional ones' sizes add up to more than the drive's logical "
      "capacity of 25165824 bytes (flash, ftl.overprovisioning and the zoned namespaces' "
      "blocks)");
  EXPECT_NE(error({{{"name", "Data Base"}, {"size_bytes", 4096}}}).find("namespaces[0].name: "),
            std::string::npos);
  EXPECT_NE(error({{{"name", "db"}}}).find("t.json: namespaces[0].size_bytes: "),
            std::string::npos);
  EXPECT_NE(error({{{"name", "db"}, {"size_bytes", 0}}}).find("t.json: namespaces[0].size_bytes: "),
            std::string::npos);
  nlohmann::json many = nlohmann::json::array();
  for (int i = 0; i < 65; ++i)
    many.push_back({{"name", "n" + std::to_string(i)}, {"size_bytes", 4096}});
  EXPECT_EQ(error(many), "t.json: namespaces: lists 65; at most 64");
}

tb::JobSpec job(const std::string& ns, const std::string& offset = "0") {
  const std::vector<std::pair<std::string_view, std::string_view>> keys = {
      {"rw", "randread"}, {"count", "1"}, {"namespace", ns}, {"offset", offset}};
  return tb::parse_job(keys, tb::AddressSpace(two_namespaces().namespace_layout()),
                       tb::JobSyntax{"workload: ", false});
}

std::string job_error(const std::string& ns, const std::string& offset = "0") {
  try {
    job(ns, offset);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Namespaces, AJobNamesItsNamespaceAndItsSpanLiesInIt) {
  const tb::JobSpec logs = job("logs");
  EXPECT_EQ(logs.ns, 1u);
  EXPECT_EQ(logs.size, 8 * kMiB);
  EXPECT_NE(tb::describe_job(logs).find(",namespace=logs"), std::string::npos);
  EXPECT_EQ(job_error("log"),
            "workload: namespace: the drive has no namespace \"log\" (it has db, logs); did you "
            "mean \"logs\"?");
  EXPECT_EQ(job_error("logs", "8m"),
            "workload: offset: at or beyond the capacity of 8388608 bytes of namespace logs, got "
            "\"8m\"");
  EXPECT_EQ(job("db", "8m").size, 4 * kMiB);
}

tb::HostRequest in(uint32_t ns, double at_us, tb::IoOp op, uint64_t offset) {
  tb::HostRequest r = test::request(at_us, op, offset, 4096);
  r.ns = ns;
  return r;
}

// Both namespaces written at the same offsets, logs first, then every page read back: each read
// must return its own namespace's data (the scoreboard keeps the drive's logical capacity, so a
// drive that ignored the namespace would return the other's), and db's pages past those written
// must read as never written though logs' are.
TEST(Namespaces, EachNamespaceKeepsItsOwnData) {
  const config::DriveConfig cfg = two_namespaces();
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 32; ++p) reqs.push_back(in(1, t += 50, tb::IoOp::Write, p * 4096));
  for (uint64_t p = 0; p < 16; ++p) reqs.push_back(in(0, t += 50, tb::IoOp::Write, p * 4096));
  t += 10000;
  for (uint32_t ns : {0u, 1u})
    for (uint64_t p = 0; p < 32; ++p) reqs.push_back(in(ns, t += 50, tb::IoOp::Read, p * 4096));
  // Past the end of logs: wrapped into it, to its first page.
  reqs.push_back(in(1, t += 50, tb::IoOp::Read, 8 * kMiB));
  tb::VectorSource src(reqs);
  const tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 65u);
  ASSERT_EQ(rep["namespaces"].size(), 2u);
  const auto& db = rep["namespaces"][0];
  const auto& logs = rep["namespaces"][1];
  EXPECT_EQ(db["name"], "db");
  EXPECT_EQ(db["first_byte"].get<uint64_t>(), 0u);
  EXPECT_EQ(db["write"].get<uint64_t>(), 16u);
  EXPECT_EQ(db["read"].get<uint64_t>(), 32u);
  EXPECT_EQ(db["write_bytes"].get<uint64_t>(), 16u * 4096);
  EXPECT_EQ(db["wrapped"].get<uint64_t>(), 0u);
  EXPECT_EQ(logs["name"], "logs");
  EXPECT_EQ(logs["first_byte"].get<uint64_t>(), 12 * kMiB);
  EXPECT_EQ(logs["size_bytes"].get<uint64_t>(), 8 * kMiB);
  EXPECT_EQ(logs["write"].get<uint64_t>(), 32u);
  EXPECT_EQ(logs["read"].get<uint64_t>(), 33u);
  EXPECT_EQ(logs["read_bytes"].get<uint64_t>(), 33u * 4096);
  EXPECT_EQ(logs["wrapped"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["requests"]["wrapped"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["drive"]["allocated_bytes"].get<uint64_t>(), 20 * kMiB);
  // Figures of one namespace are of its requests alone.
  EXPECT_EQ(logs["latency_us"]["read"]["count"].get<uint64_t>(), 33u);
  EXPECT_EQ(db["latency_us"]["write"]["count"].get<uint64_t>(), 16u);
}

TEST(Namespaces, ADriveWithoutThemReportsNone) {
  tb::VectorSource src({in(0, 10, tb::IoOp::Write, 0)});
  const tb::RunResult r = tb::run_simulation(test::shipped("small_gc"), src, tb::RunOptions{});
  EXPECT_FALSE(r.report.contains("namespaces"));
  EXPECT_FALSE(r.report["drive"].contains("allocated_bytes"));
}

// What lies past the namespaces is never written: preconditioning fills what they cover.
TEST(Namespaces, PreconditioningFillsWhatTheNamespacesCover) {
  const config::DriveConfig cfg = two_namespaces();
  tb::VectorSource src({in(1, 10, tb::IoOp::Read, 0)});
  tb::RunOptions o;
  o.precondition = true;
  o.precondition_random = 0;
  const tb::RunResult r = tb::run_simulation(cfg, src, o);
  EXPECT_EQ(r.report["precondition"]["pages_written"].get<uint64_t>(), cfg.allocated_units());
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
}

// Random 4 KiB writes into db on a preconditioned drive (GC runs), as `cfg` has it.
tb::RunResult churn_db(const config::DriveConfig& cfg) {
  std::mt19937_64 rng(11);
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (int i = 0; i < 6000; ++i)
    reqs.push_back(in(0, t += 20, tb::IoOp::Write, rng() % (12 * kMiB / 4096) * 4096));
  tb::VectorSource src(reqs);
  tb::RunOptions o;
  o.precondition = true;
  return tb::run_simulation(cfg, src, o);
}

// Each namespace's flash: every programmed page of the page FTL holds one namespace's data (the
// preconditioned data lies in them, the host writes db), so the namespaces' bytes add up to the
// programs; GC moves logs' data too, which its bytes count though the host never writes it.
TEST(Namespaces, EachNamespaceCountsTheFlashItsDataTakes) {
  const tb::RunResult r = churn_db(two_namespaces());
  ASSERT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  const auto& db = r.report["namespaces"][0];
  const auto& logs = r.report["namespaces"][1];
  const uint64_t db_bytes = db["flash_bytes_programmed"].get<uint64_t>();
  const uint64_t logs_bytes = logs["flash_bytes_programmed"].get<uint64_t>();
  ASSERT_GT(r.report["gc"]["victims"].get<uint64_t>(), 0u);
  EXPECT_EQ(db_bytes + logs_bytes, r.report["flash_ops"]["program"].get<uint64_t>() * 4096);
  EXPECT_GT(db_bytes, db["write_bytes"].get<uint64_t>());
  EXPECT_EQ(db["waf"].get<double>(), double(db_bytes) / double(db["write_bytes"].get<uint64_t>()));
  EXPECT_GT(logs_bytes, 0u);
  EXPECT_TRUE(logs["waf"].is_null());
}

// DFTL with 2 KiB units: the units programmed are the namespaces' data, the padding of part-filled
// pages and the translation pages (whole pages), and nothing else.
TEST(Namespaces, PaddingAndTranslationPagesAreNoNamespaces) {
  nlohmann::json doc = small_with(kTwo);
  doc["ftl"]["type"] = "dftl";
  doc["ftl"]["mapping_unit_bytes"] = 2048;
  const tb::RunResult r = churn_db(config::parse_drive_config(doc, "t.json"));
  ASSERT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  const auto& rep = r.report;
  const uint64_t units = (rep["namespaces"][0]["flash_bytes_programmed"].get<uint64_t>() +
                          rep["namespaces"][1]["flash_bytes_programmed"].get<uint64_t>()) /
                         2048;
  const uint64_t padded = rep["flash_ops"]["units_padded"].get<uint64_t>();
  const uint64_t written = rep["dftl"]["translation_writes"].get<uint64_t>();
  const uint64_t moved = rep["dftl"]["translation_moves"].get<uint64_t>();
  ASSERT_GT(written, 0u);
  ASSERT_GT(moved, 0u);
  EXPECT_EQ(units + padded + 2 * (written + moved),
            2 * rep["flash_ops"]["program"].get<uint64_t>());
}

// The embedded drive's addresses: the namespaces back to back; a payload across two is refused.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::vector<tlm::tlm_response_status> got;
  std::vector<unsigned char> read_back;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") { SC_THREAD(run); }
  void send(tlm::tlm_command cmd, uint64_t address, std::vector<unsigned char>& data) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(address);
    gp.set_data_ptr(data.data());
    gp.set_data_length(unsigned(data.size()));
    gp.set_streaming_width(unsigned(data.size()));
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    got.push_back(gp.get_response_status());
  }
  void run() {
    std::vector<unsigned char> page(4096, 0x5a), across(8192, 1);
    send(tlm::TLM_WRITE_COMMAND, 12 * kMiB, page);           // logs' first page
    send(tlm::TLM_WRITE_COMMAND, 12 * kMiB - 4096, across);  // db's last and logs' first
    send(tlm::TLM_WRITE_COMMAND, 20 * kMiB, page);           // past the namespaces
    read_back.assign(4096, 0);
    send(tlm::TLM_READ_COMMAND, 12 * kMiB, read_back);
  }
};

TEST(Namespaces, TheEmbeddedDriveAddressesThemBackToBack) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", small_with(kTwo));
  EXPECT_EQ(ssd.capacity_bytes(), 20 * kMiB);
  Initiator init("init");
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  const std::vector<tlm::tlm_response_status> expected = {
      tlm::TLM_OK_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
      tlm::TLM_OK_RESPONSE};
  EXPECT_EQ(init.got, expected);
  EXPECT_EQ(init.read_back, std::vector<unsigned char>(4096, 0x5a));
  const std::string dir = test::temp_dir("report");
  ssd.write_report(dir);
  const nlohmann::json rep = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  EXPECT_EQ(rep["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 1u);
}

// Traces name their namespace (--trace-namespaces): a trace's volumes as flows, each into its
// own, and several traces, each into its own; every request lands where it was sent.
TEST(Namespaces, TracesAndTheirVolumesNameTheirNamespace) {
  const std::string dir = test::temp_dir("out");
  const std::string spc = test::source_path("traces/umass_financial1.head10k.spc");
  const std::string msr = test::source_path("traces/msr_hm_0.slice.csv");
  const std::string cfg = "--config " + test::source_path("configs/nvme_tlc_1tb.json") +
                          " --set 'namespaces=[{\"name\": \"a\", \"size_bytes\": 68719476736}, "
                          "{\"name\": \"b\", \"size_bytes\": 137438953472}]' --no-series";
  std::string out;
  const auto report = [&] {
    std::ifstream in(dir + "/report.json");
    return nlohmann::json::parse(in);
  };
  ASSERT_EQ(test::run_cli(cfg + " --trace " + spc +
                              " --volume 0,1 --volume-flows --trace-namespaces b,a --out " + dir,
                          out),
            0)
      << out;
  nlohmann::json r = report();
  EXPECT_EQ(r["namespaces"][0]["requests"], 828);   // volume 1
  EXPECT_EQ(r["namespaces"][1]["requests"], 1013);  // volume 0
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  ASSERT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace " + msr +
                              " --trace-namespaces b,a --out " + dir,
                          out),
            0)
      << out;
  r = report();
  EXPECT_EQ(r["namespaces"][1]["requests"], r["traces"][0]["requests"]);
  EXPECT_EQ(r["namespaces"][0]["requests"], r["traces"][1]["requests"]);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);

  ASSERT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace-namespaces b --out " + dir, out), 0)
      << out;
  r = report();
  EXPECT_EQ(r["namespaces"][0]["requests"], 0);
  EXPECT_EQ(r["namespaces"][1]["requests"], r["requests"]["count"]);

  EXPECT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace-namespaces c --out " + dir, out), 2);
  EXPECT_NE(out.find("--trace-namespaces: the drive has no namespace \"c\" (it has a, b)"),
            std::string::npos)
      << out;
  EXPECT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace-namespaces a,b --out " + dir, out),
            2);
  EXPECT_NE(out.find("--trace-namespaces: 2 namespaces for 1 traces"), std::string::npos) << out;
  EXPECT_EQ(
      test::run_cli(cfg + " --workload rw=read,count=1 --trace-namespaces a --out " + dir, out), 2);
  EXPECT_NE(out.find("--trace-namespaces: applies only with --trace"), std::string::npos) << out;
}

}  // namespace
}  // namespace ssd
