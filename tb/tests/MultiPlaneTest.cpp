// Multi-plane operations through a FlashChannel (flash.multiplane, multiplane_wait_us): programs
// on several planes at one page offset share one array time, and a program waits briefly for
// its other-plane partner, on a free die and when staged behind a running program.
#include <gtest/gtest.h>

#include "tb/tests/NandRig.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Probe;

class MultiPlane : public test::NandRig {
 protected:
  void multiplane_case(uint32_t planes);
  void partner_case(double wait_us);
  // The small drive's blocks on two planes of 32, with multi-plane operations.
  void two_planes() {
    drive.flash.planes_per_die = 2;
    drive.flash.blocks_per_plane = 32;
    drive.flash.multiplane = true;
  }
};

void MultiPlane::multiplane_case(uint32_t planes) {
  drive.flash.planes_per_die = 4;
  drive.flash.blocks_per_plane = 16;
  drive.flash.multiplane = true;
  EXPECT_EQ(run([&](Probe& p) {
              for (uint32_t plane = 0; plane < planes; ++plane)
                p.send(FlashOp::Program, 0, 16 * plane, 0);
            }),
            "");
  // Every page's data moves in, back to back; then one tPROG for all planes.
  for (uint32_t i = 0; i < planes; ++i) EXPECT_EQ(probe->end(i), xfer * double(planes) + prog);
  EXPECT_EQ(channel->usage().multiplane_groups, 1u);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::ProgramMultiplane), prog.to_seconds());
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Program), 0.0);
}

TEST_F(MultiPlane, TwoPlaneProgramTakesOneProgramTime) { multiplane_case(2); }
TEST_F(MultiPlane, FourPlaneProgramTakesOneProgramTime) { multiplane_case(4); }

TEST_F(MultiPlane, MultiPlaneNeedsTheSamePageOffset) {
  two_planes();
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 32, 0);  // plane 1, offset 0
              p.send(FlashOp::Program, 0, 0, 0);   // plane 0, offset 0: joins it
              p.send(FlashOp::Program, 0, 32, 1);  // plane 1, offset 1
              p.send(FlashOp::Program, 0, 1, 0);   // plane 0, offset 0: cannot join it
            }),
            "");
  const sc_core::sc_time pair = xfer * 2.0 + prog;
  EXPECT_EQ(probe->end(0), pair);
  EXPECT_EQ(probe->end(1), pair);
  EXPECT_EQ(probe->end(2), pair + xfer + prog);
  EXPECT_EQ(probe->end(3), pair + (xfer + prog) * 2.0);
}

void MultiPlane::partner_case(double wait_us) {
  two_planes();
  drive.flash.multiplane_wait_us = wait_us;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);
              p.send(FlashOp::Program, 0, 32, 0, 0, us(3));  // plane 1, sent, 3 us away
            }),
            "");
  if (wait_us > 0) {
    // The die waits for the partner, then both move in and program once.
    EXPECT_EQ(probe->end(0), us(3) + xfer * 2.0 + prog);
    EXPECT_EQ(probe->end(1), us(3) + xfer * 2.0 + prog);
    EXPECT_EQ(channel->usage().multiplane_groups, 1u);
  } else {
    EXPECT_EQ(probe->end(0), xfer + prog);
    EXPECT_EQ(probe->end(1), (xfer + prog) * 2.0);
    EXPECT_EQ(channel->usage().multiplane_groups, 0u);
  }
}

TEST_F(MultiPlane, AProgramWaitsBrieflyForItsOtherPlanePartner) { partner_case(5); }
TEST_F(MultiPlane, WithoutAWaitAProgramStartsAlone) { partner_case(0); }

// A die programming a pair stages the next pair: the program ready first waits there for its
// partner, 3 us behind, instead of moving in alone (and its partner programming alone after).
TEST_F(MultiPlane, AStagedProgramWaitsBrieflyForItsOtherPlanePartner) {
  two_planes();
  drive.flash.multiplane_wait_us = 5;
  drive.flash.cache_program = true;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);
              p.send(FlashOp::Program, 0, 32, 0);
              p.send(FlashOp::Program, 0, 0, 1, 0, us(10));   // during the pair's program
              p.send(FlashOp::Program, 0, 32, 1, 0, us(13));  // its partner, 3 us later
            }),
            "");
  const sc_core::sc_time pair = xfer * 2.0 + prog;
  EXPECT_EQ(probe->end(1), pair);
  EXPECT_EQ(probe->end(2), pair + prog);
  EXPECT_EQ(probe->end(3), pair + prog);
  EXPECT_EQ(channel->usage().multiplane_groups, 2u);
  EXPECT_EQ(channel->usage().cache_programs, 2u);
}
}  // namespace
}  // namespace ssd
