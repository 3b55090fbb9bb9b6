#pragma once
// The flash translation layer interface: one implementation per file in firmware/ftl/, chosen
// by config name (ftl.type). The firmware's command processor splits host commands into
// page operations and calls these; an FTL reaches hardware only through the Hal.
#include <cstdint>
#include <memory>
#include <string>

#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"
#include "firmware/Types.h"

namespace ssd::fw {

struct FtlStats {
  uint64_t host_pages_written = 0;
  uint64_t pages_programmed = 0;  // host + GC
  uint64_t gc_runs = 0;           // times GC was entered
  uint64_t gc_blocks_reclaimed = 0;
  uint64_t gc_pages_copied = 0;
  uint64_t blocks_erased = 0;
};

class Ftl {
 public:
  struct ReadResult {
    sc_core::sc_time ready;  // data in controller buffer (or lookup done, when unmapped)
    bool mapped;
  };

  virtual ~Ftl() = default;
  virtual ReadResult read(Lpn lpn, PageToken& out) = 0;
  // Returns when the page is programmed. `data_ready`: when the data is in the buffer.
  virtual sc_core::sc_time write(Lpn lpn, const PageToken& data,
                                 const sc_core::sc_time& data_ready) = 0;
  virtual void trim(Lpn lpn) = 0;
  virtual const FtlStats& stats() const = 0;
  virtual std::string name() const = 0;
  // DRAM the FTL's tables need: it must fit dram.size_mb.
  virtual uint64_t mapping_table_bytes() const = 0;
};

// Builds the FTL named by cfg.ftl.type; throws ssd::ConfigError for an unknown name or tables
// that do not fit the DRAM.
std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal);

}  // namespace ssd::fw
