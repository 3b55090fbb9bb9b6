#pragma once
// Proves no simulated data is lost: every read must return the data version last written to
// each logical page. Writes carry a unique, increasing version (the token stored in NAND);
// trims and never-written pages read as version 0.
//
// A read that no write or trim of the same page overlapped must return exactly the last
// version. One that overlapped them may return the version committed when it was issued or
// the value of any update issued to that page since: the host cannot know in which order
// the drive applied them. Those values are kept, exactly, only while the page has updates
// or reads in flight.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/PageMap.h"
#include "firmware/Firmware.h"
#include "firmware/Types.h"
#include "report/HostStats.h"

namespace ssd::ip {

class Scoreboard {
 public:
  // Pages are numbered below `pages`.
  explicit Scoreboard(uint64_t pages = uint64_t{1} << 32);

  // What a read remembers of one page at issue (and a write, of the update it issued).
  struct Watch {
    fw::Lpn lpn;
    uint32_t epoch;            // updates issued to the page so far in its busy period
    uint64_t committed;        // value of the latest-issued completed update
    bool quiet;                // no update of the page in flight at issue
    uint32_t committed_epoch;  // that update's epoch
  };

  // A host command is issued: a read watches every page it touches, a write updates them all,
  // a trim the pages it covers whole (flush: none). Its watches go to `out`.
  void command_issued(const fw::HostCommand& cmd, uint64_t page_bytes, std::vector<Watch>& out);
  // It completed: a read's pages are checked against `read_data` (a page's token each) and
  // released, or, `failed` (an unrecovered read error the drive reported), counted as reported
  // and released; an update's completes, or, `failed` (refused by a read-only drive), is
  // undone. `flow`: named in a mismatch's message (null: not
  // named).
  void command_completed(const fw::HostCommand& cmd, const std::vector<Watch>& watches,
                         const std::vector<fw::PageToken>& read_data, bool failed,
                         const std::string* flow = nullptr);

  // A request for the page will be issued soon: bring its slot towards the cache.
  void prefetch(fw::Lpn lpn) const { pages_.prefetch(lpn); }

  // A write (version > 0) or trim (version 0) of the page is issued / completes. Issuing
  // returns the update's epoch, which its completion passes back.
  uint32_t update_issued(fw::Lpn lpn, uint64_t version);
  void update_completed(fw::Lpn lpn, uint64_t version, uint32_t epoch);
  // The update failed: the page holds what it held without it (counted as refused).
  void update_failed(fw::Lpn lpn, uint64_t version, uint32_t epoch);

  // Updates of the pages [first, stop) to `version` that may or may not happen: the pages a zone
  // append may land on (the host learns where from its completion), a zone reset's (version 0).
  // Their watches go to `out`.
  void updates_issued(fw::Lpn first, fw::Lpn stop, uint64_t version, std::vector<Watch>& out);
  // They are over: those of the pages [done_first, done_stop) completed, the others never
  // happened (the pages hold what they held without them; not counted as refused).
  void updates_settled(const std::vector<Watch>& watches, uint64_t version, fw::Lpn done_first,
                       fw::Lpn done_stop);
  // A wrong answer the host found itself (a zone append that landed on pages it could not):
  // counted and named as a read's mismatch is.
  void mismatch(const std::string& msg, const std::string* flow = nullptr) { fail(msg, flow); }

  // Deduplicating drives (lifetime manager): the write `version`, whose first page is `first`,
  // carries content `content` (fw::page_content() of each page) on its whole pages
  // [whole_begin, whole_end). A read may then return another write's page of equal content:
  // the same data. Kept for the run.
  void record_content(uint64_t version, fw::Lpn first, fw::Lpn whole_begin, fw::Lpn whole_end,
                      uint64_t content);

  // A read of the page is issued: remember what it may return.
  Watch watch(fw::Lpn lpn);
  // Checks what the read returned (may be called more than once for one watch). `flow`: the
  // flow that read it, named in a mismatch's message (null: not named).
  void check(const Watch& w, const fw::PageToken& got, const std::string* flow = nullptr);
  // The read is over: its page may forget the values kept for it.
  void release(const Watch& w);

