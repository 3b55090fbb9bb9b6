#pragma once
// Injected faults' rigs (flash.faults): a page-level FTL on a fake Hal with erases and programs
// failing at their rates, and the small drive run from the command line with faults.
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/PageLevelFtl.h"
#include "firmware/ftl/SpareReserve.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {

// A page-level FTL (the page FTL unless `shape` changes the drive) on a fake Hal: the small
// drive filled, then overwritten in a fixed order with its erases and programs failing at their
// rates.
struct Faulty {
  using Shape = void (*)(config::DriveConfig&);
  explicit Faulty(double erase, double program = 0, Shape shape = nullptr)
      : cfg(drive(erase, program, shape)),
        hal(cfg.flash),
        owned(fw::make_ftl(cfg, hal)),
        ftl(*owned) {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l) ftl.write(l, fw::PageToken{l, 1}, fw::kNoOp);
  }
  static config::DriveConfig drive(double erase, double program, Shape shape) {
    config::DriveConfig c = shipped("small_gc");
    c.flash.faults.erase_fail_probability = erase;
    c.flash.faults.program_fail_probability = program;
    c.flash.faults.seed = 7;
    if (shape) shape(c);
    return config::parse_drive_config(config::to_json(c), "test");
  }
  const fw::BlockManager& blocks() const {
    return dynamic_cast<const fw::PageLevelFtl&>(ftl).blocks();
  }
  // Overwrites up to `n` pages (a fixed sequence, going on from the last call's), counting each
  // page's versions; stops once the drive is read-only, as the firmware refuses writes then.
  // Returns the pages written.
  uint64_t overwrite(uint64_t n) {
    uint64_t i = 0;
    for (; i < n && !ftl.read_only(); ++i) write_next();
    return i;
  }
  // The sequence's next page written: its logical page.
  fw::Lpn write_next() {
    const fw::Lpn l = (written++ * 7919 + 13) % cfg.logical_pages();
    ftl.maintain();  // as the firmware does before a host command's FTL work
    ftl.write(l, fw::PageToken{l, ++version[l] + 1}, fw::kNoOp);
    return l;
  }
  const fw::SpareReserve& spare() const {
    return *dynamic_cast<const fw::PageLevelFtl&>(ftl).spare_reserve();
  }
  // Every logical page reads its last version.
  void expect_every_page() {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l) {
      fw::PageToken t;
      ftl.read(l, t);
      EXPECT_EQ(t.lpn, l);
      EXPECT_EQ(t.version, version[l] + 1);
    }
  }
  config::DriveConfig cfg;
  FakeHal hal;
  std::unique_ptr<fw::Ftl> owned;
  fw::Ftl& ftl;
  std::map<fw::Lpn, uint64_t> version;
  uint64_t written = 0;
};

// The small drive, preconditioned, with the faults' seed 3 and `sets`.
inline nlohmann::json run_faulty(const std::string& dir, const std::string& sets) {
  return cli_report("--config " + source_path("configs/small_gc.json") +
                        " --precondition --reproducible --set flash.faults.seed=3 " + sets,
                    dir);
}

}  // namespace ssd::test
