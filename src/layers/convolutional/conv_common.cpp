#include "layers/convolutional/conv_common.h"

#include "keras/ops/ops.h"

namespace keras::layers::detail {

Tensor add_bias_and_activate(const Tensor& y, const Variable& bias, bool use_bias,
                             bool channels_last, const activations::Activation& activation) {
  Tensor out = y;
  if (use_bias) {
    Tensor b = bias.value();
    if (!channels_last) {
      // (filters,) -> (filters, 1, ..., 1): broadcast over the spatial axes after the channels.
      Shape s{b.shape()[0]};
      for (int i = 2; i < y.ndim(); ++i) s.push_back(1);
      b = ops::reshape(b, s);
    }
    out = ops::add(out, b);
  }
  return activation(out);
}

int64_t build_input_channels(const std::string& cls, const std::string& layer,
                             const Shape& input_shape, int rank, bool channels_last) {
  check_input_rank(cls, layer, input_shape, rank);
  const int64_t c = channel_dim(input_shape, channels_last);
  check(c > 0, cls, " '", layer, "': the channel dimension of the inputs (axis ",
        channels_last ? -1 : 1, " for data_format \"",
        channels_last ? "channels_last" : "channels_first",
        "\") must be known and positive; got input shape ", shape_string(input_shape), ".");
  return c;
}

void check_call_input(const std::string& cls, const std::string& layer, const Shape& shape,
                      int rank, bool channels_last, int64_t channels) {
  check_input_rank(cls, layer, shape, rank);
  const int64_t c = channel_dim(shape, channels_last);
  check(c == channels, cls, " '", layer, "': the layer was built for inputs with ", channels,
        " channels (axis ", channels_last ? -1 : 1, ", data_format \"",
        channels_last ? "channels_last" : "channels_first", "\"); got input shape ",
        shape_string(shape), ".");
}

void check_conv_output(const std::string& cls, const std::string& layer, const Shape& input_shape,
                       const Tuple& kernel_size, const Tuple& strides, const Tuple& dilation,
                       const std::string& padding, bool channels_last) {
  const Tuple spatial = spatial_dims(input_shape, channels_last);
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (spatial[i] < 0) continue;
    const int64_t n =
        conv_output_length(spatial[i], kernel_size[i], strides[i], dilation[i], padding);
    check(n > 0, cls, " '", layer,
          "': the output would be empty (computed output size zero or negative) for inputs "
          "of shape ",
          shape_string(input_shape), " with kernel_size=", tuple_string(kernel_size),
          ", strides=", tuple_string(strides), ", dilation_rate=", tuple_string(dilation),
          ", padding=\"", padding, "\".");
  }
}

void read_activation(const Config& c, activations::Activation& out) {
  if (c.contains("activation") && !c["activation"].is_null())
    out = activations::deserialize(c["activation"]);
}

void read_initializer(const Config& c, const char* key, initializers::InitializerArg& out) {
  if (c.contains(key) && !c[key].is_null()) out = initializers::deserialize(c[key]);
}

void read_regularizer(const Config& c, const char* key, regularizers::RegularizerArg& out) {
  if (c.contains(key) && !c[key].is_null()) out = regularizers::deserialize(c[key]);
}

void read_constraint(const Config& c, const char* key, constraints::ConstraintArg& out) {
  if (c.contains(key) && !c[key].is_null()) out = constraints::deserialize(c[key]);
}

Config regularizer_config(const regularizers::RegularizerArg& r) {
  return regularizers::serialize(r.get());
}

Config constraint_config(const constraints::ConstraintArg& c) {
  return constraints::serialize(c.get());
}

}  // namespace keras::layers::detail
