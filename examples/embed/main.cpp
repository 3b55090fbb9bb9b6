// A small virtual platform with ssdtlm inside (docs/embedding.md): two initiators, each with
// a drive of its own on its socket.
//   lt_cpu: loosely timed, temporally decoupled through tlm_quantumkeeper; writes a pattern
//           with b_transport, flushes, reads it back.
//   at_dma: approximately timed; keeps several writes in flight with nb_transport_fw (the next
//           BEGIN_REQ after END_REQ, each with a start delay), then reads them back.
// Every byte read must be the byte written: the exit status says whether it was. Each drive
// then writes its report: OUT/lt_drive/report.json, OUT/at_drive/report.json, and prints its
// summary; the LT drive also writes OUT/lt_drive/current.vcd and energy.csv as it runs.
//   embed <drive config.json> [OUT]    (OUT: default embed-report)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <ssdtlm/Ssd.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace {

constexpr unsigned kBlock = 4096;
constexpr unsigned kBlocks = 64;

unsigned char pattern(uint64_t address, unsigned salt) {
  return static_cast<unsigned char>((address * 131 + salt) >> 3);
}

void fill(std::vector<unsigned char>& buf, uint64_t address, unsigned salt) {
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = pattern(address + i, salt);
}

uint64_t mismatches(const std::vector<unsigned char>& buf, uint64_t address, unsigned salt) {
  uint64_t bad = 0;
  for (std::size_t i = 0; i < buf.size(); ++i) bad += buf[i] != pattern(address + i, salt);
  return bad;
}

void prepare(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t address,
             std::vector<unsigned char>& buf) {
  gp.set_command(cmd);
  gp.set_address(address);
  gp.set_data_ptr(buf.data());
  gp.set_data_length(unsigned(buf.size()));
  gp.set_streaming_width(unsigned(buf.size()));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

struct LtCpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<LtCpu> socket{"socket"};
  uint64_t bad = 0;

  SC_HAS_PROCESS(LtCpu);
  explicit LtCpu(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }

  void transport(tlm::tlm_generic_payload& gp, tlm_utils::tlm_quantumkeeper& qk) {
    sc_core::sc_time delay = qk.get_local_time();  // runs ahead of the kernel
    socket->b_transport(gp, delay);
    qk.set(delay);
    if (!gp.is_response_ok()) {
      std::printf("lt_cpu: %s at %llu\n", gp.get_response_string().c_str(),
                  static_cast<unsigned long long>(gp.get_address()));
      ++bad;
    }
  }

  void run() {
    tlm_utils::tlm_quantumkeeper::set_global_quantum(sc_core::sc_time(10, sc_core::SC_US));
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    tlm::tlm_generic_payload gp;
    std::vector<unsigned char> buf(kBlock);
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    for (unsigned b = 0; b < kBlocks; ++b) {
      fill(buf, uint64_t(b) * kBlock, 1);
      prepare(gp, tlm::TLM_WRITE_COMMAND, uint64_t(b) * kBlock, buf);
      transport(gp, qk);
      qk.inc(sc_core::sc_time(200, sc_core::SC_NS));  // the CPU's own work between commands
      if (qk.need_sync()) qk.sync();
    }
    ssdtlm::BlockCommand flush(ssdtlm::BlockCommand::Op::Flush);
    prepare(gp, tlm::TLM_IGNORE_COMMAND, 0, buf);
    gp.set_extension(&flush);
    transport(gp, qk);
    gp.clear_extension(&flush);
    for (unsigned b = 0; b < kBlocks; ++b) {
      prepare(gp, tlm::TLM_READ_COMMAND, uint64_t(b) * kBlock, buf);
      transport(gp, qk);
      bad += mismatches(buf, uint64_t(b) * kBlock, 1);
    }
    qk.sync();
    std::printf("lt_cpu: %u blocks written and read back in %.1f us, %llu bad bytes\n", kBlocks,
                (sc_core::sc_time_stamp() - start).to_seconds() * 1e6,
                static_cast<unsigned long long>(bad));
  }
};

