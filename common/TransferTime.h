#pragma once
// How long a transfer of some bytes takes at a fixed rate in MB/s (bytes / (MB/s) is
// microseconds). Transfers mostly have one size, so the last conversion is kept: an sc_time
// from a double is a call into the SystemC library, on the path of every request.
#include <cstdint>

#include <systemc>

namespace ssd {

class TransferTime {
 public:
  explicit TransferTime(double mb_per_s) : mb_per_s_(mb_per_s) {}

  const sc_core::sc_time& operator()(uint64_t bytes) {
    if (bytes != bytes_) {
      bytes_ = bytes;
      time_ = sc_core::sc_time(double(bytes) / mb_per_s_, sc_core::SC_US);
    }
    return time_;
  }

 private:
  double mb_per_s_;
  uint64_t bytes_ = 0;  // of the last conversion (0 bytes take no time)
  sc_core::sc_time time_;
};

}  // namespace ssd
