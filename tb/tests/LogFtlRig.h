#pragma once
// Shared by the block-mapped FTL suites (BlockFtlTest, HybridFtlTest, FtlFamilyTest): a drive
// config reshaped for a test, and a rig that runs one FTL on FakeHal while keeping the
// version every logical page must read back.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/LogBlockFtl.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/FtlFigure.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace fw {
// Readable tokens in failure messages (found by argument-dependent lookup).
inline void PrintTo(const PageToken& t, std::ostream* os) {
  *os << "{lpn " << t.lpn << ", version " << t.version << "}";
}
}  // namespace fw

namespace test {

// small_gc with `type` and the given geometry (dies as channels x 1 way), round-tripped
// through validation so the drive is one the model accepts.
inline config::DriveConfig log_drive(const std::string& type, uint32_t dies, uint32_t blocks,
                                     uint32_t pages, double overprovisioning, double log_fraction) {
  config::DriveConfig c = shipped("small_gc");
  c.ftl.type = test::choice<config::FtlType>(type);
  c.flash.channels = dies;
  c.flash.ways_per_channel = 1;
  c.flash.dies_per_way = 1;
  c.flash.planes_per_die = 1;
  c.flash.blocks_per_plane = blocks;
  c.flash.pages_per_block = pages;
  c.ftl.overprovisioning = overprovisioning;
  c.ftl.gc_threshold_blocks = 2;
  c.ftl.log_block_fraction = log_fraction;
  return config::parse_drive_config(config::to_json(c), "test config");
}

class LogFtlRig {
 public:
  explicit LogFtlRig(const config::DriveConfig& cfg)
      : cfg_(cfg), hal_(cfg.flash), ftl_(fw::make_ftl(cfg, hal_)) {}

  sc_core::sc_time write(fw::Lpn lpn) {
    expected_[lpn] = ++version_;
    return hal_.end_of(ftl_->write(lpn, fw::PageToken{lpn, version_}, fw::kNoOp));
  }
  void write_range(fw::Lpn first, fw::Lpn count) {
    for (fw::Lpn l = first; l < first + count; ++l) write(l);
  }
  void trim(fw::Lpn lpn) {
    expected_.erase(lpn);
    ftl_->trim(lpn);
  }
  uint64_t expected(fw::Lpn lpn) const {
    auto it = expected_.find(lpn);
    return it == expected_.end() ? 0 : it->second;
  }
  // Reads `lpn` and checks it returns the last version written (0 if never or trimmed).
  void check(fw::Lpn lpn) {
    fw::PageToken t;
    const fw::Ftl::ReadResult r = ftl_->read(lpn, t);
    EXPECT_EQ(t, (fw::PageToken{lpn, expected(lpn)})) << "lpn " << lpn;
    EXPECT_EQ(r.mapped, expected(lpn) != 0) << "lpn " << lpn;
  }
  void check_all() {
    for (fw::Lpn l = 0; l < cfg_.logical_pages(); ++l) check(l);
  }

  // Flash commands of one kind issued from op index `from` on.
  std::vector<FakeHal::FlashOp> ops(FakeHal::OpKind kind, size_t from = 0) const {
    std::vector<FakeHal::FlashOp> out;
    for (size_t i = from; i < hal_.ops().size(); ++i)
      if (hal_.ops()[i].kind == kind) out.push_back(hal_.ops()[i]);
    return out;
  }
  size_t op_count() const { return hal_.ops().size(); }

  // Every program is a host page, a merge copy, padding or a wear-levelling copy; the FTL's
  // counts agree with what the NAND saw.
  void expect_program_identity() const {
    const fw::FtlStats& s = ftl_->stats();
    const fw::LogBlockStats& l = log_stats();
    EXPECT_EQ(hal_.total_programs(), s.pages_programmed);
    EXPECT_EQ(s.pages_programmed, s.host_pages_written + l.merge_pages_copied + l.pages_padded +
                                      s.wl_pages_copied + s.gc_pages_copied);
    EXPECT_EQ(hal_.total_erases(), s.blocks_erased);
  }

  const config::DriveConfig& cfg() const { return cfg_; }
  FakeHal& hal() { return hal_; }
  fw::Ftl& ftl() { return *ftl_; }
  const fw::FtlStats& stats() const { return ftl_->stats(); }
  const fw::LogBlockStats& log_stats() const {
    return dynamic_cast<const fw::LogBlockFtl&>(*ftl_).log_stats();
  }
  uint64_t figure(const std::string& group, const std::string& name) const {
    return test::figure(*ftl_, group, name);
  }

 private:
  config::DriveConfig cfg_;
  FakeHal hal_;
  std::unique_ptr<fw::Ftl> ftl_;
  std::unordered_map<fw::Lpn, uint64_t> expected_;
  uint64_t version_ = 0;
};

}  // namespace test
}  // namespace ssd
