#pragma once
// Where a host command's time went (docs/report.md#latency-breakdown): its latency cut into
// stages along its critical path, which add up exactly to the latency. The modules stamp a
// command on its way: the host interface when it was fetched and when it reached the
// controller; the controller its stages inside the drive and when it was done; the host the
// rest.
//
// Inside the drive the critical path runs through the controller core (waiting for it, then
// its firmware work; either way, the spans the core was blocked on flash are told apart) to
// the flash command that ended last, when one ended after the firmware work: that command's wait
// for its data, its wait at the die (behind garbage collection, behind power, behind other work),
// and its operation. A stage the path entered before the command reached the controller (a command
// it waits for that was issued earlier) counts from then on.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include <systemc>

namespace ssd::model {

// In path order; what each holds: meaning() (and docs/report.md#latency-breakdown).
enum class Stage : uint8_t {
  HostQueue,
  Submission,
  LinkIn,
  CoreQueue,
  Firmware,
  Messages,
  FtlQueue,
  FtlFirmware,
  CoreWaitFlash,
  CoreWaitGc,
  DataWait,
  Throttle,
  FlashWaitHost,
  FlashWaitGc,
  FlashWaitPower,
  Flash,
  ReadRetry,
  EccDecode,
  TransferBack,
};
inline constexpr std::size_t kStageCount = 19;

// The stages a drive has: work handed from the host core to an FTL core only with several
// cores (controller.cores), a read's retry steps and decodes only with aging NAND
// (flash.reliability). Reports list a drive's own, so other drives' figures read as they always
// have.
struct StagesShown {
  bool several_cores = false;
  bool aging = false;
};
inline bool shown(Stage s, StagesShown on) {
  if (s == Stage::Messages || s == Stage::FtlQueue || s == Stage::FtlFirmware)
    return on.several_cores;
  if (s == Stage::ReadRetry || s == Stage::EccDecode) return on.aging;
  return true;
}

// Its name in report.json and requests.csv, and what it holds (for the docs check).
const char* to_string(Stage s);
const char* meaning(Stage s);

struct LatencyBreakdown {
  std::array<sc_core::sc_time, kStageCount> stage{};
  // Stamps: fetched and at the controller (host interface), done in the drive (controller).
  sc_core::sc_time fetched, at_controller, done;

  // The initiator's stages, once the drive's are in: the command arrived at `arrival`, was
  // sent to the drive at `sent` and completed at `completed`.
  void close(const sc_core::sc_time& arrival, const sc_core::sc_time& sent,
             const sc_core::sc_time& completed) {
    (*this)[Stage::HostQueue] = sent - arrival;
    (*this)[Stage::Submission] = fetched - sent;
    (*this)[Stage::LinkIn] = at_controller - fetched;
    (*this)[Stage::TransferBack] = completed - done;
  }

  sc_core::sc_time& operator[](Stage s) { return stage[static_cast<std::size_t>(s)]; }
  const sc_core::sc_time& operator[](Stage s) const { return stage[static_cast<std::size_t>(s)]; }
};

// Cuts [from, to] into consecutive stages: each step ends at the given time, held within
// what is left, so the stages add up to to - from exactly whatever the times given.
class StageChain {
 public:
  StageChain(LatencyBreakdown& b, const sc_core::sc_time& from, const sc_core::sc_time& to)
      : b_(b), at_(from), to_(std::max(from, to)) {}
  // The stage ends at `t`.
  void until(Stage s, const sc_core::sc_time& t) { b_[s] += advance(t); }
  // A share measured elsewhere: `length` goes to `s`, within what is left up to `limit`.
  void take(Stage s, const sc_core::sc_time& length, const sc_core::sc_time& limit) {
    if (length != sc_core::SC_ZERO_TIME) b_[s] += advance(std::min(at_ + length, limit));
  }
  const sc_core::sc_time& at() const { return at_; }

 private:
  sc_core::sc_time advance(const sc_core::sc_time& t) {
    const sc_core::sc_time next = std::min(std::max(t, at_), to_);
    const sc_core::sc_time d = next - at_;
    at_ = next;
    return d;
  }
  LatencyBreakdown& b_;
  sc_core::sc_time at_, to_;
};

}  // namespace ssd::model
