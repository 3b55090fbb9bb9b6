#pragma once
// controller.issue_order in_order (the founding study's controller): the core starts a flash
// command's issue only once its channel's bus can take it, and idles while it waits (head-of-line
// blocking). The channels' ready lines (flash::IssueGate) are bound by the Ssd.
#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "model/controller/Core.h"
#include "model/flash/IssueGate.h"

namespace ssd::model::controller {

class InOrderIssue {
 public:
  void attach(std::vector<const flash::IssueGate*> gates) { gates_ = std::move(gates); }
  // From the firmware thread: the core catches the simulation up with its timeline, then, idle,
  // waits until `channel` can take a command (blocked on flash, for GC if `gc`); its issue
  // starts then.
  void await(uint32_t channel, Core& core, bool gc) const;

 private:
  std::vector<const flash::IssueGate*> gates_;  // by channel
};

}  // namespace ssd::model::controller
