#include "models/layer_fusion.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <typeinfo>
#include <vector>

#include "keras/layers/convolutional/conv.h"
#include "keras/layers/pooling/max_pooling.h"
#include "keras/ops/ops.h"
#include "keras/tensor/keras_mask.h"
#include "ops/nn/conv_pool.h"
#include "ops/nn/epilogue.h"

namespace keras::detail {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool float_policy(const Layer& layer) {
  const DType c = layer.compute_dtype();
  return (c == DType::Float32 || c == DType::Float64) && layer.variable_dtype() == c;
}

}  // namespace

bool can_fuse(const Layer& first, const Layer& second) {
  // Exact classes: a subclass may override call().
  if (typeid(first) != typeid(layers::Conv2DLayer) ||
      typeid(second) != typeid(layers::MaxPooling2DLayer))
    return false;
  const auto& conv = static_cast<const layers::Conv2DLayer&>(first);
  const auto& pool = static_cast<const layers::MaxPooling2DLayer&>(second);
  const std::vector<int64_t> two{2, 2};
  return conv.built() && pool.built() && conv.data_format() == "channels_last" &&
         conv.padding() != "causal" &&
         ops::detail::fusable_activation(conv.options().activation).has_value() &&
         !conv.activity_regularizer() && float_policy(conv) &&
         pool.data_format() == "channels_last" && pool.pool_size() == two &&
         pool.strides() == two && lower(pool.padding()) == "valid" &&
         !pool.activity_regularizer() && pool.compute_dtype() == conv.compute_dtype();
}

// (The pooling layer has no state: can_fuse checked all that matters of it.)
Tensor call_fused(Layer& first, Layer& /*second*/, const Tensor& x) {
  const auto& conv = static_cast<const layers::Conv2DLayer&>(first);
  const Shape& kernel = conv.kernel().shape();
  if (x.ndim() != 4 || x.shape()[3] != kernel[2] * conv.groups() || get_keras_mask(x).defined() ||
      !is_floating(x.dtype()))
    return Tensor();
  const ops::ConvOptions options{.strides = ops::IntOrTuple(conv.strides()),
                                 .padding = conv.padding(),
                                 .data_format = conv.data_format(),
                                 .dilation_rate = ops::IntOrTuple(conv.dilation_rate())};
  return ops::detail::conv_bias_activation_max_pool(
      ops::cast(x, conv.compute_dtype()), conv.kernel().value(),
      conv.options().use_bias ? conv.bias().value() : Tensor(),
      *ops::detail::fusable_activation(conv.options().activation), options);
}

}  // namespace keras::detail
