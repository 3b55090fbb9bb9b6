#pragma once
// The controller's firmware cores (controller.cores; one, named "controller", when none are
// listed) and which of them takes which work. A host command is taken up by a host core (the
// one free first); its FTL work, unit by unit, goes to an FTL core: the host core itself if it
// is one (run to completion), else the FTL core free first (placement shared), or the core
// owning the unit's stripe (placement stripes: controller.stripe_units units each, the FTL
// cores in turn). Background work goes to a background core. Work passed from one core to
// another arrives t_message_ns later.
//
// All cores are timelines the one firmware thread moves between: their work overlaps in
// simulated time, but a firmware step that waits for flash (wait_for) holds the thread, so no
// other core starts work meanwhile.
#include <cstdint>
#include <memory>
#include <vector>

#include "config/ControllerConfig.h"
#include "firmware/Hal.h"
#include "model/controller/Core.h"

namespace ssd::model::controller {

class Cores {
 public:
  Cores(EnergyMonitor& monitor, const config::ControllerConfig& cfg);

  std::size_t size() const { return cores_.size(); }
  Core& at(std::size_t i) { return *cores_[i]; }
  const Core& at(std::size_t i) const { return *cores_[i]; }
  const sc_core::sc_time& message() const { return message_; }

  // The host core free first (of those free equally, the first listed).
  Core& host() { return free_first(host_); }
  // The core for the FTL work of unit `lpn` (fw::Hal::kAllUnits: of a flush) of a command the
  // host core `taker` took up.
  Core& ftl(fw::Lpn lpn, Core& taker);
  Core& background() { return free_first(background_); }
  bool stripes() const { return stripes_; }
  // Background work stops for host commands (checked between its steps) when a core that runs
  // it takes host commands' work too; on cores of its own it runs beside them.
  bool background_yields() const { return background_yields_; }

 private:
  Core& free_first(const std::vector<Core*>& pool);

  std::vector<std::unique_ptr<Core>> cores_;
  std::vector<Core*> host_, ftl_, background_;
  std::vector<bool> does_ftl_;  // by core
  bool stripes_;
  uint32_t stripe_units_;
  sc_core::sc_time message_;
  bool background_yields_ = false;
};

}  // namespace ssd::model::controller
