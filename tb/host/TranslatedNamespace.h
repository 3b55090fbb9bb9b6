#pragma once
// A zoned namespace the host reaches through its zone translation layer
// (namespaces[].host_translation, tb/host/ZoneTranslation.h): each host read, write or trim
// becomes the layer's plan of zone commands, and the commands of all plans go to the drive as
// Linux sends a zoned device's. Each zone's commands go in plan order, its writes one at a time
// (zone write plugging): a read waits for the zone's writes and resets in flight, a write for
// them too, a reset for everything in flight on the zone. A write also waits for the reads
// before it in its own work (a partly written chunk's rest, a collection's reads: the data it
// carries), and a zone's first write for the last write of the zone before it in its stream
// (so the drive never has more zones open and active than the layer keeps). A collection is
// work of its own, beside the host request whose write set it off: its victim's reset waits
// for its writes (the data is on the flash again before its old place goes), and the host
// request does not wait for it. Zones do not wait for each other otherwise: of the commands
// that may go, the one planned first goes first. A host request completes with the last of its
// commands; one with no command (a trim, a read of nothing written) at once. Every command
// waits only for commands planned before it, so all of them go in the end.
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
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
  // zone commands: the layer sends those). Whether it completed at once (a plan of no command).
  bool submit(const HostRequest& r, const sc_core::sc_time& start, uint32_t flow);
  // The command that may go now (the one planned first of those whose zone lets them go), as a
  // request of the namespace (offset in its bytes), its id and its host request's flow. nullopt
  // if none.
  struct Next {
    HostRequest request;
    uint64_t command = 0;
    uint32_t flow = 0;
  };
  std::optional<Next> next() const;
  void issued(uint64_t command);
  // The command completed (`ok`): the host request it was the last command of, if any, ended.
  struct Ended {
    uint32_t flow = 0;
    IoOp op = IoOp::Read;
    uint64_t bytes = 0;
    sc_core::sc_time start;
    bool ok = true;
  };
  std::optional<Ended> completed(uint64_t command, bool ok, const sc_core::sc_time& now);
  // Whether every command planned completed (collections run on after the host's requests).
  bool idle() const { return commands_.empty(); }
  report::TranslationStats figures() const;

 private:
  static constexpr uint64_t kNoCommand = ~0ull;
  // A host request's commands, or a collection's (background: it ends no host request).
  struct Request {
    sc_core::sc_time start;
    uint32_t flow = 0;  // a collection's: that of the host write that set it off (its queue)
    IoOp op = IoOp::Read;
    uint64_t bytes = 0;
    bool background = false;
    uint32_t left = 0;  // commands not completed
    // Its reads in plan order: which completed, and how many from the first on did.
    std::vector<bool> read_done;
    uint32_t reads_done_first = 0;
    uint32_t writes = 0, writes_done = 0;
    bool ok = true;
  };
  struct Command {
    ZoneCommand cmd;
    uint64_t request = 0;
    // A read: its place among its work's reads; a write: the reads before it in its work; a
    // reset: the writes before it.
    uint32_t before = 0;
    uint64_t after = kNoCommand;  // a zone's first write: the last write of the zone it follows
    bool done = false;
  };
  Command& command(uint64_t id) { return commands_[std::size_t(id - base_)]; }
  const Command& command(uint64_t id) const { return commands_[std::size_t(id - base_)]; }
  bool done(uint64_t id) const { return id < base_ || command(id).done; }
  Request& request(uint64_t id) { return requests_[std::size_t(id - request_base_)]; }
  const Request& request(uint64_t id) const { return requests_[std::size_t(id - request_base_)]; }
  uint32_t zone_of(const ZoneCommand& c) const { return uint32_t(c.lba / zone_blocks_); }
  uint64_t add_request(const sc_core::sc_time& start, uint32_t flow, IoOp op, uint64_t bytes,
                       bool background);
  void queue(const ZoneCommand& c, uint64_t request);
  // Whether the zone's first command not issued may go now.
  bool may_go(uint32_t zone) const;
  void end(uint64_t id, const sc_core::sc_time& now);

  uint32_t ns_;
  uint32_t lba_bytes_;
  uint64_t zone_blocks_;
  ZoneTranslation layer_;
  std::vector<ZoneCommand> plan_;  // scratch
  std::deque<Command> commands_;   // from the oldest not completed (id base_) on
  uint64_t base_ = 0;
  // Per zone: its commands not issued (ids, in plan order), and of those issued and not
  // completed, all and its writes and resets.
  std::vector<std::deque<uint64_t>> waiting_;
  std::vector<uint32_t> busy_, writing_;
  std::vector<uint64_t> last_write_;  // per zone: its last write planned
  std::set<uint32_t> zones_waiting_;  // zones with commands not issued
  std::deque<Request> requests_;      // from the oldest not completed (id request_base_) on
  uint64_t request_base_ = 0;
  report::TranslationStats stats_;
};

}  // namespace ssd::tb
