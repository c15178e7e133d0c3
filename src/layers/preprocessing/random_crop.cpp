#include "keras/layers/preprocessing/random_crop.h"

#include <algorithm>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomCropLayer::RandomCropLayer(int64_t height, int64_t width, RandomCropOptions options)
    : RandomImageLayer(base_options(options), "random_crop", options.data_format, options.seed),
      height_(height),
      width_(width) {
  check(height > 0 && width > 0, "RandomCrop '", name(),
        "': height and width must be positive integers (the size of the crop); got height=", height,
        ", width=", width, ".");
  // Keras's make_default_seed: an integer in [1, 1e9] from the global generator.
  config_seed_ = options.seed
                     ? *options.seed
                     : random::randint(Shape{}, 1, 1000000001, DType::Int64).item<int64_t>();
}

RandomCropLayer::Transformation RandomCropLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  const auto [batch, in_h, in_w] = image_dims(images);
  (void)batch;
  // Symbolic images (shape inference) take the deterministic window: no value to draw from.
  if (training && in_h > height_ && in_w > width_ && !images.backend().is_symbolic()) {
    backend::BackendScope on_input(images.backend_name());
    const random::Seed s = resolve_seed(images, seed);
    // Keras: cast(uniform((), 0, input - target + 1), "int32"), one corner for the batch.
    Tensor h =
        random::uniform(Shape{}, 0.0, static_cast<double>(in_h - height_ + 1), DType::Float32, s);
    Tensor w =
        random::uniform(Shape{}, 0.0, static_cast<double>(in_w - width_ + 1), DType::Float32, s);
    return {{"h_start", ops::cast(h, DType::Int32)}, {"w_start", ops::cast(w, DType::Int32)}};
  }
  // The centred window of the target's aspect ratio (truncating as Keras's int()).
  const int64_t crop_h = std::max<int64_t>(
      std::min<int64_t>(in_h, static_cast<int64_t>(static_cast<double>(in_w * height_) /
                                                   static_cast<double>(width_))),
      1);
  const int64_t crop_w = std::max<int64_t>(
      std::min<int64_t>(in_w, static_cast<int64_t>(static_cast<double>(in_h * width_) /
                                                   static_cast<double>(height_))),
      1);
  const auto h_start = static_cast<int32_t>(static_cast<double>(in_h - crop_h) / 2);
  const auto w_start = static_cast<int32_t>(static_cast<double>(in_w - crop_w) / 2);
  return {{"h_start", Tensor(h_start)}, {"w_start", Tensor(w_start)}};
}

Tensor RandomCropLayer::transform_images(const Tensor& images, const Transformation& t,
                                         bool training) {
  if (!training) return images;  // Keras 3.15: not even cast
  check_images(images);
  auto h_it = t.find("h_start"), w_it = t.find("w_start");
  check(h_it != t.end() && w_it != t.end(), "RandomCrop '", name(),
        "': the transformation needs \"h_start\" and \"w_start\" (from "
        "get_random_transformation).");
  Tensor x = ops::cast(images, compute_dtype());
  const int rank = x.ndim();
  const auto [h_axis, w_axis] = spatial_axes(rank);
  const int64_t in_h = x.shape()[h_axis], in_w = x.shape()[w_axis];
  const int64_t h0 = h_it->second.item<int64_t>(), w0 = w_it->second.item<int64_t>();
  check(h0 >= 0 && w0 >= 0 && h0 < in_h && w0 < in_w, "RandomCrop '", name(),
        "': the crop corner (h_start=", h0, ", w_start=", w0, ") is outside images of shape ",
        x.shape(), ".");
  // Python slicing [start:start + size] stops at the edge.
  std::vector<int64_t> start(rank, 0);
  Shape size = x.shape();
  start[h_axis] = h0;
  start[w_axis] = w0;
  size[h_axis] = std::min(height_, in_h - h0);
  size[w_axis] = std::min(width_, in_w - w0);
  x = ops::slice(x, start, size);
  // A window smaller than the target (small images) is resized to it, as in Keras.
  if (size[h_axis] != height_ || size[w_axis] != width_)
    x = ops::cast(ops::image::resize(x, {height_, width_}, {.data_format = data_format_}),
                  compute_dtype());
  return x;
}

Tensor RandomCropLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check_images(inputs);
  const bool symbolic = inputs.backend().is_symbolic();
  const bool training = ctx.training.value_or(false);
  if (!training && !symbolic) return inputs;
  // Symbolic calls give the training shape, as Keras's compute_output_shape.
  return transform_images(inputs, get_random_transformation(inputs, training), true);
}

Config RandomCropLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["height"] = height_;
  c["width"] = width_;
  c["seed"] = config_seed_;
  return c;
}

std::shared_ptr<Layer> RandomCropLayer::from_config(const Config& c) {
  RandomCropOptions o;
  read_base_config(c, o);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomCropLayer>(c.at("height").get<int64_t>(),
                                           c.at("width").get<int64_t>(), o);
}

LayerPtr<RandomCropLayer> RandomCrop(int64_t height, int64_t width, RandomCropOptions options) {
  return make_layer<RandomCropLayer>(height, width, std::move(options));
}

}  // namespace keras::layers
