#pragma once
// Exact Zipf sampling, identical on every platform: the same seed gives the same stream with
// any compiler and standard library.
#include <cstdint>
#include <random>

namespace ssd::tb {

// Draws k in [1, n] with probability proportional to k^-theta (theta > 0), by
// Hoermann and Derflinger's rejection-inversion (ACM TOMACS 6(3), 1996): exact, O(1) per draw
// and no table, so n may be the number of blocks of a whole drive. Its log and exp are
// computed here from IEEE-754 additions, multiplications and divisions only, which are
// correctly rounded everywhere, instead of the C library's, whose last bits differ between
// implementations.
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double theta);
  uint64_t operator()(std::mt19937_64& rng) const;

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  uint64_t n_;
  double theta_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

// The portable elementary functions the sampler uses, exposed for their tests. Accurate to
// about one unit in the last place.
double portable_log(double x);  // x > 0
double portable_exp(double x);
double portable_log1p(double x);  // x > -1
double portable_expm1(double x);

// [0, 1) from the top 53 bits of one draw: exact, so comparisons with it are portable.
inline double unit_interval(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace ssd::tb
