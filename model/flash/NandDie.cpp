#include "model/flash/NandDie.h"

#include <algorithm>

#include "common/SimNow.h"

namespace ssd::model {
namespace {

constexpr const char* kMsgId = "/ssdtlm/nand";

// A skipped page's packed token: no real token packs to all ones (logical pages are below
// twice the page count).
constexpr uint64_t kSkipped = ~uint64_t{0};
constexpr uint64_t kFailed = ~uint64_t{0} - 1;  // a page whose program failed

std::vector<StateCurrent> die_states(const config::FlashConfig& c, bool spare_reads) {
  std::vector<StateCurrent> states = {
      {PowerState::Off, c.i_off_ma},     {PowerState::Idle, c.i_idle_ma},
      {PowerState::Read, c.i_read_ma},   {PowerState::Program, c.i_prog_ma},
      {PowerState::Erase, c.i_erase_ma}, {PowerState::Transfer, c.i_transfer_ma}};
  if (c.multiplane) {
    states.push_back({PowerState::ReadMultiplane, c.i_read_multiplane_ma});
    states.push_back({PowerState::ProgramMultiplane, c.i_prog_multiplane_ma});
    states.push_back({PowerState::EraseMultiplane, c.i_erase_multiplane_ma});
  } else if (c.independent_plane_reads) {
    // Two or more planes sensing at once draw the multi-plane read's current.
    states.push_back({PowerState::ReadMultiplane, c.i_read_multiplane_ma});
  }
  if (c.program_unit == config::ProgramUnit::WordLine) {
    states.push_back({PowerState::ProgramWordLine, c.i_prog_word_line_ma});
    if (c.multiplane)
      states.push_back({PowerState::ProgramWordLineMultiplane, c.i_prog_word_line_multiplane_ma});
  }
  if (spare_reads) states.push_back({PowerState::SpareRead, c.i_oob_read_ma});
  return states;
}

// Array time per page type (the per-type list, or the one figure for every type), then the
// SLC-mode time.
std::vector<sc_core::sc_time> by_page_type(const std::vector<double>& per_type_us, double us,
                                           uint32_t types, double slc_us) {
  std::vector<sc_core::sc_time> out;
  for (uint32_t t = 0; t < types; ++t)
    out.emplace_back(per_type_us.empty() ? us : per_type_us[t], sc_core::SC_US);
  out.emplace_back(slc_us, sc_core::SC_US);
  return out;
}

// Program times: by page type, or with one-shot programming a word line's (every native
// program is one: its group of pages starts at the word line's first).
std::vector<sc_core::sc_time> program_times(const config::FlashConfig& cfg) {
  std::vector<sc_core::sc_time> out = by_page_type(cfg.t_prog_by_page_type_us, cfg.t_prog_us,
                                                   cfg.bits_per_cell(), cfg.t_prog_slc_us);
  if (cfg.program_unit == config::ProgramUnit::WordLine)
    std::fill(out.begin(), out.end() - 1,
              sc_core::sc_time(cfg.t_prog_word_line_us, sc_core::SC_US));
  return out;
}

}  // namespace

NandDie::NandDie(sc_core::sc_module_name name, const config::FlashConfig& cfg,
                 uint32_t units_per_page, bool spare_reads, EnergyMonitor& monitor,
                 const std::string& power_name)
    : sc_module(name),
      socket("socket"),
      pages_per_block_(cfg.pages_per_block),
      units_(units_per_page),
      page_types_(cfg.bits_per_cell()),
      // Below twice the unit count: host units, and the DFTL's translation pages after them.
      version_bits_(64 - unsigned(64 - __builtin_clzll(2 * cfg.total_pages() * units_per_page))),
      t_read_(
          by_page_type(cfg.t_read_by_page_type_us, cfg.t_read_us, page_types_, cfg.t_read_slc_us)),
      t_prog_(program_times(cfg)),
      extra_pe_(cfg.reliability.pe_cycles),
      age_days_(cfg.reliability.retention_days),
      t_erase_(cfg.t_erase_us, sc_core::SC_US),
      t_suspend_(cfg.t_suspend_us, sc_core::SC_US),
      t_resume_(cfg.t_resume_us, sc_core::SC_US),
      t_oob_read_(cfg.t_oob_read_us, sc_core::SC_US),
      word_line_pages_(cfg.program_pages()),
      faults_(cfg.faults),
      blocks_(cfg.blocks_per_die()),
      tokens_(std::size_t(cfg.blocks_per_die()) * cfg.pages_per_block * units_per_page),
      psm_(monitor, power_name, "nand", cfg.voltage_v, die_states(cfg, spare_reads),
           cfg.idle_policy == config::NandIdlePolicy::OffWhenIdle ? PowerState::Off
                                                                  : PowerState::Idle) {
  socket.bind(*this);
  if (cfg.reliability.enabled) {
    errors_ = std::make_unique<flash::BitErrors>(cfg.reliability, page_types_,
                                                 cfg.page_bytes / units_per_page);
    ages_.resize(blocks_.size());
    if (cfg.reliability.run_temperature == config::RunTemperature::Die) {
      if (!monitor.thermal() || !monitor.thermal()->meters_retention())
        SC_REPORT_FATAL(kMsgId,
                        "flash.reliability.run_temperature \"die\": the energy monitor's "
                        "thermal model does not meter retention (thermal.enabled)");
      meter_ = &monitor;
      thermal_node_ = monitor.thermal()->node_of(power_name, "nand");
    }
    for (const config::RetryStepConfig& s : cfg.reliability.retry_steps)
      t_retry_.emplace_back(s.t_read_us, sc_core::SC_US);
  }
  for (const StateCurrent& s : die_states(cfg, spare_reads))
    power_w_[std::size_t(s.state)] = s.current_ma * 1e-3 * cfg.voltage_v;
}

void NandDie::violation(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd,
                        const std::string& what) {
  gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  const std::string msg = std::string(name()) + ": NAND rule violated: " + what + " (die " +
                          std::to_string(cmd.ppa.die) + ", block " + std::to_string(cmd.ppa.block) +
                          ", page " + std::to_string(cmd.ppa.page) + ", at " +
                          sim_now().to_string() + ")";
  SC_REPORT_ERROR(kMsgId, msg.c_str());
  throw std::logic_error(msg);  // only reached if the report action was changed from throw
}

NandDie::Block& NandDie::block_of(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd) {
  if (cmd.ppa.block >= blocks_.size())
    violation(
        gp, cmd,
        "block address out of range (the die has " + std::to_string(blocks_.size()) + " blocks)");
  const uint32_t pages = cmd.slc ? pages_per_block_ / page_types_ : pages_per_block_;
  if (cmd.ppa.page >= pages)
    violation(gp, cmd,
              "page address out of range (blocks have " + std::to_string(pages) + " pages" +
                  (cmd.slc ? " in SLC mode)" : ")"));
  return blocks_[cmd.ppa.block];
}

std::string NandDie::mode_mismatch(const Block& b) {
  return std::string("the block was programmed in ") + (b.slc ? "SLC" : "native") +
         " mode since its erase; the command uses the other";
}

uint64_t NandDie::pack(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd,
                       const fw::PageToken& t) {
  if (t.lpn >> (64 - version_bits_) != 0 || t.version >> version_bits_ != 0)
    violation(gp, cmd,
              "data of logical page " + std::to_string(t.lpn) + ", version " +
                  std::to_string(t.version) + " does not fit the die's " +
                  std::to_string(version_bits_) + "-bit versions");
  return t.lpn << version_bits_ | t.version;
}

void NandDie::apply(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd) {
  Block& b = block_of(gp, cmd);
  if (b.bad) violation(gp, cmd, "command on a bad block (its erase failed, flash.faults)");
  if (b.program_failed && (cmd.op == FlashOp::ArrayProgram || cmd.op == FlashOp::ArrayErase))
    violation(gp, cmd,
              "program or erase of a block whose program failed (flash.faults): the firmware "
              "moves its data out and retires it");
  uint64_t* const data = block_tokens(cmd.ppa.block);
  switch (cmd.op) {
    case FlashOp::ArrayRead:
      if (cmd.ppa.page >= b.next_page || data[std::size_t(cmd.ppa.page) * units_] == kSkipped)
        violation(gp, cmd, "read of a page that is not programmed");
      if (data[std::size_t(cmd.ppa.page) * units_] == kFailed)
        violation(gp, cmd, "read of a page whose program failed (flash.faults)");
      if (cmd.slc != b.slc) violation(gp, cmd, mode_mismatch(b));
      if (cmd.unit >= units_) violation(gp, cmd, "read of a unit the page does not have");
      cmd.data = unpack(data[std::size_t(cmd.ppa.page) * units_ + cmd.unit]);
      if (errors_ && !cmd.spare && !cmd.functional) draw_errors(b, cmd);
      break;
    case FlashOp::ArrayProgram:
      if (cmd.ppa.page < b.next_page)
        violation(gp, cmd,
                  data[std::size_t(cmd.ppa.page) * units_] == kSkipped
                      ? "pages of a block must be programmed in ascending order: page " +
                            std::to_string(b.next_page - 1) + " is programmed"
                      : std::string("program of a page that is not erased"));
      if (b.next_page == 0) {
        b.slc = cmd.slc;
        age_from(cmd.ppa.block, sim_now(), cmd.functional);
      }
      if (cmd.slc != b.slc) violation(gp, cmd, mode_mismatch(b));
      if (cmd.units != units_)
        violation(gp, cmd,
                  "a program of " + std::to_string(cmd.units) + " units; pages hold " +
                      std::to_string(units_));
      b.stored = true;
      std::fill(data + std::size_t(b.next_page) * units_, data + std::size_t(cmd.ppa.page) * units_,
                kSkipped);
      // Injected faults are of the run, not of preconditioning (the drive's past). A one-shot
      // program fails whole: its word line's pages, at its last (the draw of its first page).
      if (const uint32_t pages = cmd.slc ? 1 : word_line_pages_;
          !cmd.functional && (cmd.ppa.page + 1) % pages == 0 &&
          config::program_fails(faults_, cmd.ppa.die, cmd.ppa.block, cmd.ppa.page + 1 - pages,
                                b.erase_count)) {
        b.program_failed = true;
        std::fill(data + std::size_t(cmd.ppa.page + 1 - pages) * units_,
                  data + std::size_t(cmd.ppa.page + 1) * units_, kFailed);
      } else if (units_ == 1) {
        data[cmd.ppa.page] = pack(gp, cmd, cmd.data);
      } else {
        for (uint32_t u = 0; u < units_; ++u)
          data[std::size_t(cmd.ppa.page) * units_ + u] = pack(gp, cmd, cmd.unit_data[u]);
      }
      b.next_page = cmd.ppa.page + 1;
      break;
    case FlashOp::ArrayErase:
      // Injected faults are of the run, not of preconditioning (the drive's past).
      b.bad = !cmd.functional &&
              config::erase_fails(faults_, cmd.ppa.die, cmd.ppa.block, b.erase_count);
      ++b.erase_count;
      b.next_page = 0;
      age_from(cmd.ppa.block, sim_now(), cmd.functional);
      break;
    case FlashOp::Preset: {
      const auto* tokens = reinterpret_cast<const fw::PageToken*>(gp.get_data_ptr());
      const uint32_t count = gp.get_data_length() / sizeof(fw::PageToken);
      if (count % units_ != 0) violation(gp, cmd, "preset of a part of a page's units");
      const uint32_t pages = count / units_;
      if (pages > pages_per_block_) violation(gp, cmd, "preset of more pages than a block has");
      b.erase_count = cmd.erases;
      b.next_page = pages;
      b.slc = cmd.slc;
      age_from(cmd.ppa.block, sc_core::SC_ZERO_TIME, true);  // retention_days old
      if (pages != 0) b.stored = true;
      for (uint32_t i = 0; i < count; ++i) data[i] = pack(gp, cmd, tokens[i]);
      break;
    }
    default:
      SC_REPORT_FATAL(kMsgId, "NandDie: not an array operation");
  }
}

double NandDie::reference_days(const Age& a) {
  constexpr double kSecondsPerDay = 86400.0;
  // Data from before the run is retention_days old at its start; data of the run, from its program.
  if (!meter_) {
    const double age = a.before_run ? age_days_ + sim_now().to_seconds() / kSecondsPerDay
                                    : (sim_now() - a.programmed_at).to_seconds() / kSecondsPerDay;
    return age * errors_->acceleration();
  }
  // At the die's temperature in the run; before it, at the storage temperature.
  const double run_s = meter_->retention_s(thermal_node_, sim_now());
  return a.before_run ? age_days_ * errors_->acceleration() + run_s / kSecondsPerDay
                      : (run_s - a.meter_s) / kSecondsPerDay;
}

void NandDie::draw_errors(const Block& b, FlashCommandExt& cmd) {
  Age& a = ages_[cmd.ppa.block];
  const double age = reference_days(a);
  const uint64_t reads = a.reads++;
  const uint32_t type = cmd.slc ? page_types_ : cmd.ppa.page % page_types_;
  const double rber = errors_->rber_at_reference(b.erase_count + extra_pe_, age, reads, type);
  const double u = errors_->uniform(cmd.ppa.die, cmd.ppa.block, cmd.ppa.page, cmd.unit, reads);
  const uint32_t errors = errors_->worst_errors(rber, u);
  cmd.retries = uint8_t(errors_->retries_for(errors));
  cmd.uncorrectable = errors_->uncorrectable(errors);
}

unsigned int NandDie::contents(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd) {
  const Block& b = block_of(gp, cmd);
  const uint64_t* const data = block_tokens(cmd.ppa.block);
  const std::size_t programmed = std::size_t(b.next_page) * units_;
  if (gp.get_data_length() < programmed * sizeof(fw::PageToken))
    violation(gp, cmd, "contents into less room than the block's units take");
  auto* out = reinterpret_cast<fw::PageToken*>(gp.get_data_ptr());
  uint32_t n = 0;
  for (std::size_t i = 0; i < programmed; ++i)
    if (data[i] != kSkipped && data[i] != kFailed) out[n++] = unpack(data[i]);
  gp.set_data_length(uint32_t(n * sizeof(fw::PageToken)));
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return n;
}

unsigned int NandDie::transport_dbg(tlm::tlm_generic_payload& gp) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "NandDie: transaction without a FlashCommandExt");
  if (cmd->op == FlashOp::Contents) return contents(gp, *cmd);
  apply(gp, *cmd);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return 1;
}

