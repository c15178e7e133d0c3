#pragma once
// What every keras.applications architecture shares (Keras's imagenet_utils and the argument
// handling at the top of each architecture function): the input shape rule, the input tensor,
// the pooling of a model without top, and the weights at the end.

#include <string>
#include <utility>

#include "keras/applications/application_options.h"
#include "keras/models/functional.h"

namespace keras::applications::detail {

/// What an architecture tells the shared steps about itself.
struct Architecture {
  /// Keras's default model name ("resnet50").
  std::string default_name;
  /// The input size of its ImageNet weights, and the smallest it accepts.
  int64_t default_size = 224;
  int64_t min_size = 32;
  /// The names of Keras's ImageNet weight files with and without top (what it caches in
  /// ~/.keras/models); "" where Keras has none for this variant.
  std::string weights_file_top, weights_file_notop;
};

/// Keras's checks of `weights`, `classes` and `classifier_activation` (what image_input does
/// first; for architectures with their own input-shape rule, MobileNetV3).
void check_arguments(const ApplicationOptions& options);

/// The image input of `options` after Keras's checks (weights, classes, classifier
/// activation, input shape: imagenet_utils.obtain_input_shape). Call it first.
KerasTensor image_input(const ApplicationOptions& options, const Architecture& arch);

/// Keras's imagenet_utils.obtain_input_shape.
Shape obtain_input_shape(const std::optional<Shape>& input_shape, int64_t default_size,
                         int64_t min_size, const std::string& data_format, bool require_flatten,
                         const std::string& weights);

/// The channel axis as Keras writes it in BatchNormalization configs: 3 (channels_last) or 1.
int bn_axis();

/// The channel axis as Keras's MobileNets write it: -1 (channels_last) or 1.
int channel_axis();

/// Without top: GlobalAveragePooling2D or GlobalMaxPooling2D as `options.pooling` asks (named
/// as the architecture names them; "" for an automatic name); `x` itself for "". ValueError
/// for another value.
KerasTensor pooling_head(const KerasTensor& x, const ApplicationOptions& options,
                         const std::string& avg_name = "avg_pool",
                         const std::string& max_name = "max_pool");

/// The top most architectures share: with options.include_top, GlobalAveragePooling2D named
/// `top_pool_name` and the Dense classifier "predictions"; without, pooling_head(x, options,
/// avg_name, max_name). "" for an automatic name.
KerasTensor classifier_head(const KerasTensor& x, const ApplicationOptions& options,
                            const std::string& top_pool_name = "avg_pool",
                            const std::string& avg_name = "avg_pool",
                            const std::string& max_name = "max_pool");

/// The Functional model from the image input (or the inputs input_tensor came from) to
/// `outputs`, named options.name or the architecture's name, with the weights `options` asks
/// for loaded.
ModelPtr<FunctionalModel> finish(const KerasTensor& image, const KerasTensor& outputs,
                                 const ApplicationOptions& options, const Architecture& arch);

/// Keras's imagenet_utils.correct_pad: the ZeroPadding2D amounts before a strided "valid"
/// convolution that reproduce TensorFlow's "same" padding.
std::pair<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> correct_pad(
    const KerasTensor& inputs, int64_t kernel_size);

/// Python's str(float(v)) for the widths Keras names weight files with ("1.0", "0.35").
std::string python_float(double v);

/// Keras's _make_divisible (MobileNetV2/V3): `v` rounded to the nearest multiple of
/// `divisor`, at least `min_value` (default: divisor) and never more than 10% below `v`.
int64_t make_divisible(double v, int64_t divisor, int64_t min_value = 0);

/// The first output of a layer called on a list (Add, Concatenate, Multiply ...).
template <typename LayerPtrT>
KerasTensor merge(const LayerPtrT& layer, std::vector<KerasTensor> inputs) {
  return layer(inputs)[0];
}

}  // namespace keras::applications::detail
