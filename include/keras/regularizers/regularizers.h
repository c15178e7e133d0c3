#pragma once
// The built-in regularizers of keras.regularizers, with Keras's defaults.

#include <string>

#include "keras/regularizers/regularizer.h"

#pragma GCC visibility push(default)
namespace keras::regularizers {

/// l1 * sum(|x|).
class L1 final : public Regularizer {
 public:
  /// Keras's L1(l1=0.01): `l1` is the penalty factor; ValueError if it is negative or not finite.
  explicit L1(double l1 = 0.01);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L1"; }
  Config get_config() const override { return {{"l1", l1_}}; }

 private:
  double l1_;
};

/// l2 * sum(x^2).
class L2 final : public Regularizer {
 public:
  /// Keras's L2(l2=0.01): `l2` is the penalty factor; ValueError if it is negative or not finite.
  explicit L2(double l2 = 0.01);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L2"; }
  Config get_config() const override { return {{"l2", l2_}}; }

 private:
  double l2_;
};

/// l1 * sum(|x|) + l2 * sum(x^2); both 0 unless given (the string "l1_l2" means 0.01, 0.01).
class L1L2 final : public Regularizer {
 public:
  /// Keras's L1L2(l1=0, l2=0): the two penalty factors; ValueError if one is negative or not
  /// finite.
  explicit L1L2(double l1 = 0.0, double l2 = 0.0);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L1L2"; }
  Config get_config() const override { return {{"l1", l1_}, {"l2", l2_}}; }

 private:
  double l1_, l2_;
};

/// Pushes the rows (or columns) of a 2-d weight towards orthogonality: factor times the mean
/// absolute cosine similarity between distinct rows.
class OrthogonalRegularizer final : public Regularizer {
 public:
  /// Keras's OrthogonalRegularizer(factor=0.01, mode="rows").
  /// `mode` is "rows" or "columns" (which vectors are pushed apart); ValueError for another mode or
  /// a negative `factor`.
  explicit OrthogonalRegularizer(double factor = 0.01, std::string mode = "rows");
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "OrthogonalRegularizer"; }
  Config get_config() const override { return {{"factor", factor_}, {"mode", mode_}}; }

 private:
  double factor_;
  std::string mode_;
};

}  // namespace keras::regularizers

#pragma GCC visibility pop
