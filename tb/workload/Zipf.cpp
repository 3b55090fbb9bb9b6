#include "tb/workload/Zipf.h"

#include <cmath>

namespace ssd::tb {

namespace {

// ln 2 split so that k * kLn2Hi is exact for the |k| < 2^11 that doubles need.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kSqrtHalf = 0.70710678118654752440;

// log(1 + x) / x and (exp(x) - 1) / x, continuous at 0 (Apache Commons RNG's helpers).
double helper1(double x) {
  if (std::fabs(x) > 1e-8) return portable_log1p(x) / x;
  return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

double helper2(double x) {
  if (std::fabs(x) > 1e-8) return portable_expm1(x) / x;
  return 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

}  // namespace

double portable_log(double x) {
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); frexp and ldexp are exact.
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < kSqrtHalf) {
    m *= 2;
    --e;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.1716: the series converges fast.
  const double s = (m - 1) / (m + 1);
  const double s2 = s * s;
  double sum = 0;
  for (int k = 23; k >= 3; k -= 2) sum = (sum + 1.0 / k) * s2;
  const double log_m = 2 * s + 2 * s * sum;
  return e * kLn2Hi + (e * kLn2Lo + log_m);
}

double portable_exp(double x) {
  if (x > 709.8) return HUGE_VAL;
  if (x < -745.2) return 0;
  // x = k ln2 + r, |r| <= ln2 / 2; exp(r) by its Taylor series, then scaled by 2^k.
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double sum = 1;
  for (int i = 17; i >= 1; --i) sum = 1 + sum * r / i;
  return std::ldexp(sum, static_cast<int>(k));
}

double portable_log1p(double x) {
  // Goldberg's trick: the rounding of 1 + x cancels out of log(u) / (u - 1).
  const double u = 1 + x;
  if (u == 1) return x;
  return portable_log(u) * x / (u - 1);
}

double portable_expm1(double x) {
  if (std::fabs(x) < 0.5) {
    // The Taylor series directly, without the cancellation of exp(x) - 1.
    double sum = 1;
    for (int i = 18; i >= 2; --i) sum = 1 + sum * x / i;
    return x * sum;
  }
  return portable_exp(x) - 1;
}

ZipfSampler::ZipfSampler(uint64_t n, double theta) : n_(n), theta_(theta) {
  h_integral_x1_ = h_integral(1.5) - 1;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2 - h_integral_inverse(h_integral(2.5) - h(2));
}

double ZipfSampler::h(double x) const { return portable_exp(-theta_ * portable_log(x)); }

double ZipfSampler::h_integral(double x) const {
  const double log_x = portable_log(x);
  return helper2((1 - theta_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1 - theta_);
  if (t < -1) t = -1;  // rounding only: the exact value is > -1
  return portable_exp(helper1(t) * x);
}

uint64_t ZipfSampler::operator()(std::mt19937_64& rng) const {
  for (;;) {
    // Uniform in (h_integral_x1_, h_integral_n_]; invert, round to the nearest rank, and
    // accept with the exact ratio of the rank's mass to the hat's.
    const double u = h_integral_n_ + unit_interval(rng) * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1) {
      k = 1;
    } else if (k > static_cast<double>(n_)) {
      k = static_cast<double>(n_);
    }
    if (k - x <= s_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<uint64_t>(k);
  }
}

}  // namespace ssd::tb
