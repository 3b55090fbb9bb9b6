// Aging NAND's bit errors (model/flash/BitErrors.h, docs/reliability.md): the raw bit error rate
// is the configured formula, exactly; a read's worst codeword count is the inverse of the
// maximum's distribution at its uniform; the retry steps are the first that corrects it.
#include <gtest/gtest.h>

#include <cmath>

#include "model/flash/BitErrors.h"

namespace ssd {
namespace {

using model::flash::BitErrors;

config::ReliabilityConfig coefficients() {
  config::ReliabilityConfig r;
  r.enabled = true;
  r.rber_base = 1e-5;
  r.rber_wear = 2e-10;
  r.wear_exponent = 2.0;
  r.rber_retention = 3e-8;
  r.retention_wear_exponent = 1.0;
  r.retention_time_exponent = 0.5;
  r.rber_disturb = 4e-12;
  r.disturb_wear_exponent = 1.0;
  r.rber_by_page_type = {1.0, 2.0, 3.0};
  r.reference_temperature_c = 25;
  r.temperature_c = 25;
  r.codeword_bytes = 1024;
  r.correctable_bits = 10;
  r.retry_steps = {{60, 1, 20}, {60, 1, 40}};
  return r;
}

// At 3,000 cycles, 100 days, 10,000 reads, the second page type:
// (1e-5 + 2e-10 x 3000^2 + 3e-8 x 3000 x 100^0.5 + 4e-12 x 3000 x 1e4) x 2
// = (1e-5 + 1.8e-3 + 9e-4 + 1.2e-4) x 2 = 5.66e-3.
TEST(BitErrors, TheRateIsTheFormula) {
  const BitErrors e(coefficients(), 3, 4096);
  EXPECT_NEAR(e.rber(3000, 100, 10000, 1), 5.66e-3, 1e-15);
  EXPECT_NEAR(e.rber(0, 0, 0, 0), 1e-5, 1e-20);
  EXPECT_NEAR(e.rber(0, 0, 0, 3), 1e-5, 1e-20);  // SLC mode: the first type's factor
  EXPECT_EQ(e.codewords(), 4u);
  EXPECT_EQ(e.codeword_bits(), 8192.0);
}

// JEDEC's 1.1 eV from 25 C to 55 C: exp(1.1 / k (1/298.15 - 1/328.15)) = 50.10.
TEST(BitErrors, RetentionAcceleratesByArrhenius) {
  config::ReliabilityConfig r = coefficients();
  r.temperature_c = 55;
  const BitErrors hot(r, 3, 4096);
  EXPECT_NEAR(hot.acceleration(), 50.105, 0.001);
  // 2 days at 55 C age the data as 100.2 days at 25 C.
  const BitErrors cool(coefficients(), 3, 4096);
  EXPECT_NEAR(hot.rber(3000, 2, 0, 0), cool.rber(3000, 2 * hot.acceleration(), 0, 0), 1e-18);
  EXPECT_GT(hot.rber(3000, 2, 0, 0), cool.rber(3000, 2, 0, 0));
}

// The worst of 4 codewords of 8,192 bits at rate 1e-3 (mean 8.192 each): below F(k)^4 it has
// at most k errors, above it k + 1; past the last step's reach (40) the count stops at 41.
TEST(BitErrors, TheWorstCodewordIsTheMaximumsInverse) {
  const BitErrors e(coefficients(), 3, 4096);
  const double mean = 8.192;
  double p = std::exp(-mean), cdf = p;
  for (uint32_t k = 0; k <= 20; ++k) {
    const double worst = std::pow(cdf, 4.0);
    EXPECT_EQ(e.worst_errors(1e-3, worst * (1 - 1e-9)), k) << k;
    if (worst < 1 - 1e-12) {
      EXPECT_EQ(e.worst_errors(1e-3, worst * (1 + 1e-9)), k + 1) << k;
    }
    p *= mean / double(k + 1);
    cdf += p;
  }
  EXPECT_EQ(e.worst_errors(0.5, 0.999), 41u);
  EXPECT_EQ(e.worst_errors(0.0, 0.999), 0u);
}

TEST(BitErrors, AReadTakesTheFirstStepThatCorrectsIt) {
  const BitErrors e(coefficients(), 3, 4096);
  EXPECT_EQ(e.retries(), 2u);
  EXPECT_EQ(e.retries_for(0), 0u);
  EXPECT_EQ(e.retries_for(10), 0u);
  EXPECT_EQ(e.retries_for(11), 1u);
  EXPECT_EQ(e.retries_for(20), 1u);
  EXPECT_EQ(e.retries_for(40), 2u);
  EXPECT_FALSE(e.uncorrectable(40));
  EXPECT_EQ(e.retries_for(41), 2u);
  EXPECT_TRUE(e.uncorrectable(41));
}

// The draw is the seed's and the page's: the same page read as often gives the same uniform,
// another read of the block or another seed another.
TEST(BitErrors, DrawsAreSeededByThePageAndItsReads) {
  const BitErrors e(coefficients(), 3, 4096);
  const double u = e.uniform(3, 17, 5, 0, 9);
  EXPECT_EQ(u, BitErrors(coefficients(), 3, 4096).uniform(3, 17, 5, 0, 9));
  EXPECT_GE(u, 0.0);
  EXPECT_LT(u, 1.0);
  EXPECT_NE(u, e.uniform(3, 17, 5, 0, 10));
  EXPECT_NE(u, e.uniform(3, 17, 5, 1, 9));
  config::ReliabilityConfig other = coefficients();
  other.seed = 2;
  EXPECT_NE(u, BitErrors(other, 3, 4096).uniform(3, 17, 5, 0, 9));
  // Over many reads the mean count of one codeword is its Poisson mean.
  config::ReliabilityConfig one = coefficients();
  one.codeword_bytes = 4096;
  one.retry_steps = {{60, 1, 200}};
  const BitErrors single(one, 3, 4096);
  double sum = 0;
  constexpr int kReads = 20000;
  for (int i = 0; i < kReads; ++i) sum += single.worst_errors(1e-3, single.uniform(0, 0, 0, 0, i));
  EXPECT_NEAR(sum / kReads, 32.768, 0.15);  // 4096 x 8 bits x 1e-3; sd of the mean 0.04
}

}  // namespace
}  // namespace ssd
