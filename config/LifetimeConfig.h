#pragma once
// The integrated lifetime manager (lifetime; docs/lifetime.md).
// The struct, its field table (keys, members, ranges: read, written and listed by config/json/)
// and its own rules; rules across sections are DriveConfig's. docs/config.md documents each key.
#include <cstdint>

#include "config/Choices.h"
#include "config/json/Bounds.h"

namespace ssd::config {

// The integrated lifetime manager (Lee et al.; docs/lifetime.md): deduplication and compression
// units on the controller, write throttling, and the epoch manager that chooses among them so
// the drive lasts its warranty. Off unless mode names one.
struct LifetimeConfig {
  LifetimeMode mode = LifetimeMode::Off;
  double epoch_s = 300.0;       // the manager decides once an epoch (5 minutes)
  double warranty_years = 5.0;  // the lifetime the manager aims at
  uint32_t pe_cycles = 3000;    // P/E cycles a block endures (2-bit MLC)
  uint32_t chunk_pages = 4;     // pages compressed together (no padding waste)
  double t_compress_us = 64.0;  // compression unit, per page
  double p_compress_mw = 60.0;
  double t_decompress_us = 64.0;  // decompression, per page read (assumed = compression)
  double t_hash_us = 8.6;         // deduplication hash unit, per page
  double p_hash_mw = 49.0;
  double t_write_us = 600.0;  // a page write through the flash controller, for the
  double p_write_mw = 48.5;   // manager's energy ratios

  bool enabled() const { return mode != LifetimeMode::Off; }
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Lifetime, class V>
void visit_lifetime(Lifetime& l, V& v) {
  v("mode", l.mode);
  v("epoch_s", l.epoch_s, between(1e-3, 3.6e5));  // up to 100 hours
  v("warranty_years", l.warranty_years, Bounds{0.0, true, 100.0, false});
  v("pe_cycles", l.pe_cycles, between(1, 1e7));
  v("chunk_pages", l.chunk_pages, between(1, 8));
  v("t_compress_us", l.t_compress_us, kStepTime);
  v("p_compress_mw", l.p_compress_mw, kPower);
  v("t_decompress_us", l.t_decompress_us, kStepTime);
  v("t_hash_us", l.t_hash_us, kStepTime);
  v("p_hash_mw", l.p_hash_mw, kPower);
  v("t_write_us", l.t_write_us, kPositiveStepTime);
  v("p_write_mw", l.p_write_mw, Bounds{0.0, true, 1e5, false});
}

}  // namespace ssd::config
