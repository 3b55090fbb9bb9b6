// The zone state machine of a zoned namespace (firmware/zns/Zones.h): every transition of the
// NVMe ZNS command set's state machine the actions and writes make, every refused one with its
// status, the write pointer's rules, zone append, and the open and active resources.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "firmware/zns/Zones.h"

namespace ssd::fw::zns {
namespace {

using S = ZoneState;
using St = ZoneStatus;
using A = ZoneAction;

constexpr uint64_t kSize = 8;
constexpr uint64_t kCap = 6;

Zones unlimited() { return Zones(ZoneLimits{4, kSize, kCap, 0, 0}); }

// Zone 1 of `zones` put into `state` through commands and events alone.
void put(Zones& zones, ZoneState state) {
  const uint64_t zslba = kSize;
  switch (state) {
    case S::Empty:
      break;
    case S::ImplicitlyOpened:
      ASSERT_TRUE(zones.write(zslba, 2).ok());
      break;
    case S::ExplicitlyOpened:
      ASSERT_TRUE(zones.manage(zslba, A::Open).ok());
      break;
    case S::Closed:
      ASSERT_TRUE(zones.write(zslba, 2).ok());
      ASSERT_TRUE(zones.manage(zslba, A::Close).ok());
      break;
    case S::Full:
      ASSERT_TRUE(zones.write(zslba, kCap).ok());
      break;
    case S::ReadOnly:
      zones.make_read_only(1);
      break;
    case S::Offline:
      zones.make_read_only(1);
      ASSERT_TRUE(zones.manage(zslba, A::Offline).ok());
      break;
  }
  ASSERT_EQ(zones.zone(1).state, state);
}

constexpr std::array<ZoneState, kZoneStates> kStates = {
    S::Empty, S::ImplicitlyOpened, S::ExplicitlyOpened, S::Closed,
    S::Full,  S::ReadOnly,         S::Offline};

struct Expected {
  ZoneStatus status;
  ZoneState to;
};

// Each action from each state: the status and the state after, as the ZNS command set has them
// (ZSE, ZSIO, ZSEO, ZSC, ZSF, ZSRO, ZSO in that order).
TEST(Zones, EveryActionFromEveryState) {
  const St ok = St::Success, bad = St::InvalidTransition;
  const std::vector<std::pair<ZoneAction, std::array<Expected, kZoneStates>>> table = {
      {A::Open,
       {{{ok, S::ExplicitlyOpened},
         {ok, S::ExplicitlyOpened},
         {ok, S::ExplicitlyOpened},
         {ok, S::ExplicitlyOpened},
         {bad, S::Full},
         {bad, S::ReadOnly},
         {bad, S::Offline}}}},
      {A::Close,
       {{{bad, S::Empty},
         {ok, S::Closed},
         {ok, S::Closed},
         {ok, S::Closed},
         {bad, S::Full},
         {bad, S::ReadOnly},
         {bad, S::Offline}}}},
      {A::Finish,
       {{{ok, S::Full},
         {ok, S::Full},
         {ok, S::Full},
         {ok, S::Full},
         {ok, S::Full},
         {bad, S::ReadOnly},
         {bad, S::Offline}}}},
      {A::Reset,
       {{{ok, S::Empty},
         {ok, S::Empty},
         {ok, S::Empty},
         {ok, S::Empty},
         {ok, S::Empty},
         {bad, S::ReadOnly},
         {bad, S::Offline}}}},
      {A::Offline,
       {{{bad, S::Empty},
         {bad, S::ImplicitlyOpened},
         {bad, S::ExplicitlyOpened},
         {bad, S::Closed},
         {bad, S::Full},
         {ok, S::Offline},
         {ok, S::Offline}}}},
  };
  for (const auto& [action, row] : table) {
    for (int i = 0; i < kZoneStates; ++i) {
      Zones zones = unlimited();
      put(zones, kStates[i]);
      const uint64_t wp = zones.zone(1).write_pointer;
      const ZoneOutcome out = zones.manage(kSize, action);
      const std::string what = std::string(to_string(action)) + " from " + to_string(kStates[i]);
      EXPECT_EQ(out.status, row[i].status) << what << ": " << to_string(out.status);
      EXPECT_EQ(zones.zone(1).state, row[i].to) << what;
      // A reset empties the zone, a finish fills it; nothing else moves the write pointer.
      const uint64_t want_wp = row[i].status != ok   ? wp
                               : action == A::Reset  ? kSize
                               : action == A::Finish ? kSize + kCap
                                                     : wp;
      EXPECT_EQ(zones.zone(1).write_pointer, want_wp) << what;
      EXPECT_EQ(out.closed, ZoneOutcome::kNone) << what;
    }
  }
}

// A write at the write pointer from each state: the state after, or the status refusing it.
TEST(Zones, AWriteFromEveryState) {
  const std::array<Expected, kZoneStates> row = {{{St::Success, S::ImplicitlyOpened},
                                                  {St::Success, S::ImplicitlyOpened},
                                                  {St::Success, S::ExplicitlyOpened},
                                                  {St::Success, S::ImplicitlyOpened},
                                                  {St::Full, S::Full},
                                                  {St::ReadOnly, S::ReadOnly},
                                                  {St::Offline, S::Offline}}};
  for (int i = 0; i < kZoneStates; ++i) {
    Zones zones = unlimited();
    put(zones, kStates[i]);
    const uint64_t wp = zones.zone(1).write_pointer;
    const ZoneOutcome out = zones.write(wp, 1);
    EXPECT_EQ(out.status, row[i].status) << to_string(kStates[i]);
    EXPECT_EQ(zones.zone(1).state, row[i].to) << to_string(kStates[i]);
    EXPECT_EQ(zones.zone(1).write_pointer, out.ok() ? wp + 1 : wp) << to_string(kStates[i]);
  }
}

TEST(Zones, WritesGoToTheWritePointerAndStopAtTheCapacity) {
  Zones zones = unlimited();
  EXPECT_EQ(zones.write(kSize + 1, 1).status, St::InvalidWrite);  // ahead of the pointer
  EXPECT_TRUE(zones.write(kSize, 2).ok());
  EXPECT_EQ(zones.write(kSize, 1).status, St::InvalidWrite);              // behind it
  EXPECT_EQ(zones.write(kSize + 2, kCap - 1).status, St::BoundaryError);  // past the capacity
  EXPECT_EQ(zones.zone(1).write_pointer, kSize + 2);
  EXPECT_EQ(zones.write(kSize + 2, 0).status, St::InvalidField);
  EXPECT_EQ(zones.write(4 * kSize, 1).status, St::LbaOutOfRange);
  EXPECT_EQ(zones.write(4 * kSize - 1, 2).status, St::LbaOutOfRange);
  const ZoneOutcome last = zones.write(kSize + 2, kCap - 2);  // up to the capacity: full
  EXPECT_TRUE(last.ok());
  EXPECT_EQ(last.lba, kSize + 2);
  EXPECT_EQ(zones.zone(1).state, S::Full);
  EXPECT_EQ(zones.counts().filled, 1u);
  EXPECT_EQ(zones.open_zones(), 0u);
  EXPECT_EQ(zones.active_zones(), 0u);
}

TEST(Zones, AnAppendIsWrittenAtTheWritePointerAndSaysWhere) {
  Zones zones = unlimited();
  EXPECT_EQ(zones.append(2 * kSize, 3).lba, 2 * kSize);
  EXPECT_EQ(zones.append(2 * kSize, 2).lba, 2 * kSize + 3);
  EXPECT_EQ(zones.zone(2).state, S::ImplicitlyOpened);
  EXPECT_EQ(zones.append(2 * kSize, 2).status, St::BoundaryError);     // 5 + 2 > 6
  EXPECT_EQ(zones.append(2 * kSize + 1, 1).status, St::InvalidField);  // not a zone's start
  EXPECT_EQ(zones.append(4 * kSize, 1).status, St::LbaOutOfRange);
  const ZoneOutcome last = zones.append(2 * kSize, 1);
  EXPECT_EQ(last.lba, 2 * kSize + 5);
  EXPECT_EQ(zones.zone(2).state, S::Full);
  EXPECT_EQ(zones.append(2 * kSize, 1).status, St::Full);
}

TEST(Zones, ReadsStayInOneZoneAndNotOnAnOfflineOne) {
  Zones zones = unlimited();
  EXPECT_EQ(zones.read(0, kSize), St::Success);  // past the write pointer: unwritten, no error
  EXPECT_EQ(zones.read(kSize - 1, 2), St::BoundaryError);
  EXPECT_EQ(zones.read(4 * kSize, 1), St::LbaOutOfRange);
  EXPECT_EQ(zones.read(0, 0), St::InvalidField);
  zones.make_read_only(0);
  EXPECT_EQ(zones.read(0, 1), St::Success);
  ASSERT_TRUE(zones.manage(0, A::Offline).ok());
  EXPECT_EQ(zones.read(0, 1), St::Offline);
}

TEST(Zones, ActionsNameAZonesFirstBlock) {
  Zones zones = unlimited();
  EXPECT_EQ(zones.manage(1, A::Open).status, St::InvalidField);
  EXPECT_EQ(zones.manage(4 * kSize, A::Reset).status, St::LbaOutOfRange);
}

// max_open 2, max_active 3: a write that needs an open resource takes the implicitly opened
// zone's opened longest ago, which is closed; an explicitly opened zone is never taken.
TEST(Zones, OpenAndActiveResources) {
  Zones zones(ZoneLimits{5, kSize, kCap, 2, 3});
  ASSERT_TRUE(zones.write(0 * kSize, 1).ok());
  ASSERT_TRUE(zones.write(1 * kSize, 1).ok());
  const ZoneOutcome third = zones.write(2 * kSize, 1);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third.closed, 0u);
  EXPECT_EQ(zones.zone(0).state, S::Closed);
  EXPECT_EQ(zones.open_zones(), 2u);
  EXPECT_EQ(zones.active_zones(), 3u);
  EXPECT_EQ(zones.counts().implicit_closes, 1u);
  // A fourth active zone: refused, whether opened by a write or an action, and nothing closed.
  EXPECT_EQ(zones.write(3 * kSize, 1).status, St::TooManyActive);
  EXPECT_EQ(zones.manage(3 * kSize, A::Open).status, St::TooManyActive);
  EXPECT_EQ(zones.zone(1).state, S::ImplicitlyOpened);
  // Zone 1 opened explicitly (it holds its resources already); writing to closed zone 0 takes
  // zone 2's open resource, the only implicitly opened one.
  ASSERT_TRUE(zones.manage(1 * kSize, A::Open).ok());
  const ZoneOutcome back = zones.write(0 * kSize + 1, 1);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.closed, 2u);
  // Both opened zones explicitly opened: no open resource to take.
  ASSERT_TRUE(zones.manage(0 * kSize, A::Open).ok());
  EXPECT_EQ(zones.write(2 * kSize + 1, 1).status, St::TooManyOpen);
  EXPECT_EQ(zones.manage(2 * kSize, A::Open).status, St::TooManyOpen);
  EXPECT_EQ(zones.zone(2).state, S::Closed);
  // Finishing a zone gives its resources back.
  ASSERT_TRUE(zones.manage(1 * kSize, A::Finish).ok());
  EXPECT_TRUE(zones.write(2 * kSize + 1, 1).ok());
  EXPECT_EQ(zones.open_zones(), 2u);
  EXPECT_EQ(zones.active_zones(), 2u);
  // A zone the media turns read only gives its resources back too.
  zones.make_read_only(0);
  EXPECT_EQ(zones.open_zones(), 1u);
  EXPECT_EQ(zones.active_zones(), 1u);
}

