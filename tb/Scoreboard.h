#pragma once
// Proves no simulated data is lost: every read must return the data version last written to
// each logical page. Writes carry a unique, increasing version (the token stored in NAND);
// trims and never-written pages read as version 0.
//
// A read that no write or trim of the same page overlapped must return exactly the last
// version. One that overlapped them may return the version committed when it was issued or
// any version issued to that page since (0 if a trim was among them): the host cannot know
// which the drive applied first.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "firmware/Types.h"

namespace ssd::tb {

class Scoreboard {
 public:
  // What a read remembers of one page at issue.
  struct Watch {
    fw::Lpn lpn;
    uint32_t epoch;
    uint64_t committed;
    bool quiet;  // no write or trim of the page in flight at issue
  };

  // A write (version > 0) or trim (version 0) of these pages is issued / completes.
  void update_issued(fw::Lpn lpn, uint64_t version);
  void update_completed(fw::Lpn lpn, uint64_t version, uint32_t epoch);
  uint32_t epoch(fw::Lpn lpn) const;

  Watch watch(fw::Lpn lpn) const;
  void check(const Watch& w, const fw::PageToken& got);

  uint64_t pages_checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  struct Page {
    uint64_t last = 0;        // value of the last issued update
    uint64_t committed = 0;   // value of the latest-issued completed update
    uint64_t max_version = 0; // highest write version ever issued
    uint32_t epoch = 0;       // updates issued
    uint32_t committed_epoch = 0;
    uint32_t in_flight = 0;
    bool trim_since_commit = false;
  };
  void fail(const std::string& msg);

  std::unordered_map<fw::Lpn, Page> pages_;  // only pages ever updated
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  std::vector<std::string> messages_;  // the first few
};

}  // namespace ssd::tb
