// Facts from keras/src/applications/imagenet_utils.py and the argument handling every
// architecture function of keras.applications repeats.

#include "application_builder.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/pooling/global_average_pooling.h"
#include "keras/layers/pooling/global_max_pooling.h"

namespace keras::applications::detail {
namespace {

bool is_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (int i = 0; i < s.rank(); ++i) {
    out += (i ? ", " : "") + (s[i] < 0 ? std::string("None") : std::to_string(s[i]));
  }
  return out + (s.rank() == 1 ? ",)" : ")");
}

// The Input tensors `t` was computed from, in order of discovery (Keras's get_source_inputs).
void collect_source_inputs(const KerasTensor& t, std::vector<KerasTensor>& out,
                           std::set<const void*>& seen) {
  if (!seen.insert(t.id()).second) return;
  const auto& node = t.node();
  if (!node || node->is_input()) {
    out.push_back(t);
    return;
  }
  for (const KerasTensor& in : node->inputs) collect_source_inputs(in, out, seen);
}

}  // namespace

void check_arguments(const ApplicationOptions& options) {
  const std::string& w = options.weights;
  check<ValueError>(w.empty() || w == "imagenet" || is_file(w),
                    "The `weights` argument should be either \"\" (random initialization), "
                    "\"imagenet\" (pre-training on ImageNet), or the path to the weights file "
                    "to be loaded. Received: weights=\"", w, "\" (no such file).");
  check<ValueError>(!(w == "imagenet" && options.include_top && options.classes != 1000),
                    "If using `weights=\"imagenet\"` with `include_top=true`, `classes` should "
                    "be 1000. Received: classes=", options.classes,
                    ". Pass weights=\"\" to train a classifier of another size.");
  const std::string& act = options.classifier_activation.name();
  check<ValueError>(!options.include_top || w.empty() || act == "softmax" || act == "linear",
                    "Only \"\" (logits) and \"softmax\" activations are allowed for the "
                    "`classifier_activation` argument when using pretrained weights, with "
                    "`include_top=true`; Received: classifier_activation=\"", act, "\".");
}

Shape obtain_input_shape(const std::optional<Shape>& input_shape, int64_t default_size,
                         int64_t min_size, const std::string& data_format, bool require_flatten,
                         const std::string& weights) {
  const bool first = data_format == "channels_first";
  Shape default_shape = first ? Shape{3, default_size, default_size}
                              : Shape{default_size, default_size, 3};
  if (weights != "imagenet" && input_shape && input_shape->rank() == 3) {
    // Keras keeps the given channel count (it warns for counts other than 1 and 3).
    default_shape = first ? Shape{(*input_shape)[0], default_size, default_size}
                          : Shape{default_size, default_size, (*input_shape)[2]};
  }
  if (weights == "imagenet" && require_flatten) {
    if (input_shape && *input_shape != default_shape) {
      throw ValueError("When setting `include_top=true` and loading `imagenet` weights, "
                       "`input_shape` should be " + shape_text(default_shape) +
                       ". Received: input_shape=" + shape_text(*input_shape) + ".");
    }
    return default_shape;
  }
  Shape shape;
  if (input_shape && !input_shape->empty()) {
    shape = *input_shape;
    check<ValueError>(shape.rank() == 3, "`input_shape` must be three integers (height, width, "
                      "channels); received input_shape=", shape_text(shape), ".");
    const int64_t channels = first ? shape[0] : shape[2];
    check<ValueError>(channels == 3 || weights != "imagenet",
                      "The input must have 3 channels; Received `input_shape=", shape_text(shape),
                      "`.");
    const int64_t h = first ? shape[1] : shape[0], w = first ? shape[2] : shape[1];
    check<ValueError>((h < 0 || h >= min_size) && (w < 0 || w >= min_size),
                      "Input size must be at least ", min_size, "x", min_size,
                      "; Received: input_shape=", shape_text(shape), ".");
  } else if (require_flatten) {
    shape = default_shape;
  } else {
    shape = first ? Shape{3, kUnknownDim, kUnknownDim} : Shape{kUnknownDim, kUnknownDim, 3};
  }
  if (require_flatten) {
    for (int64_t d : shape) {
      check<ValueError>(d >= 0, "If `include_top` is true, you should specify a static "
                        "`input_shape`. Received: input_shape=", shape_text(shape), ".");
    }
  }
  return shape;
}

