// ssdtlm::Ssd's block commands as a platform sends them (docs/embedding.md): payloads the
// drive refuses and their base-protocol statuses, data read back through the backing store,
// the scoreboard's checks of whole commands, and writes' placement identifiers.
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ip/Scoreboard.h"
#include "ssdtlm/Ssd.h"
#include "tb/run/Simulation.h"
#include "tb/tests/EmbedRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using sc_core::sc_time;
using test::Initiator;
using test::report_of;
using test::set;

TEST(Embed, RefusedPayloadsGetTheBaseProtocolStatus) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  const uint64_t cap = ssd.capacity_bytes();
  std::vector<std::pair<std::string, tlm::tlm_response_status>> got;
  Initiator init("init", [&](Initiator& self) {
    std::vector<unsigned char> buf(4096);
    unsigned char enables[4] = {0xff, 0xff, 0xff, 0xff};
    tlm::tlm_generic_payload gp;
    auto b = [&](const std::string& what) {
      sc_time delay = sc_core::SC_ZERO_TIME;
      self.socket->b_transport(gp, delay);
      got.emplace_back(what, gp.get_response_status());
    };
    set(gp, tlm::TLM_READ_COMMAND, cap - 1024, buf);
    b("read past the end");
    set(gp, tlm::TLM_WRITE_COMMAND, ~uint64_t(0) - 10, buf);
    b("write at a wrapping address");
    set(gp, tlm::TLM_READ_COMMAND, 0, buf);
    gp.set_command(tlm::tlm_command(3));  // the one value besides the three the enum holds
    b("unknown command");
    set(gp, tlm::TLM_WRITE_COMMAND, 0, buf);
    gp.set_byte_enable_ptr(enables);
    gp.set_byte_enable_length(4);
    b("byte enables");
    set(gp, tlm::TLM_WRITE_COMMAND, 0, buf);
    gp.set_streaming_width(512);
    b("streaming burst");
    set(gp, tlm::TLM_READ_COMMAND, 0, buf);
    gp.set_data_ptr(nullptr);
    b("no data");
    set(gp, tlm::TLM_IGNORE_COMMAND, 0, buf);
    b("ignore");
    ssdtlm::BlockCommand trim(ssdtlm::BlockCommand::Op::Trim);
    set(gp, tlm::TLM_IGNORE_COMMAND, cap, buf);
    gp.set_extension(&trim);
    b("trim past the end");
    gp.clear_extension(&trim);
    // The AT path answers at once, TLM_COMPLETED.
    set(gp, tlm::TLM_WRITE_COMMAND, cap, buf);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(self.socket->nb_transport_fw(gp, phase, delay), tlm::TLM_COMPLETED);
    got.emplace_back("nb write past the end", gp.get_response_status());
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  const std::vector<std::pair<std::string, tlm::tlm_response_status>> expected = {
      {"read past the end", tlm::TLM_ADDRESS_ERROR_RESPONSE},
      {"write at a wrapping address", tlm::TLM_ADDRESS_ERROR_RESPONSE},
      {"unknown command", tlm::TLM_COMMAND_ERROR_RESPONSE},
      {"byte enables", tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE},
      {"streaming burst", tlm::TLM_BURST_ERROR_RESPONSE},
      {"no data", tlm::TLM_GENERIC_ERROR_RESPONSE},
      {"ignore", tlm::TLM_OK_RESPONSE},
      {"trim past the end", tlm::TLM_ADDRESS_ERROR_RESPONSE},
      {"nb write past the end", tlm::TLM_ADDRESS_ERROR_RESPONSE}};
  EXPECT_EQ(got, expected);
}

// Writes (unaligned, across pages), a trim and reads: the bytes come back as written.
TEST(Embed, BackingStoreReadsBackWhatWasWritten) {
  tb::reset_kernel();
  ssdtlm::Ssd ssd("ssd", test::source_path("configs/default.json"));
  Initiator init("init", [&](Initiator& self) {
    tlm::tlm_generic_payload gp;
    std::vector<unsigned char> a(10000), b(3000), r(20000);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(i * 7 + 1);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<unsigned char>(i * 13 + 5);
    sc_time delay;
    set(gp, tlm::TLM_WRITE_COMMAND, 1000, a);
    self.socket->b_transport(gp, delay);
    set(gp, tlm::TLM_WRITE_COMMAND, 5000, b);
    self.socket->b_transport(gp, delay);
    std::vector<unsigned char> none(4096);
    ssdtlm::BlockCommand trim(ssdtlm::BlockCommand::Op::Trim);
    set(gp, tlm::TLM_IGNORE_COMMAND, 8192, none);
    gp.set_extension(&trim);
    self.socket->b_transport(gp, delay);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    gp.clear_extension(&trim);
    set(gp, tlm::TLM_READ_COMMAND, 0, r);
    self.socket->b_transport(gp, delay);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    std::vector<unsigned char> expected(20000, 0);
    std::memcpy(expected.data() + 1000, a.data(), a.size());
    std::memcpy(expected.data() + 5000, b.data(), b.size());
    std::fill(expected.begin() + 8192, expected.begin() + 12288, 0);
    EXPECT_EQ(r, expected);
    // Debug transport reads the same bytes, in no time.
    std::vector<unsigned char> d(20000);
    set(gp, tlm::TLM_READ_COMMAND, 0, d);
    EXPECT_EQ(self.socket->transport_dbg(gp), 20000u);
    EXPECT_EQ(d, expected);
  });
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
}

// small_gc with flexible data placement (two handles) or without, played by `play` through the
// socket: its report.json.
nlohmann::json placement_run(bool fdp, const std::function<void(Initiator&)>& play) {
  tb::reset_kernel();
  nlohmann::json cfg = config::read_config_json(test::source_path("configs/small_gc.json"));
  cfg["ftl"]["fdp"] = {{"enabled", fdp}, {"handles", 2}};
  ssdtlm::Ssd ssd("ssd", cfg);
  Initiator init("init", play);
  init.socket.bind(ssd.socket());
  sc_core::sc_start();
  return report_of(ssd, "report");
}

// Flexible data placement through the socket (ssdtlm::WritePlacement): a write goes to the
// handle it names, one past the handles to handle 0 and counted; a drive without FDP refuses it.
TEST(Embed, WritesCarryTheirPlacementIdentifier) {
  for (const bool fdp : {true, false}) {
    const nlohmann::json r = placement_run(fdp, [&](Initiator& self) {
      std::vector<unsigned char> buf(4096, 9);
      tlm::tlm_generic_payload gp;
      sc_time delay;
      ssdtlm::WritePlacement placement;
      gp.set_extension(&placement);
      for (const uint16_t id : {1, 1, 9}) {
        placement.identifier = id;
        set(gp, tlm::TLM_WRITE_COMMAND, id * 4096, buf);
        self.socket->b_transport(gp, delay);
        EXPECT_EQ(gp.get_response_status(),
                  fdp ? tlm::TLM_OK_RESPONSE : tlm::TLM_COMMAND_ERROR_RESPONSE);
      }
      gp.clear_extension(&placement);
    });
    if (!fdp) {
      EXPECT_EQ(r["requests"]["refused"].get<uint64_t>(), 3u);
      EXPECT_FALSE(r.contains("fdp"));
      continue;
    }
    EXPECT_EQ(r["fdp"]["invalid_placement_ids"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["fdp"]["per_handle"][1]["host_bytes"].get<double>(), 2 * 4096.0);
    EXPECT_EQ(r["fdp"]["per_handle"][0]["host_bytes"].get<double>(), 4096.0);
  }
}

// A Reclaim Unit Handle Update through the socket (ssdtlm::BlockCommand::Op::PlacementUpdate, the
// identifier in ssdtlm::WritePlacement): done on an FDP drive, refused with the identifier past
// the handles (NVMe Invalid Placement Handle List) and on a drive without FDP.
TEST(Embed, PlacementUpdatesMoveAHandleOn) {
  for (const bool fdp : {true, false}) {
    const nlohmann::json r = placement_run(fdp, [&](Initiator& self) {
      std::vector<unsigned char> buf(4096, 9);
      tlm::tlm_generic_payload gp;
      sc_time delay;
      ssdtlm::WritePlacement placement(1);
      gp.set_extension(&placement);
      if (fdp) {
        set(gp, tlm::TLM_WRITE_COMMAND, 0, buf);
        self.socket->b_transport(gp, delay);
        EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
      }
      ssdtlm::BlockCommand update(ssdtlm::BlockCommand::Op::PlacementUpdate);
      gp.set_extension(&update);
      for (const uint16_t id : {1, 2}) {
        placement.identifier = id;
        gp.set_command(tlm::TLM_IGNORE_COMMAND);
        gp.set_address(0);
        gp.set_data_length(0);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        self.socket->b_transport(gp, delay);
        EXPECT_EQ(gp.get_response_status(), !fdp      ? tlm::TLM_COMMAND_ERROR_RESPONSE
                                            : id == 1 ? tlm::TLM_OK_RESPONSE
                                                      : tlm::TLM_GENERIC_ERROR_RESPONSE)
            << id;
      }
      gp.clear_extension(&update);
      gp.clear_extension(&placement);
    });
    if (!fdp) {
      EXPECT_EQ(r["requests"]["refused"].get<uint64_t>(), 2u);
      continue;
    }
    EXPECT_EQ(r["requests"]["placement_update"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["requests"]["failed_status"].get<uint64_t>(), 1u);
    EXPECT_EQ(r["fdp"]["placement_updates"].get<uint64_t>(), 1u);
    const nlohmann::json& h = r["fdp"]["per_handle"][1];
    EXPECT_EQ(h["ruh_updates"].get<uint64_t>(), 1u);
    EXPECT_EQ(h["events"]["ru_not_written_to_capacity"].get<uint64_t>(), 1u);
    EXPECT_EQ(h["unwritten_bytes"].get<double>(), 31 * 4096.0);  // one block opened, one page
  }
}

// The target's scoreboard by whole commands: a partial write updates every page it touches,
// a trim only those it covers whole; a read must return each page's last version.
TEST(Embed, ScoreboardChecksWholeCommands) {
  ip::Scoreboard sb(64);
  const auto command = [](fw::CommandOp op, uint64_t offset, uint64_t length, uint64_t version) {
    fw::HostCommand c;
    c.op = op;
    c.offset_bytes = offset;
    c.length_bytes = length;
    c.version = version;
    return c;
  };
  const auto run = [&](const fw::HostCommand& c, const std::vector<fw::PageToken>& read) {
    std::vector<ip::Scoreboard::Watch> w;
    sb.command_issued(c, 4096, w);
    sb.command_completed(c, w, read, false);
    return w.size();
  };
  EXPECT_EQ(run(command(fw::CommandOp::Write, 1000, 8000, 7), {}), 3u);  // pages 0-2
  EXPECT_EQ(run(command(fw::CommandOp::Trim, 2048, 8192, 0), {}), 1u);   // page 1 whole
  EXPECT_EQ(run(command(fw::CommandOp::Flush, 0, 0, 0), {}), 0u);
  EXPECT_EQ(run(command(fw::CommandOp::Read, 0, 12288, 0), {{0, 7}, {1, 0}, {2, 7}}), 3u);
  EXPECT_EQ(sb.mismatches(), 0u);
  run(command(fw::CommandOp::Read, 4096, 4096, 0), {{1, 7}});  // the trimmed page's old data
  EXPECT_EQ(sb.mismatches(), 1u);
  EXPECT_EQ(sb.pages_checked(), 4u);
}

}  // namespace
}  // namespace ssd
