#pragma once
// What the convolution layers share: the bias add and activation of their call, the input
// checks of build and call, and the config fields they write alike.

#include <string>
#include <vector>

#include "keras/layers/layer.h"
#include "layers/convolutional/layer_args.h"

namespace keras::layers::detail {

/// activation(y + bias), with bias broadcast over the channel axis of `data_format`.
Tensor add_bias_and_activate(const Tensor& y, const Variable& bias, bool use_bias,
                             bool channels_last, const activations::Activation& activation);

/// Checks the input rank and that the channel axis is known; returns the channel count.
int64_t build_input_channels(const std::string& cls, const std::string& layer,
                             const Shape& input_shape, int rank, bool channels_last);
/// Checks a call's input against the channels the layer was built for.
void check_call_input(const std::string& cls, const std::string& layer, const Shape& shape,
                      int rank, bool channels_last, int64_t channels);

/// Refuses a build whose known output dimensions would be empty (Keras's
/// compute_conv_output_shape check).
void check_conv_output(const std::string& cls, const std::string& layer, const Shape& input_shape,
                       const Tuple& kernel_size, const Tuple& strides, const Tuple& dilation,
                       const std::string& padding, bool channels_last);

/// Reads a config key into `out` when present (and not null for the optional arguments).
void read_activation(const Config& c, activations::Activation& out);
void read_initializer(const Config& c, const char* key, initializers::InitializerArg& out);
void read_regularizer(const Config& c, const char* key, regularizers::RegularizerArg& out);
void read_constraint(const Config& c, const char* key, constraints::ConstraintArg& out);

/// The serialized forms of optional arguments (null when unset).
Config regularizer_config(const regularizers::RegularizerArg& r);
Config constraint_config(const constraints::ConstraintArg& c);

}  // namespace keras::layers::detail
