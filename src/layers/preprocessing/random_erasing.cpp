#include "keras/layers/preprocessing/random_erasing.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/box_mask.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomErasingLayer::RandomErasingLayer(RandomErasingOptions options)
    : RandomImageLayer(base_options(options), "random_erasing", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
  try {
    scale_ = base_factor(options_.scale, 0.0, 1.0);
  } catch (const ValueError&) {
    throw ValueError("RandomErasing '" + name() +
                     "': scale should be a number (or a list of two numbers) in the range [0, "
                     "1]; got scale=" +
                     options_.scale.to_config().dump() + ".");
  }
  const size_t n = options_.fill_value.size();
  check(n == 0 || n == 1 || n == 3, "RandomErasing '", name(),
        "': fill_value should be none, a number or a list of three numbers (one per channel); "
        "got a list of ",
        n, ".");
}

RandomErasingLayer::Transformation RandomErasingLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const auto [batch, height, width] = image_dims(images);
  const bool last = data_format_ == "channels_last";
  const int64_t channels = images.shape()[last ? images.ndim() - 1 : images.ndim() - 3];
  const DType dtype = compute_dtype();
  const random::Seed s = resolve_seed(images, seed);
  // Keras's order of draws: the box's size, its x then y start, the probability, the threshold,
  // then the noise.
  Tensor mix = ops::sqrt(random::uniform(Shape{batch, 2}, scale_.first, scale_.second, dtype, s));
  Tensor ratio_x = ops::reshape(ops::slice(mix, {0, 0}, Shape{batch, 1}), Shape{batch});
  Tensor ratio_y = ops::reshape(ops::slice(mix, {0, 1}, Shape{batch, 1}), Shape{batch});
  auto [x0, x1] = pd::crop_bounds(batch, width, ratio_x, s, dtype);
  auto [y0, y1] = pd::crop_bounds(batch, height, ratio_y, s, dtype);
  Tensor masks = pd::box_mask(batch, height, width, channels, last, x0, x1, y0, y1, dtype);
  Tensor probability =
      random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt, s);
  Tensor threshold = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, s);
  const Shape full = images.ndim() == 4 ? images.shape() : masks.shape();
  Tensor fill;
  if (options_.fill_value.empty()) {
    fill = ops::multiply(random::normal(full, 0.0, 1.0, dtype, s),
                         Tensor(options_.value_range.second));
  } else if (options_.fill_value.size() == 1) {
    fill = ops::full(full, options_.fill_value[0], dtype);
  } else {
    // Keras's full_like(images, [r, g, b]) broadcasts along the last axis.
    Tensor per_channel = ops::cast(ops::convert_to_tensor(options_.fill_value, Shape{3}), dtype);
    fill = ops::broadcast_to(per_channel, full);
  }
  fill = ops::clip(fill, options_.value_range.first, options_.value_range.second);
  return {{"apply_erasing", ops::less(threshold, probability)},
          {"batch_masks", masks},
          {"fill_value", fill}};
}

Tensor RandomErasingLayer::transform_images(const Tensor& images, const Transformation& t,
                                            bool training) {
  Tensor x = ops::cast(images, compute_dtype());
  if (!training || t.empty()) return x;
  auto apply = t.find("apply_erasing"), masks = t.find("batch_masks"), fill = t.find("fill_value");
  check(apply != t.end() && masks != t.end() && fill != t.end(), "RandomErasing '", name(),
        "': the transformation needs \"apply_erasing\", \"batch_masks\" and \"fill_value\" (from "
        "get_random_transformation).");
  Tensor erased = ops::where(masks->second, ops::cast(fill->second, x.dtype()), x);
  const int64_t n = apply->second.shape()[0];
  return ops::where(ops::reshape(apply->second, Shape{n, 1, 1, 1}), erased, x);
}

Config RandomErasingLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["scale"] = Config::array({scale_.first, scale_.second});
  const auto& f = options_.fill_value;
  if (f.empty())
    c["fill_value"] = nullptr;
  else if (f.size() == 1)
    c["fill_value"] = f[0];
  else
    c["fill_value"] = Config::array({f[0], f[1], f[2]});
  c["value_range"] = Config::array({options_.value_range.first, options_.value_range.second});
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomErasingLayer::from_config(const Config& c) {
  RandomErasingOptions o;
  read_base_config(c, o);
  if (c.contains("factor")) o.factor = Factor::from_config(c["factor"], "RandomErasing factor");
  if (c.contains("scale")) o.scale = Factor::from_config(c["scale"], "RandomErasing scale");
  if (c.contains("fill_value") && !c["fill_value"].is_null()) {
    const Config& f = c["fill_value"];
    if (f.is_number()) {
      o.fill_value = {f.get<double>()};
    } else {
      check(f.is_array(), "RandomErasing fill_value must be null, a number or a list; got ",
            f.dump(), ".");
      for (const auto& v : f) o.fill_value.push_back(v.get<double>());
    }
  }
  if (c.contains("value_range")) {
    const Config& r = c["value_range"];
    check(r.is_array() && r.size() == 2,
          "RandomErasing value_range must be a list of two "
          "numbers; got ",
          r.dump(), ".");
    o.value_range = {r[0].get<double>(), r[1].get<double>()};
  }
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomErasingLayer>(o);
}

LayerPtr<RandomErasingLayer> RandomErasing(RandomErasingOptions options) {
  return make_layer<RandomErasingLayer>(std::move(options));
}

}  // namespace keras::layers