void NandDie::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "NandDie: transaction without a FlashCommandExt");
  const sc_core::sc_time now = sim_now() + delay;
  const bool multi = cmd->planes > 1;
  const uint32_t type = cmd->slc ? page_types_ : cmd->ppa.page % page_types_;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  switch (cmd->op) {
    case FlashOp::ArrayRead:
      if (cmd->spare) {
        psm_.enter(PowerState::SpareRead, now);
        d = t_oob_read_;
        break;
      }
      psm_.enter(multi ? PowerState::ReadMultiplane : PowerState::Read, now);
      d = cmd->step == 0 ? t_read_[type] : t_retry_[cmd->step - 1];
      break;
    case FlashOp::ArrayProgram:
      psm_.enter(program_state(multi, cmd->word_line), now);
      d = t_prog_[type];
      break;
    case FlashOp::ArrayErase:
      psm_.enter(multi ? PowerState::EraseMultiplane : PowerState::Erase, now);
      d = t_erase_;
      break;
    case FlashOp::DataOut:
    case FlashOp::DataIn:
      psm_.enter(PowerState::Transfer, now);
      d = cmd->bus_time;
      break;
    case FlashOp::DataInProgram:
      psm_.enter(PowerState::Transfer, now);
      psm_.enter(program_state(multi, cmd->word_line), now + cmd->bus_time);
      d = cmd->bus_time + t_prog_[type];
      psm_.enter(psm_.rest_state(), now + d);
      break;
    case FlashOp::DataOutRest:
      psm_.enter(PowerState::Transfer, now);
      d = cmd->bus_time;
      psm_.enter(psm_.rest_state(), now + d);
      break;
    // The suspended operation's state holds while the array pauses and while it restarts.
    case FlashOp::Suspend:
      psm_.enter(cmd->resume_state, now);
      d = t_suspend_;
      break;
    case FlashOp::Resume:
      psm_.enter(cmd->resume_state, now);
      d = t_resume_;
      break;
    case FlashOp::Rest:
      psm_.enter(psm_.rest_state(), now);
      break;
    case FlashOp::PlaneState:
      psm_.enter(cmd->resume_state, now);
      break;
    case FlashOp::DiePowerOff:
      psm_.set_rest(PowerState::Off, now);
      break;
    case FlashOp::DiePowerOn:
      psm_.set_rest(PowerState::Idle, now);
      break;
    default:
      SC_REPORT_FATAL(kMsgId, "NandDie: not a die operation");
  }
  delay += d;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void NandDie::state(fw::StateArchive& a) {
  a.section("NAND die");
  const std::size_t n = blocks_.size();
  std::vector<uint32_t> erases(n), next(n);
  std::vector<uint8_t> slc(n), stored(n);
  for (std::size_t b = 0; b < n && !a.loading(); ++b) {
    erases[b] = blocks_[b].erase_count;
    next[b] = blocks_[b].next_page;
    slc[b] = blocks_[b].slc;
    stored[b] = blocks_[b].stored;
  }
  a.fixed(erases, "NAND erase counts");
  a.fixed_indexes(next, uint64_t(pages_per_block_) + 1, "NAND write pointer");
  a.fixed_indexes(slc, 2, "NAND block modes");
  a.fixed_indexes(stored, 2, "NAND block contents");
  for (std::size_t b = 0; b < n && a.loading(); ++b)
    blocks_[b] = Block{erases[b], next[b], slc[b] != 0, stored[b] != 0};
  if (a.loading()) tokens_.advise_huge();  // a saved drive is an aged one: the die fills
  // Every block's tokens as they are in memory (a block never stored: zeros), one table that
  // loading maps from the file: widening 32-bit tokens cost the 1 TB drive's load 2 GB written.
  a.table(tokens_, n * pages_per_block_ * units_, "NAND page tokens");
}

}  // namespace ssd::model
