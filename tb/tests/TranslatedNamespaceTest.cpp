// The order in which the host sends a translated namespace's zone commands
// (tb/host/TranslatedNamespace.h), command by command without a kernel: a collection runs beside
// the host write that set it off, its victim's reset waits for its copies, and a zone's first
// write waits for the last write of the zone before it in its stream. The namespace is
// ZoneTranslationTest's: zones of 16 blocks of 512 bytes with 12 writable, chunks of 4 blocks.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "config/NamespaceConfig.h"
#include "tb/host/TranslatedNamespace.h"

namespace ssd::tb {
namespace {

constexpr uint64_t kBlock = 512;

config::NamespaceRange translated(uint32_t zones, uint32_t spare, uint32_t open_zones = 1) {
  config::NamespaceRange ns;
  ns.kind = config::NamespaceKind::Zoned;
  ns.lba_bytes = kBlock;
  ns.zone_bytes = 16 * kBlock;
  ns.zone_capacity_bytes = 12 * kBlock;
  ns.size_bytes = zones * ns.zone_bytes;
  ns.translation.enabled = true;
  ns.translation.chunk_bytes = 4 * kBlock;
  ns.translation.open_zones = open_zones;
  ns.translation.spare_zones = spare;
  ns.translated_bytes = uint64_t(zones - spare) * ns.zone_capacity_bytes;
  return ns;
}

struct Sent {
  IoOp op;
  uint64_t block;   // the namespace's
  uint64_t blocks;  // 0 for a reset
  uint64_t command;
};

class Rig {
 public:
  explicit Rig(const config::NamespaceRange& ns) : t_(ns, 0) {}

  // A host write of `blocks` blocks from `block`, from flow 7; whether it completed at once.
  bool write(uint64_t block, uint64_t blocks) {
    HostRequest r;
    r.op = IoOp::Write;
    r.offset_bytes = block * kBlock;
    r.length_bytes = blocks * kBlock;
    return t_.submit(r, sc_core::SC_ZERO_TIME, 7);
  }
  // The command that may go now, sent; nullopt if none may.
  std::optional<Sent> send() {
    const std::optional<TranslatedNamespace::Next> n = t_.next();
    if (!n) return std::nullopt;
    EXPECT_EQ(n->flow, 7u);
    t_.issued(n->command);
    return Sent{n->request.op, n->request.offset_bytes / kBlock, n->request.length_bytes / kBlock,
                n->command};
  }
  // Completes `s`: the flow whose host request it ended, if it did (that request in ended()).
  std::optional<uint32_t> complete(const Sent& s) {
    ended_ = t_.completed(s.command, true, sc_core::SC_ZERO_TIME);
    return ended_ ? std::optional<uint32_t>(ended_->flow) : std::nullopt;
  }
  const std::optional<TranslatedNamespace::Ended>& ended() const { return ended_; }
  // Sends and completes every command that may go, until none is left.
  void drain() {
    while (const std::optional<Sent> s = send()) complete(*s);
    EXPECT_TRUE(t_.idle());
  }
  TranslatedNamespace& namespace_() { return t_; }

 private:
  TranslatedNamespace t_;
  std::optional<TranslatedNamespace::Ended> ended_;
};

void expect_sent(const std::optional<Sent>& s, IoOp op, uint64_t block, uint64_t blocks) {
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->op, op);
  EXPECT_EQ(s->block, block);
  EXPECT_EQ(s->blocks, blocks);
}

// ZoneTranslationTest's collection: the host write of chunk 3 sets off two collections (zone 0,
// chunk 2, into zone 5; then zone 1, chunk 5), each a piece of work of its own.
TEST(TranslatedNamespace, ACollectionRunsBesideTheHostWriteThatSetItOff) {
  Rig rig(translated(6, 3));
  for (const auto& [block, blocks] :
       std::vector<std::pair<uint64_t, uint64_t>>{{0, 36}, {0, 4}, {12, 8}, {4, 4}, {24, 8}}) {
    EXPECT_FALSE(rig.write(block, blocks));
    rig.drain();
  }
  EXPECT_FALSE(rig.write(12, 4));
  const std::optional<Sent> read0 = rig.send(), read1 = rig.send();
  expect_sent(read0, IoOp::Read, 8, 4);   // the first collection's read of zone 0
  expect_sent(read1, IoOp::Read, 24, 4);  // the second's, of zone 1
  EXPECT_FALSE(rig.send().has_value());   // each copy waits for its read
  EXPECT_FALSE(rig.complete(*read0).has_value());
  const std::optional<Sent> copy0 = rig.send();
  expect_sent(copy0, IoOp::Write, 80, 4);
  // Zone 0's reset waits for the copy of what it held; the host write to zone 0 for the reset.
  EXPECT_FALSE(rig.send().has_value());
  EXPECT_FALSE(rig.complete(*copy0).has_value());
  const std::optional<Sent> reset0 = rig.send();
  expect_sent(reset0, IoOp::ZoneManage, 0, 0);
  EXPECT_FALSE(rig.send().has_value());
  EXPECT_FALSE(rig.complete(*reset0).has_value());
  const std::optional<Sent> host = rig.send();
  expect_sent(host, IoOp::Write, 0, 4);
  // The host request ends with its own write, the second collection still reading.
  EXPECT_EQ(rig.complete(*host), std::optional<uint32_t>(7));
  EXPECT_EQ(rig.ended()->op, IoOp::Write);
  EXPECT_EQ(rig.ended()->bytes, 4 * kBlock);
  EXPECT_TRUE(rig.ended()->ok);
  EXPECT_FALSE(rig.namespace_().idle());
  EXPECT_FALSE(rig.send().has_value());
  EXPECT_FALSE(rig.complete(*read1).has_value());
  const std::optional<Sent> copy1 = rig.send();
  expect_sent(copy1, IoOp::Write, 84, 4);
  EXPECT_FALSE(rig.complete(*copy1).has_value());
  const std::optional<Sent> reset1 = rig.send();
  expect_sent(reset1, IoOp::ZoneManage, 16, 0);
  EXPECT_FALSE(rig.complete(*reset1).has_value());
  EXPECT_TRUE(rig.namespace_().idle());
  const report::TranslationStats f = rig.namespace_().figures();
  EXPECT_EQ(f.zones_reset, 2u);
  EXPECT_EQ(f.write_latency.count(), 6u);  // the host's writes only
  EXPECT_EQ(f.failed, 0u);
}

// A zone's first write goes once the zone before it in its stream is full at the drive (its
// last write completed); the first writes of two streams go side by side.
TEST(TranslatedNamespace, AZonesFirstWriteFollowsTheZoneBeforeItInItsStream) {
  Rig one(translated(6, 3));
  EXPECT_FALSE(one.write(0, 12));  // fills zone 0
  EXPECT_FALSE(one.write(12, 4));  // opens zone 1
  const std::optional<Sent> fill = one.send();
  expect_sent(fill, IoOp::Write, 0, 12);
  EXPECT_FALSE(one.send().has_value());
  EXPECT_EQ(one.complete(*fill), std::optional<uint32_t>(7));
  expect_sent(one.send(), IoOp::Write, 16, 4);

  Rig two(translated(8, 4, 2));
  EXPECT_FALSE(two.write(0, 4));
  EXPECT_FALSE(two.write(4, 4));
  expect_sent(two.send(), IoOp::Write, 0, 4);
  expect_sent(two.send(), IoOp::Write, 16, 4);
}

}  // namespace
}  // namespace ssd::tb
