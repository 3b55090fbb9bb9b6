#include "model/Controller.h"

#include <algorithm>
#include <chrono>

#include "model/Dram.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/controller";
}

Controller::Controller(sc_core::sc_module_name name, const config::DriveConfig& cfg,
                       EnergyMonitor& monitor)
    : sc_module(name),
      host_socket("host_socket"),
      dram_socket("dram_socket"),
      flash_socket("flash_socket"),
      channels_(cfg.flash.channels),
      logical_pages_(cfg.logical_pages()),
      dram_entry_bytes_(cfg.dram.access_bytes),
      t_cmd_issue_(cfg.controller.t_cmd_issue_us, sc_core::SC_US),
      power_off_when_idle_(cfg.flash.idle_policy == config::NandIdlePolicy::OffWhenIdle),
      dies_off_(power_off_when_idle_),
      firmware_(cfg, *this),
      dram_cfg_(Dram::effective(cfg.dram, cfg.ftl.size_dram_from_table,
                                firmware_.ftl().mapping_table_bytes())),
      commands_("commands"),
      flash_cmd_(*new FlashCommandExt),
      background_gc_(cfg.ftl.background_gc),
      bg_idle_(cfg.ftl.bg_gc_idle_us, sc_core::SC_US),
      ctrl_active_w_(cfg.controller.i_active_ma * 1e-3 * cfg.controller.voltage_v),
      dram_access_j_(dram_cfg_.i_active_ma * 1e-3 * dram_cfg_.voltage_v * dram_cfg_.t_access_ns *
                     1e-9),
      psm_(monitor, "controller", "controller", cfg.controller.voltage_v,
           {{PowerState::Idle, cfg.controller.i_idle_ma},
            {PowerState::Active, cfg.controller.i_active_ma}},
           PowerState::Idle) {
  const auto& f = cfg.flash;
  const double xfer_s = f.page_bytes * f.bus_ns_per_byte * 1e-9;
  const double xfer_j = (f.i_transfer_ma * f.voltage_v + f.i_bus_ma * f.bus_voltage_v) * 1e-3 * xfer_s;
  flash_op_j_ = {f.i_read_ma * 1e-3 * f.voltage_v * f.t_read_us * 1e-6 + xfer_j,
                 f.i_prog_ma * 1e-3 * f.voltage_v * f.t_prog_us * 1e-6 + xfer_j,
                 f.i_erase_ma * 1e-3 * f.voltage_v * f.t_erase_us * 1e-6};
  host_socket.register_nb_transport_fw(this, &Controller::nb_transport_fw);
  // The payloads the firmware sends are reused: b_transport returns before the next one.
  flash_gp_.set_extension(&flash_cmd_);  // the payload owns and frees it
  SC_THREAD(firmware_thread);
  SC_METHOD(power_manager);
  sensitive << idle_check_;
  dont_initialize();
}

tlm::tlm_sync_enum Controller::nb_transport_fw(tlm::tlm_generic_payload& gp,
                                               tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(kMsgId, "unexpected phase from the host interface");
  ++queued_;
  commands_.notify(gp, delay);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void Controller::start_of_simulation() {
  if (!precondition_) return;
  const auto wall_start = std::chrono::steady_clock::now();
  functional_ = true;
  const uint64_t page = firmware_.page_bytes();
  const uint64_t pages = logical_pages_;
  fw::HostCommand cmd{fw::CommandOp::Write, 0, page, 0};  // version 0: "never written" data
  try {
    for (uint64_t lpn = 0; lpn < pages; ++lpn) {
      cmd.offset_bytes = lpn * page;
      firmware_.execute(cmd, nullptr);
    }
    const uint64_t random = uint64_t(precondition_random_ * double(pages));
    uint64_t x = 0x9e3779b97f4a7c15ull;  // fixed seed: repeatable
    for (uint64_t i = 0; i < random; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      cmd.offset_bytes = (x % pages) * page;
      firmware_.execute(cmd, nullptr);
    }
    precondition_stats_.pages_written = pages + random;
    precondition_stats_.random_fraction = precondition_random_;
    precondition_stats_.done = true;
  } catch (const std::exception& e) {
    SC_REPORT_ERROR(kMsgId, (std::string("precondition: firmware: ") + e.what()).c_str());
  }
  functional_ = false;
  firmware_.reset_stats();
  counters_ = FlashCounters{};
  by_work_j_.fill(0.0);
  precondition_stats_.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
}

void Controller::firmware_thread() {
  for (;;) {
    // Without background GC (or with nothing left for it, or a command on its way), one wait
    // per wake-up, as always.
    if (bg_armed_ && queued_ == 0) {
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      sc_core::wait(std::max(cursor_ + bg_idle_, now) - now, commands_.get_event());
    } else {
      sc_core::wait(commands_.get_event());
    }
    try {
      const auto serve = [this] {
        bool served = false;
        while (tlm::tlm_generic_payload* gp = commands_.get_next_transaction()) {
          handle(*gp);
          served = true;
        }
        if (served) bg_armed_ = background_gc_;
        return served;
      };
      if (!serve() && bg_armed_ && queued_ == 0 &&
          sc_core::sc_time_stamp() >= cursor_ + bg_idle_) {
        background_gc();
        serve();  // a command that stopped it has already had its wake-up
      }
    } catch (const sc_core::sc_report&) {
      throw;
    } catch (const std::exception& e) {
      // A firmware failure (e.g. no block left to reclaim) is a model error like any other.
      SC_REPORT_ERROR(kMsgId, (std::string("firmware: ") + e.what()).c_str());
    }
  }
}

void Controller::handle(tlm::tlm_generic_payload& gp) {
  --queued_;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (dies_off_) set_dies_power(true);
  auto* ext = gp.get_extension<HostCommandExt>();
  if (!ext) SC_REPORT_FATAL(kMsgId, "host command without a HostCommandExt");
  cursor_ = std::max(cursor_, now);
  const sc_core::sc_time start = cursor_;
  const sc_core::sc_time done =
      firmware_.execute(ext->cmd, ext->cmd.op == fw::CommandOp::Read ? &ext->read_data : nullptr);
  psm_.occupy(PowerState::Active, start, cursor_);
  horizon_ = std::max({horizon_, done, cursor_});
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = done - now;
  host_socket->nb_transport_bw(gp, phase, delay);
  if (power_off_when_idle_) {
    idle_check_.cancel();
    idle_check_.notify(horizon_ - now);
  }
}

void Controller::background_gc() {
  while (queued_ == 0) {
    if (dies_off_) set_dies_power(true);
    cursor_ = std::max(cursor_, sc_core::sc_time_stamp());
    const sc_core::sc_time start = cursor_;
    const bool more = firmware_.background_step();
    psm_.occupy(PowerState::Active, start, cursor_);
    horizon_ = std::max(horizon_, cursor_);
    if (!more) bg_armed_ = false;
    if (power_off_when_idle_) {
      idle_check_.cancel();
      idle_check_.notify(horizon_ - sc_core::sc_time_stamp());
    }
    if (!more) return;
    // Let simulated time reach the end of this victim's work: a command sent meanwhile
    // stops the next one.
    sc_core::wait(cursor_ - sc_core::sc_time_stamp(), commands_.get_event());
  }
}

void Controller::power_manager() {
  if (!dies_off_ && queued_ == 0 && sc_core::sc_time_stamp() >= horizon_) set_dies_power(false);
}

void Controller::set_dies_power(bool on) {
  flash_cmd_.op = on ? FlashOp::PowerOn : FlashOp::PowerOff;
  for (uint32_t ch = 0; ch < channels_; ++ch) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    flash_socket[ch]->b_transport(flash_gp_, delay);
  }
  dies_off_ = !on;
}

