// Independent plane reads (flash.independent_plane_reads) in a flash channel's scheduling
// alone (ChannelRig.h): reads sensing beside each other on a die's planes, their turns on the
// bus, a program draining the die, the limit of planes sensing, and each command's energy
// against the die's power states, exactly.
#include <gtest/gtest.h>

#include <vector>

#include "tb/tests/ChannelRig.h"
#include "tb/tests/ExactEnergy.h"

namespace ssd {
namespace {

using model::FlashCommandExt;
using model::FlashOp;
using model::flash::ChannelParams;
using sc_core::sc_time;
using test::Rig;
using test::us;

// Independent plane reads: planes of 8 blocks (block 8 is on plane 1), `max` planes sensing
// at once (0: every plane).
ChannelParams plane_reads_params(bool on, uint32_t planes = 2, uint32_t max = 0) {
  ChannelParams p = Rig::params();
  p.flash.planes_per_die = planes;
  p.flash.independent_plane_reads = on;
  p.flash.independent_reads_max = max;
  return p;
}

// Two reads to different planes and page offsets of one die: with independent plane reads the
// second senses from its arrival, during the first's tR, and the data-outs take turns on the
// bus; without, it waits for the first's data-out. Each read pays its die's read power while it
// senses alone, half the multi-plane read power while both sense, and the die's transfer power
// only while no plane senses; the die's energy is the sum of theirs.
TEST(ChannelScheduler, IndependentPlaneReadsSenseTogetherAndTakeTurnsOnTheBus) {
  for (const bool on : {false, true}) {
    SCOPED_TRACE(on);
    Rig r(plane_reads_params(on));
    r.send(FlashOp::Read, 0, 0, 0, us(0));
    r.send(FlashOp::Read, 0, 8, 5, us(5));  // plane 1, another page offset
    r.run();
    EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), (std::vector<sc_time>{us(0), on ? us(5) : us(60)}));
    EXPECT_EQ(r.end(0), us(60));
    EXPECT_EQ(r.end(1), on ? us(70) : us(120));
    if (!on) continue;
    // The die's state: multi-plane read to 50, read while the second senses alone (the first's
    // data-out from 50 too), transfer from 55; the second's data-out from 60.
    EXPECT_EQ(r.starts(0, FlashOp::PlaneState), (std::vector<sc_time>{us(50), us(55)}));
    EXPECT_EQ(r.starts(0, FlashOp::DataOut), std::vector<sc_time>{us(60)});
    EXPECT_EQ(r.scheduler.dies().usage().bus_wait, us(5));
    const double bus_w = 10e-3 * 3.3;
    // 0-5 one plane senses, 5-50 two, 50-55 the second alone (the first's data-out 50-60),
    // 55-60 the first's data-out alone, 60-70 the second's.
    const double first = 0.1 * 5e-6 + 0.15 / 2 * 45e-6 + 0.05 * 5e-6 + bus_w * 10e-6;
    const double second = 0.15 / 2 * 45e-6 + 0.1 * 5e-6 + 0.05 * 10e-6 + bus_w * 10e-6;
    test::expect_rel(r.exts[0].energy_j, first);
    test::expect_rel(r.exts[1].energy_j, second);
    test::expect_rel(r.die_energy(0, us(70)), first + second - 2 * bus_w * 10e-6);
    EXPECT_TRUE(r.scheduler.dies().die(0).read_planes == 0);
  }
}

