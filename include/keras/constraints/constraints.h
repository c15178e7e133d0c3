#pragma once
// The built-in constraints of keras.constraints, with Keras's defaults.

#include <string>
#include <vector>

#include "keras/constraints/constraint.h"
#include "keras/ops/axes.h"

#pragma GCC visibility push(default)
namespace keras::constraints {

/// Rescales each slice along `axis` whose norm exceeds max_value.
class MaxNorm final : public Constraint {
 public:
  /// Keras's MaxNorm(max_value=2, axis=0).
  /// `max_value` is the largest norm kept; `axis` the axes each norm is taken over (0: each column
  /// of a Dense kernel `(in, out)`; `{0, 1, 2}` for a Conv2D kernel).
  explicit MaxNorm(double max_value = 2.0, ops::Axes axis = 0);
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MaxNorm"; }
  Config get_config() const override;

 private:
  double max_value_;
  ops::Axes axis_;
};

/// Moves each slice's norm into [min_value, max_value], at `rate`.
class MinMaxNorm final : public Constraint {
 public:
  /// Keras's MinMaxNorm(min_value=0, max_value=1, rate=1, axis=0).
  /// Each norm n becomes `rate * clip(n, min_value, max_value) + (1 - rate) * n` (rate 1: strict
  /// clipping); `axis` as for MaxNorm.
  explicit MinMaxNorm(double min_value = 0.0, double max_value = 1.0, double rate = 1.0,
                      ops::Axes axis = 0);
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MinMaxNorm"; }
  Config get_config() const override;

 private:
  double min_value_, max_value_, rate_;
  ops::Axes axis_;
};

/// Zeroes the negative entries.
class NonNeg final : public Constraint {
 public:
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "NonNeg"; }
};

/// Scales each slice along `axis` to unit norm.
class UnitNorm final : public Constraint {
 public:
  /// Keras's UnitNorm(axis=0): `axis` is the axes each norm is taken over (0: each column of a
  /// Dense kernel).
  explicit UnitNorm(ops::Axes axis = 0);
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "UnitNorm"; }
  Config get_config() const override;

 private:
  ops::Axes axis_;
};

}  // namespace keras::constraints

#pragma GCC visibility pop