void Controller::compute(const sc_core::sc_time& duration) {
  if (functional_) return;
  cursor_ += duration;
  by_work_j_[static_cast<std::size_t>(work())] += ctrl_active_w_ * duration.to_seconds();
}

void Controller::dram_access(uint32_t entries, bool write) {
  if (functional_) return;
  dram_gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  dram_gp_.set_data_length(entries * dram_entry_bytes_);
  sc_core::sc_time delay = cursor_ - sc_core::sc_time_stamp();
  dram_socket->b_transport(dram_gp_, delay);
  const sc_core::sc_time done = sc_core::sc_time_stamp() + delay;
  // The core waits for the DRAM.
  by_work_j_[static_cast<std::size_t>(work())] +=
      ctrl_active_w_ * (done - cursor_).to_seconds() + entries * dram_access_j_;
  cursor_ = done;
}

sc_core::sc_time Controller::issue(FlashOp op, const fw::Ppa& ppa,
                                   const sc_core::sc_time& earliest) {
  if (functional_) {
    flash_cmd_.op = op;
    flash_cmd_.ppa = ppa;
    flash_cmd_.die_in_channel = ppa.die / channels_;
    flash_socket[ppa.die % channels_]->transport_dbg(flash_gp_);
    return sc_core::SC_ZERO_TIME;
  }
  compute(t_cmd_issue_);
  by_work_j_[static_cast<std::size_t>(work())] +=
      flash_op_j_[op == FlashOp::Read ? 0 : op == FlashOp::Program ? 1 : 2];
  flash_cmd_.op = op;
  flash_cmd_.ppa = ppa;
  flash_cmd_.die_in_channel = ppa.die / channels_;
  sc_core::sc_time delay = std::max(cursor_, earliest) - sc_core::sc_time_stamp();
  flash_socket[ppa.die % channels_]->b_transport(flash_gp_, delay);
  if (flash_gp_.get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_FATAL(kMsgId, "flash command failed");
  const sc_core::sc_time end = sc_core::sc_time_stamp() + delay;
  horizon_ = std::max(horizon_, end);
  return end;
}

sc_core::sc_time Controller::flash_read(const fw::Ppa& ppa, fw::PageToken& out) {
  ++counters_.reads;
  const sc_core::sc_time end = issue(FlashOp::Read, ppa, sc_core::SC_ZERO_TIME);
  out = flash_cmd_.data;
  return end;
}

sc_core::sc_time Controller::flash_program(const fw::Ppa& ppa, const fw::PageToken& data,
                                           const sc_core::sc_time& data_ready) {
  ++counters_.programs;
  flash_cmd_.data = data;
  return issue(FlashOp::Program, ppa, data_ready);
}

sc_core::sc_time Controller::flash_erase(uint32_t die, uint32_t block) {
  ++counters_.erases;
  return issue(FlashOp::Erase, fw::Ppa{die, block, 0}, sc_core::SC_ZERO_TIME);
}

}  // namespace ssd::model
