#pragma once
// The raw bit errors of a page read (flash.reliability; config/ReliabilityConfig.h gives the
// error-rate formula and its sources), and the read-retry steps they take. A read's errors are
// drawn from its codewords' error counts, Poisson with mean rber * codeword bits each (the
// binomial's limit: bits are many, the rate small): the worst codeword decides, so its count
// is drawn at once from the distribution of the maximum, F(k)^codewords, by one uniform that
// a hash of the seed, the page and its block's reads since erase gives. Same page, same reads:
// same errors, whatever else the run does.
//
// Plain C++: tb/tests/BitErrorsTest.cpp.
#include <cstdint>
#include <vector>

#include "config/ReliabilityConfig.h"

namespace ssd::model::flash {

class BitErrors {
 public:
  // Reads of `unit_bytes` (a mapping unit) from a cell of `page_types` bits.
  BitErrors(const config::ReliabilityConfig& r, uint32_t page_types, uint32_t unit_bytes);

  // The raw bit error rate of a page of type `type` (page_types: SLC mode, taken as the first
  // type's) in a block of `pe` program/erase cycles (the drive's pe_cycles included), its data
  // `age_days` old (retention_days included, before acceleration) and its block read `reads`
  // times since its erase.
  double rber(uint32_t pe, double age_days, uint64_t reads, uint32_t type) const {
    return rber_at_reference(pe, age_days * acceleration_, reads, type);
  }
  // The same for data `reference_days` old at the reference temperature (accelerated already).
  double rber_at_reference(uint32_t pe, double reference_days, uint64_t reads, uint32_t type) const;
  // Arrhenius factor of retention at temperature_c against reference_temperature_c.
  double acceleration() const { return acceleration_; }
  // Raw bit errors of the read's worst codeword, for uniform `u` in [0, 1): the smallest k with
  // F(k)^codewords >= u; above every step's reach, the last step's reach + 1.
  uint32_t worst_errors(double rber, double u) const;
  // The uniform of a read: the page (drive-wide die, block, page, unit) and its block's reads.
  double uniform(uint32_t die, uint32_t block, uint32_t page, uint32_t unit, uint64_t reads) const;
  // Retry steps a read with `errors` in its worst codeword takes: the first step that corrects
  // them (0: the first read's hard decode), or retries() when none does (uncorrectable).
  uint32_t retries_for(uint32_t errors) const;
  uint32_t retries() const { return uint32_t(reach_.size()) - 1; }
  // Whether no step corrects `errors`.
  bool uncorrectable(uint32_t errors) const { return errors > reach_.back(); }
  uint32_t codewords() const { return codewords_; }
  double codeword_bits() const { return codeword_bits_; }

 private:
  config::ReliabilityConfig cfg_;
  uint32_t page_types_;
  uint32_t codewords_;
  double codeword_bits_;
  double acceleration_;
  std::vector<uint32_t> reach_;  // correctable bits by step
  std::vector<double> log_k_;    // log(k), k = 1..last reach + 1
};

}  // namespace ssd::model::flash