TEST(Zones, SelectAll) {
  Zones zones(ZoneLimits{6, kSize, kCap, 3, 4});
  ASSERT_TRUE(zones.write(0, 1).ok());
  ASSERT_TRUE(zones.manage(kSize, A::Open).ok());
  ASSERT_TRUE(zones.write(2 * kSize, kCap).ok());  // full
  ASSERT_TRUE(zones.write(3 * kSize, 1).ok());
  zones.make_read_only(4);
  std::vector<uint32_t> changed;
  ASSERT_EQ(zones.manage_all(A::Close, &changed), St::Success);
  EXPECT_EQ(changed, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(zones.count(S::Closed), 3u);
  // Three closed zones and three open resources: all open; with one opened first, none does.
  ASSERT_TRUE(zones.write(5 * kSize, 1).ok());
  EXPECT_EQ(zones.manage_all(A::Open), St::TooManyOpen);
  EXPECT_EQ(zones.count(S::Closed), 3u);
  ASSERT_TRUE(zones.manage(5 * kSize, A::Finish).ok());
  changed.clear();
  ASSERT_EQ(zones.manage_all(A::Open, &changed), St::Success);
  EXPECT_EQ(changed, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(zones.count(S::ExplicitlyOpened), 3u);
  changed.clear();
  ASSERT_EQ(zones.manage_all(A::Finish, &changed), St::Success);
  EXPECT_EQ(changed, (std::vector<uint32_t>{0, 1, 3}));
  changed.clear();
  ASSERT_EQ(zones.manage_all(A::Reset, &changed), St::Success);
  EXPECT_EQ(changed, (std::vector<uint32_t>{0, 1, 2, 3, 5}));  // not the read-only one
  changed.clear();
  ASSERT_EQ(zones.manage_all(A::Offline, &changed), St::Success);
  EXPECT_EQ(changed, (std::vector<uint32_t>{4}));
  EXPECT_EQ(zones.count(S::Empty), 5u);
  EXPECT_EQ(zones.counts().resets, 5u);
}

TEST(Zones, ReportZonesListsFromTheZoneHoldingTheBlock) {
  using F = ZoneReportFilter;
  using Ids = std::vector<uint32_t>;
  Zones zones(ZoneLimits{6, kSize, kCap, 0, 0});
  ASSERT_TRUE(zones.write(0, 1).ok());             // 0 implicitly opened
  ASSERT_TRUE(zones.write(2 * kSize, kCap).ok());  // 2 full
  ASSERT_TRUE(zones.write(3 * kSize, 2).ok());     // 3 closed
  ASSERT_TRUE(zones.manage(3 * kSize, A::Close).ok());
  ASSERT_TRUE(zones.write(5 * kSize, kCap).ok());  // 5 full; 1 and 4 empty

  ZoneReport r = zones.report(0, F::All, 100, false);
  EXPECT_EQ(r.listed, (Ids{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(r.zones, 6u);
  r = zones.report(kSize + 3, F::All, 100, false);  // from zone 1, the zone holding the block
  EXPECT_EQ(r.listed, (Ids{1, 2, 3, 4, 5}));
  // Room for one descriptor: Number of Zones counts every zone selected, or (partial
  // report) those listed.
  r = zones.report(kSize, F::Full, 1, false);
  EXPECT_EQ(r.listed, Ids{2});
  EXPECT_EQ(r.zones, 2u);
  r = zones.report(kSize, F::Full, 1, true);
  EXPECT_EQ(r.listed, Ids{2});
  EXPECT_EQ(r.zones, 1u);
  r = zones.report(0, F::Empty, 0, false);  // no room: nothing listed, still counted
  EXPECT_TRUE(r.listed.empty());
  EXPECT_EQ(r.zones, 2u);
  EXPECT_EQ(zones.report(0, F::ImplicitlyOpened, 8, true).listed, Ids{0});
  EXPECT_EQ(zones.report(0, F::Closed, 8, true).listed, Ids{3});
  EXPECT_TRUE(zones.report(0, F::ExplicitlyOpened, 8, true).listed.empty());
  zones.make_read_only(4);
  EXPECT_EQ(zones.report(0, F::ReadOnly, 8, true).listed, Ids{4});
  EXPECT_TRUE(zones.report(0, F::Offline, 8, true).listed.empty());

  EXPECT_EQ(zones.report(6 * kSize, F::All, 8, false).status, St::LbaOutOfRange);
  EXPECT_EQ(zones.report(0, ZoneReportFilter(8), 8, false).status, St::InvalidField);
}

// Random commands under limits: the resources always match the states and stay within the
// limits, and each zone's write pointer within its capacity.
TEST(Zones, ResourcesMatchTheStatesUnderRandomCommands) {
  const ZoneLimits limits{16, kSize, kCap, 3, 5};
  Zones zones(limits);
  std::mt19937_64 rng(7);
  uint64_t refused = 0;
  for (int i = 0; i < 20000; ++i) {
    const uint32_t z = uint32_t(rng() % limits.zones);
    const uint64_t zslba = z * kSize;
    switch (rng() % 8) {
      case 0:
        refused += !zones.manage(zslba, ZoneAction(1 + rng() % 4)).ok();
        break;
      case 1:
        refused += !zones.append(zslba, 1 + rng() % 3).ok();
        break;
      case 2:
        if (rng() % 50 == 0) zones.make_read_only(z);
        break;
      default:
        refused += !zones.write(zones.zone(z).write_pointer, 1 + rng() % 2).ok();
        break;
    }
    const uint32_t open = zones.count(S::ImplicitlyOpened) + zones.count(S::ExplicitlyOpened);
    ASSERT_EQ(zones.open_zones(), open) << i;
    ASSERT_EQ(zones.active_zones(), open + zones.count(S::Closed)) << i;
    ASSERT_LE(zones.open_zones(), limits.max_open) << i;
    ASSERT_LE(zones.active_zones(), limits.max_active) << i;
    uint32_t total = 0;
    for (const ZoneState s : kStates) total += zones.count(s);
    ASSERT_EQ(total, limits.zones);
    for (uint32_t k = 0; k < limits.zones; ++k) {
      const ZoneDescriptor& d = zones.zone(k);
      ASSERT_LE(d.write_pointer - d.start, kCap) << i;
      if (d.state == S::Empty) {
        ASSERT_EQ(d.write_pointer, d.start) << i;
      }
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_GT(zones.counts().implicit_closes, 0u);
  EXPECT_GT(zones.counts().filled, 0u);
}

TEST(Zones, LimitsThatBreakARuleAreRefused) {
  EXPECT_THROW(Zones(ZoneLimits{0, 8, 6, 0, 0}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, 0, 0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, 8, 9, 0, 0}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, 8, 0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, 8, 6, 3, 2}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, 8, 6, 0, 2}), std::invalid_argument);
  EXPECT_THROW(Zones(ZoneLimits{4, ~0ull, 6, 0, 0}), std::invalid_argument);
  EXPECT_NO_THROW(Zones(ZoneLimits{4, 8, 8, 2, 0}));
}

}  // namespace
}  // namespace ssd::fw::zns
