#pragma once
// Checks shared by the normalization and regularization layer tests.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "keras/keras.h"

namespace keras::test {

/// get_config -> from_config(class) -> get_config gives the same config, and so does
/// deserialize(serialize(layer)).
inline void expect_config_round_trip(const Layer& layer) {
  Config c = layer.get_config();
  auto again = layers::from_config(layer.class_name(), c);
  EXPECT_EQ(again->class_name(), layer.class_name());
  EXPECT_EQ(again->get_config(), c) << layer.class_name();
  Config record = layers::serialize(layer);
  EXPECT_EQ(record["class_name"], layer.class_name());
  auto revived = layers::deserialize(record);
  EXPECT_EQ(revived->get_config(), c) << layer.class_name();
}

/// `fn` throws a keras::Error whose message contains `needle`.
inline void expect_error_mentions(const std::function<void()>& fn, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "expected an error mentioning '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

/// Calling `layer` on Input(shape) gives the shape of an eager call on a batch of 2, with the
/// batch axis unknown (-1).
template <typename L>
void expect_symbolic_shape(const LayerPtr<L>& layer, const Shape& shape, CallContext ctx = {}) {
  KerasTensor in = Input(shape);
  KerasTensor out = layer(in, ctx);
  Shape full{2};
  for (int64_t d : shape) full.push_back(d);
  Tensor eager = layer(ops::ones(full), ctx);
  Shape expected = eager.shape();
  expected[0] = -1;
  EXPECT_EQ(out.shape(), expected) << layer->class_name();
  EXPECT_EQ(out.dtype(), eager.dtype()) << layer->class_name();
}

/// Smooth, irregular float32 values: sin(7 i + seed).
inline Tensor sin_tensor(const Shape& shape, int seed, DType dtype = DType::Float32) {
  std::vector<double> v(static_cast<size_t>(shape.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = 1.7 * std::sin(7.0 * i + seed);
  return ops::cast(Tensor::from_vector(v, shape), dtype);
}

}  // namespace keras::test