  // The supply failed and the units `never_on_flash` were programmed only after the hold-up
  // energy ran out (model::controller::PowerLoss): each that holds the version the host was
  // last told was written to its page is lost by the power loss, counted as such.
  void power_lost(const std::vector<fw::PageToken>& never_on_flash);
  uint64_t lost_by_power_loss() const { return lost_by_power_loss_; }
  // The firmware lost the units `lost` (its list), `why`: a die stopped answering and took them
  // (flash.faults.dead_die), or no die had room left for their data. Each that held data the
  // host was told was written (a version other than 0 completed), or with no room one a write of
  // which is in flight (its data, without a write buffer), is lost by that cause, counted as
  // such; reads of it then fail with an error (counted as reported).
  void units_lost(const std::vector<fw::Lpn>& lost, fw::UnitLoss why);
  uint64_t lost_by_dead_die() const { return lost_by_dead_die_; }
  uint64_t lost_by_no_room() const { return lost_by_no_room_; }

  uint64_t pages_checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  uint64_t reported() const { return reported_; }  // pages of reads failed with an error
  uint64_t refused() const { return refused_; }    // pages of updates failed (read-only)
  const std::vector<std::string>& messages() const { return messages_; }
  // For report.json's `scoreboard`.
  report::ScoreboardFigures figures() const {
    return {checked_,  mismatches_,         reported_,         refused_,
            messages_, lost_by_power_loss_, lost_by_dead_die_, lost_by_no_room_};
  }

 private:
  // A page with updates or reads in flight. Epochs count from 0 in each busy period: they
  // are only ever compared with epochs of the same period.
  struct Busy {
    uint64_t last = 0;       // value of the last issued update
    uint64_t committed = 0;  // value of the latest-issued completed update
    uint32_t epoch = 0;
    uint32_t committed_epoch = 0;
    uint32_t in_flight = 0;  // updates
    uint32_t readers = 0;    // reads watching the page
    // (epoch, value) of the updates issued while the page is busy, for overlapping reads.
    std::vector<std::pair<uint32_t, uint64_t>> recent;
  };
  // A page's slot holds its last version while it is quiet, or busy_bit_ | the index of its
  // Busy record: the top bit of what the page map can hold beside the page number (2^37 on a
  // 1 TB drive; a run with more page writes is refused).

  Busy& busy(fw::Lpn lpn);  // the page's record, made when it was quiet
  void withdraw(fw::Lpn lpn, uint64_t version, uint32_t epoch);
  Busy& record(fw::Lpn lpn) { return busy_[pages_.get(lpn) & ~busy_bit_]; }
  void remember_latest(Busy& b);
  // What the slot of a busy page whose record is `b` holds after a completion: the record
  // while requests are in flight, else (the record freed) the page's last version. One probe
  // of the page table per completion.
  uint64_t settled(uint64_t slot, Busy& b);
  void fail(const std::string& msg, const std::string* flow);
  // The content of the page a token names, 0 if not recorded (then only the token itself
  // matches).
  uint64_t content_of(const fw::PageToken& t) const;
  struct Content {
    fw::Lpn first, whole_begin, whole_end;
    uint64_t content;
  };

  PageMap pages_;  // every page ever updated or read; 10 to 15 bytes each
  uint64_t page_count_;
  uint64_t busy_bit_;
  std::vector<Busy> busy_;  // reused, with the capacity of their `recent`
  std::vector<uint32_t> free_busy_;
  uint64_t checked_ = 0;
  uint64_t mismatches_ = 0;
  uint64_t reported_ = 0;
  uint64_t refused_ = 0;
  uint64_t lost_by_power_loss_ = 0;
  uint64_t lost_by_dead_die_ = 0;
  uint64_t lost_by_no_room_ = 0;
  std::vector<std::string> messages_;               // the first few
  std::unordered_map<uint64_t, Content> contents_;  // by write version
};

}  // namespace ssd::ip
