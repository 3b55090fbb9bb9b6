#pragma once
// What a controller that issues in order (controller.issue_order in_order) asks a channel
// before it starts a flash command's issue: whether the channel can take a command now, and
// when to ask again. The founding study's controller issues each page's command only once the
// channel bus it needs is free, and waits otherwise (head-of-line blocking); the gate is the
// channel's ready line that such a controller reads.
#include <systemc>

namespace ssd::model::flash {

class IssueGate {
 public:
  virtual ~IssueGate() = default;
  // The bus is free at `now` and no transfer waits for it (nor a command queued at a free
  // die, about to need it); commands queued behind a busy die do not hold the channel.
  virtual bool takes_command(const sc_core::sc_time& now) const = 0;
  // When the channel will take a command if nothing else changes: the end of the transfer
  // holding its bus when that alone stands in the way; sc_max_time() otherwise (then
  // progress() tells when to ask again).
  virtual sc_core::sc_time free_at(const sc_core::sc_time& now) const = 0;
  // Notified after each of the channel's scheduling passes.
  virtual const sc_core::sc_event& progress() const = 0;
};

}  // namespace ssd::model::flash