// A program queued behind a read (oldest ready first) holds back the reads queued after it: the
// die drains, the program runs alone, and the next read starts only once it has ended.
TEST(ChannelScheduler, AProgramWaitsForEveryPlaneReadAndNoReadStartsBesideIt) {
  Rig r(plane_reads_params(true));
  r.send(FlashOp::Read, 0, 0, 0, us(0));
  r.send(FlashOp::Program, 0, 9, 0, us(1));  // plane 1
  r.send(FlashOp::Read, 0, 8, 3, us(2));     // plane 1, free
  r.run();
  EXPECT_EQ(r.end(0), us(60));
  EXPECT_EQ(r.starts(0, FlashOp::DataIn), std::vector<sc_time>{us(60)});
  EXPECT_EQ(r.starts(0, FlashOp::ArrayProgram), std::vector<sc_time>{us(70)});
  EXPECT_EQ(r.end(1), us(270));
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), (std::vector<sc_time>{us(0), us(270)}));
  EXPECT_EQ(r.end(2), us(330));
  // The program's energy as without the option: its data in, then tPROG.
  const double bus_w = 10e-3 * 3.3;
  test::expect_rel(r.exts[1].energy_j, (bus_w + 0.05) * 10e-6 + 0.2 * 200e-6);
  double sum = 0;
  for (const FlashCommandExt& e : r.exts) sum += e.energy_j;
  test::expect_rel(r.die_energy(0, us(330)), sum - 3 * bus_w * 10e-6);
}

// independent_reads_max 2 on a 4-plane die: a third read waits for a plane's read to end (its
// data-out), then starts; with every plane allowed it senses at once.
TEST(ChannelScheduler, AThirdPlaneReadWaitsForASlotUnderTheLimit) {
  for (const uint32_t max : {2u, 0u}) {
    SCOPED_TRACE(max);
    Rig r(plane_reads_params(true, 4, max));
    r.send(FlashOp::Read, 0, 0, 0, us(0));
    r.send(FlashOp::Read, 0, 8, 1, us(1));
    r.send(FlashOp::Read, 0, 16, 2, us(2));
    r.run();
    EXPECT_EQ(r.starts(0, FlashOp::ArrayRead),
              (std::vector<sc_time>{us(0), us(1), max == 2 ? us(60) : us(2)}));
    EXPECT_EQ(r.end(0), us(60));
    EXPECT_EQ(r.end(1), us(70));
    EXPECT_EQ(r.end(2), max == 2 ? us(120) : us(80));
    double sum = 0;
    for (const FlashCommandExt& e : r.exts) sum += e.energy_j;
    const double bus_w = 10e-3 * 3.3;
    test::expect_rel(r.die_energy(0, us(200)), sum - 3 * bus_w * 10e-6);
  }
}

// Many reads and programs on every plane of the three dies, at random times: every die's energy
// is the sum of its commands' (less the bus's), and every command ends.
TEST(ChannelScheduler, PlaneReadEnergyAddsUpUnderAMixedLoad) {
  for (const uint32_t planes : {2u, 4u}) {
    SCOPED_TRACE(planes);
    Rig r(plane_reads_params(true, planes, planes == 4 ? 3 : 0));
    uint64_t x = 12345;
    const auto next = [&](uint64_t n) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return (x >> 33) % n;
    };
    std::vector<uint32_t> written(3 * planes * 8, 0);  // next page per (die, block)
    sc_time at = us(0);
    for (int i = 0; i < 300; ++i) {
      at += us(double(next(20)));
      const uint32_t die = uint32_t(next(3));
      const uint32_t block = uint32_t(next(planes * 8));
      uint32_t& page = written[die * planes * 8 + block];
      if (next(4) == 0 && page < 16)
        r.send(FlashOp::Program, die, block, page++, at);
      else
        r.send(FlashOp::Read, die, block, uint32_t(next(16)), at);
    }
    r.run();
    const double bus_w = 10e-3 * 3.3;
    for (uint32_t die = 0; die < 3; ++die) {
      double sum = 0;
      sc_time last;
      for (std::size_t i = 0; i < r.exts.size(); ++i) {
        if (r.exts[i].die_in_channel != die) continue;
        ASSERT_NE(r.end(i), sc_core::sc_max_time()) << i;
        last = std::max(last, r.end(i));
        sum += r.exts[i].energy_j - bus_w * 10e-6;
      }
      test::expect_rel(r.die_energy(die, last), sum);
    }
  }
}

}  // namespace
}  // namespace ssd
