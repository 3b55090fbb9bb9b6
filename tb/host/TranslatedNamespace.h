#pragma once
// A zoned namespace the host reaches through its zone translation layer
// (namespaces[].host_translation, tb/host/ZoneTranslation.h): each host read, write or trim
// becomes the layer's plan of zone commands, and the commands of all plans go to the drive as
// Linux sends a zoned device's. In plan order, with a zone's writes one at a time (zone write
// plugging): a command waits for every earlier command on its zone when either of them writes
// or resets the zone, and a write waits for the reads before it in its own plan (a partly
// written chunk's rest, GC's copies: the data it carries). Reads of other zones, or of a zone
// with nothing written before them, go side by side. A command that must wait holds back
// those after it (the plans' order is the write pointers'). A host request completes with its
// plan's last command; one with no command (a trim, a read of nothing written) at once.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include <systemc>

#include "config/NamespaceConfig.h"
#include "report/TranslationStats.h"
#include "tb/host/HostRequest.h"
#include "tb/host/ZoneTranslation.h"

namespace ssd::tb {

class TranslatedNamespace {
 public:
  // `ns`: its range, index `index` among the drive's; translated (range.translation.enabled).
  TranslatedNamespace(const config::NamespaceRange& ns, uint32_t index);

  // A host request of the namespace (fitted into its host_bytes()), from `flow`, started at
  // `start`: its plan queued; a read, write or trim (the host sends a flush itself, and refuses
  // zone commands: the layer sends those). Its id, which take_ended() gives once it completed.
  uint64_t submit(const HostRequest& r, const sc_core::sc_time& start, uint32_t flow);
  // The next command that may go now (in order, held by nothing before it): a request of the
  // namespace (offset in its bytes), its id and its host request's flow. nullopt if none.
  struct Next {
    HostRequest request;
    uint64_t command = 0;
    uint32_t flow = 0;
  };
  std::optional<Next> next() const;
  void issued(uint64_t command);
  // The command completed (`ok`): its request completes if it was its plan's last.
  void completed(uint64_t command, bool ok, const sc_core::sc_time& now);
  // Host requests that completed since the last call, with their flow, in completion order.
  struct Ended {
    uint64_t id;
    uint32_t flow;
  };
  std::vector<Ended> take_ended();
  report::TranslationStats figures() const;

 private:
  struct Request {
    sc_core::sc_time start;
    uint32_t flow = 0;
    IoOp op = IoOp::Read;
    uint32_t left = 0;   // commands not completed
    uint32_t reads = 0;  // reads issued and not completed (its writes wait for them)
    bool ok = true;
  };
  struct Command {
    ZoneCommand cmd;
    uint64_t request = 0;
    bool done = false;
  };
  Command& command(uint64_t id) { return commands_[std::size_t(id - base_)]; }
  const Command& command(uint64_t id) const { return commands_[std::size_t(id - base_)]; }
  Request& request(uint64_t id) { return requests_[std::size_t(id - request_base_)]; }
  const Request& request(uint64_t id) const { return requests_[std::size_t(id - request_base_)]; }
  std::size_t zone_of(const ZoneCommand& c) const { return std::size_t(c.lba / zone_blocks_); }
  void end(uint64_t id, const sc_core::sc_time& now);

  uint32_t ns_;
  uint32_t lba_bytes_;
  uint64_t zone_blocks_;
  ZoneTranslation layer_;
  std::vector<ZoneCommand> plan_;  // scratch
  // Commands from the oldest not completed (id base_) on; those from next_ on not yet issued
  // (every earlier one was: they go in order).
  std::deque<Command> commands_;
  uint64_t base_ = 0;
  uint64_t next_ = 0;
  // Per zone, of the commands issued and not completed: all of them, and its writes and resets.
  std::vector<uint32_t> busy_, writing_;
  std::deque<Request> requests_;  // from the oldest not completed (id request_base_) on
  uint64_t request_base_ = 0;
  std::vector<Ended> ended_;
  report::TranslationStats stats_;
};

}  // namespace ssd::tb