struct AtDma : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<AtDma> socket{"socket"};
  uint64_t bad = 0;

  SC_HAS_PROCESS(AtDma);
  explicit AtDma(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &AtDma::bw);
    SC_THREAD(run);
  }

  // Sends every payload, each once the one before has been taken (END_REQ), then waits for
  // all of them to complete.
  void issue(std::vector<tlm::tlm_generic_payload>& gps) {
    completed_ = 0;
    for (auto& gp : gps) {
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay(1, sc_core::SC_US);  // the request starts 1 us from now
      const tlm::tlm_sync_enum s = socket->nb_transport_fw(gp, phase, delay);
      if (s == tlm::TLM_COMPLETED) {
        ++completed_;  // refused at once: its status says why
        continue;
      }
      if (!(s == tlm::TLM_UPDATED && phase == tlm::END_REQ)) sc_core::wait(end_req_);
    }
    while (completed_ < gps.size()) sc_core::wait(done_);
    for (auto& gp : gps)
      if (!gp.is_response_ok()) ++bad;
  }

  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::END_REQ) {
      end_req_.notify();
      return tlm::TLM_ACCEPTED;
    }
    ++completed_;  // BEGIN_RESP: the transaction ends here
    done_.notify();
    return tlm::TLM_COMPLETED;
  }

  void run() {
    const uint64_t base = uint64_t(kBlocks) * kBlock * 4;
    std::vector<std::vector<unsigned char>> bufs(kBlocks, std::vector<unsigned char>(kBlock));
    std::vector<tlm::tlm_generic_payload> gps(kBlocks);
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    for (unsigned b = 0; b < kBlocks; ++b) {
      fill(bufs[b], base + uint64_t(b) * kBlock, 2);
      prepare(gps[b], tlm::TLM_WRITE_COMMAND, base + uint64_t(b) * kBlock, bufs[b]);
    }
    issue(gps);
    for (unsigned b = 0; b < kBlocks; ++b) {
      std::memset(bufs[b].data(), 0, kBlock);
      prepare(gps[b], tlm::TLM_READ_COMMAND, base + uint64_t(b) * kBlock, bufs[b]);
    }
    issue(gps);
    for (unsigned b = 0; b < kBlocks; ++b)
      bad += mismatches(bufs[b], base + uint64_t(b) * kBlock, 2);
    std::printf("at_dma: %u blocks written and read back in %.1f us, %llu bad bytes\n", kBlocks,
                (sc_core::sc_time_stamp() - start).to_seconds() * 1e6,
                static_cast<unsigned long long>(bad));
  }

 private:
  std::size_t completed_ = 0;
  sc_core::sc_event end_req_, done_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: embed <drive config.json> [OUT]\n");
    return 2;
  }
  const std::string out = argc == 3 ? argv[2] : "embed-report";
  // The LT drive also writes its current waveforms and energy series beside its report.
  ssdtlm::SsdOptions with_waveforms;
  with_waveforms.out_dir = out + "/lt_drive";
  with_waveforms.vcd = true;
  with_waveforms.energy_series = true;
  ssdtlm::Ssd lt_drive("lt_drive", argv[1], with_waveforms);
  ssdtlm::Ssd at_drive("at_drive", argv[1]);
  LtCpu cpu("lt_cpu");
  AtDma dma("at_dma");
  cpu.socket.bind(lt_drive.socket());
  dma.socket.bind(at_drive.socket());
  sc_core::sc_start();
  for (ssdtlm::Ssd* d : {&lt_drive, &at_drive}) {
    d->write_report(out + "/" + d->basename());
    std::printf(
        "%s: %.6f J, %.3f W on average, %.3f W peak, %.0f flash programs; %s/%s/report.json\n",
        d->name(), d->energy_j(), d->average_power_w(), d->peak_power_w(),
        d->figure("flash_ops", "program").value_or(0), out.c_str(), d->basename());
    std::printf("%s", d->summary().c_str());
  }
  const bool ok = cpu.bad == 0 && dma.bad == 0;
  std::printf("%s\n", ok ? "data intact" : "DATA MISMATCH");
  return ok ? 0 : 1;
}
