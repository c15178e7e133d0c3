#pragma once
// Statistical checks against closed forms, with tolerances in standard errors: a sample of n
// draws has a mean within 5 sqrt(var / n) of the true mean and a variance within
// 5 var sqrt((2 + excess_kurtosis) / n) of the true variance; a chi-square statistic with df
// degrees of freedom stays below df + 5 sqrt(2 df). The seeds are fixed, so these never flake;
// the margins say how unlikely a correct sampler is to miss them (about 1 in 10^6).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

namespace keras::test {

struct SampleMoments {
  double mean = 0, var = 0, min = INFINITY, max = -INFINITY;
  size_t n = 0;
};

inline SampleMoments sample_moments(const std::vector<double>& v) {
  SampleMoments m;
  m.n = v.size();
  for (double x : v) {
    m.mean += x;
    m.min = std::min(m.min, x);
    m.max = std::max(m.max, x);
  }
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(v.size() - 1);
  return m;
}

/// Mean and variance of `v` against the true ones.
inline ::testing::AssertionResult moments_match(const std::vector<double>& v, double mean,
                                                double var, double excess_kurtosis) {
  SampleMoments m = sample_moments(v);
  const double n = static_cast<double>(m.n);
  const double mean_tol = 5 * std::sqrt(var / n);
  const double var_tol = 5 * var * std::sqrt((2 + excess_kurtosis) / n);
  if (std::abs(m.mean - mean) > mean_tol || std::abs(m.var - var) > var_tol)
    return ::testing::AssertionFailure()
           << "sample mean " << m.mean << " (expected " << mean << " +- " << mean_tol
           << "), sample variance " << m.var << " (expected " << var << " +- " << var_tol
           << ") over " << m.n << " draws";
  return ::testing::AssertionSuccess();
}

/// Pearson's chi-square of observed counts against probabilities (bins with an expected count
/// below 5 are pooled into one).
inline ::testing::AssertionResult chi_square_fits(const std::vector<double>& counts,
                                                  const std::vector<double>& probs) {
  double total = 0;
  for (double c : counts) total += c;
  double stat = 0, pooled_obs = 0, pooled_exp = 0;
  int bins = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    double e = probs[i] * total;
    if (e < 5) {
      pooled_obs += counts[i];
      pooled_exp += e;
      continue;
    }
    stat += (counts[i] - e) * (counts[i] - e) / e;
    ++bins;
  }
  if (pooled_exp >= 5) {
    stat += (pooled_obs - pooled_exp) * (pooled_obs - pooled_exp) / pooled_exp;
    ++bins;
  } else if (pooled_obs > 5 + 10 * pooled_exp) {
    return ::testing::AssertionFailure()
           << pooled_obs << " draws fell in bins expecting " << pooled_exp << " in all";
  }
  const double df = bins - 1;
  const double limit = df + 5 * std::sqrt(2 * df);
  if (stat > limit)
    return ::testing::AssertionFailure()
           << "chi-square " << stat << " over " << df << " degrees of freedom (limit " << limit
           << ")";
  return ::testing::AssertionSuccess();
}

/// Histogram of integer-valued draws in [0, bins).
inline std::vector<double> histogram(const std::vector<double>& v, size_t bins) {
  std::vector<double> h(bins, 0.0);
  for (double x : v) {
    auto i = static_cast<size_t>(x);
    if (x >= 0 && i < bins) h[i] += 1;
  }
  return h;
}

}  // namespace keras::test