KerasTensor image_input(const ApplicationOptions& options, const Architecture& arch) {
  check_arguments(options);
  Shape shape = obtain_input_shape(options.input_shape, arch.default_size, arch.min_size,
                                   config::image_data_format(), options.include_top,
                                   options.weights);
  if (options.input_tensor) return *options.input_tensor;
  return Input(shape);
}

int bn_axis() { return config::image_data_format() == "channels_last" ? 3 : 1; }

int channel_axis() { return config::image_data_format() == "channels_last" ? -1 : 1; }

KerasTensor pooling_head(const KerasTensor& x, const ApplicationOptions& options,
                         const std::string& avg_name, const std::string& max_name) {
  if (options.pooling == "avg") return layers::GlobalAveragePooling2D({.name = avg_name})(x);
  if (options.pooling == "max") return layers::GlobalMaxPooling2D({.name = max_name})(x);
  check<ValueError>(options.pooling.empty(), "Invalid pooling=\"", options.pooling,
                    "\". Expected \"\" (the last feature map), \"avg\" or \"max\".");
  return x;
}

KerasTensor classifier_head(const KerasTensor& x, const ApplicationOptions& options,
                            const std::string& top_pool_name, const std::string& avg_name,
                            const std::string& max_name) {
  if (!options.include_top) return pooling_head(x, options, avg_name, max_name);
  auto pooled = layers::GlobalAveragePooling2D({.name = top_pool_name})(x);
  return layers::Dense(options.classes, {.activation = options.classifier_activation,
                                         .name = "predictions"})(pooled);
}

ModelPtr<FunctionalModel> finish(const KerasTensor& image, const KerasTensor& outputs,
                                 const ApplicationOptions& options, const Architecture& arch) {
  std::vector<KerasTensor> inputs;
  if (options.input_tensor) {
    std::set<const void*> seen;
    collect_source_inputs(*options.input_tensor, inputs, seen);
  } else {
    inputs = {image};
  }
  const std::string name = options.name.empty() ? arch.default_name : options.name;
  auto model = inputs.size() == 1 ? Functional(inputs[0], outputs, {.name = name})
                                  : Functional(inputs, {outputs}, {.name = name});
  std::string path = options.weights;
  if (path == "imagenet") {
    const std::string& file = options.include_top ? arch.weights_file_top
                                                  : arch.weights_file_notop;
    check<ValueError>(!file.empty(), "Keras has no ImageNet weights for ", arch.default_name,
                      options.include_top ? " with" : " without", " top; pass weights=\"\" or "
                      "the path of a weights file.");
    path = (std::filesystem::path(config::keras_home()) / "models" / file).string();
    check<IOError>(is_file(path), "The ImageNet weights of ", arch.default_name, " are not in ",
                   path, ": keras-cpp never downloads. Copy ", file, " there (Python Keras "
                   "caches it there after keras.applications.", arch.default_name,
                   "(weights=\"imagenet\")), pass the file's path as `weights`, or pass "
                   "weights=\"\" for random initialization.");
  }
  if (!path.empty()) model->load_weights(path);
  return model;
}

std::pair<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> correct_pad(
    const KerasTensor& inputs, int64_t kernel_size) {
  const int img_dim = config::image_data_format() == "channels_first" ? 2 : 1;
  const int64_t h = inputs.shape()[img_dim], w = inputs.shape()[img_dim + 1];
  const int64_t adjust_h = h < 0 ? 1 : 1 - h % 2, adjust_w = h < 0 ? 1 : 1 - w % 2;
  const int64_t correct = kernel_size / 2;
  return {{correct - adjust_h, correct}, {correct - adjust_w, correct}};
}

std::string python_float(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  std::string s = buf;
  return s.find('.') == std::string::npos ? s + ".0" : s;
}

int64_t make_divisible(double v, int64_t divisor, int64_t min_value) {
  if (min_value == 0) min_value = divisor;
  int64_t out = std::max(min_value, static_cast<int64_t>(v + divisor / 2.0) / divisor * divisor);
  if (out < 0.9 * v) out += divisor;
  return out;
}

}  // namespace keras::applications::detail
