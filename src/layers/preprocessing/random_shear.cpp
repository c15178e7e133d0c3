#include "keras/layers/preprocessing/random_shear.h"

#include <cmath>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// Keras's RandomShear._set_factor_with_name: numbers in [0, 1]; a number f gives (-f, f)
// (negative shears come from the pair's or the sign's draw, not from the factor).
std::pair<double, double> shear_range(const std::string& layer, const Factor& f, const char* what) {
  auto in_range = [&](double v) {
    check(v >= 0.0 && v <= 1.0, layer, ": ", what, " should be a number (or a list of two ",
          "numbers) in the range [0, 1.0]; got ", what, "=", f.to_config().dump(), ".");
  };
  if (f.is_pair()) {
    in_range(f.first());
    in_range(f.second());
    return {std::min(f.first(), f.second()), std::max(f.first(), f.second())};
  }
  in_range(f.value());
  return {-std::abs(f.value()), std::abs(f.value())};
}

}  // namespace

RandomShearLayer::RandomShearLayer(Factor x_factor, Factor y_factor, RandomShearOptions options)
    : RandomImageLayer(base_options(options), "random_shear", options.data_format, options.seed),
      options_(std::move(options)) {
  const std::string layer = "RandomShear '" + name() + "'";
  x_range_ = shear_range(layer, x_factor, "x_factor");
  y_range_ = shear_range(layer, y_factor, "y_factor");
  pd::check_warp_options(layer, options_.fill_mode, options_.interpolation);
}

RandomShearLayer::Transformation RandomShearLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  const DType dtype = compute_dtype();
  const random::Seed s = resolve_seed(images, seed);
  Tensor invert = random::uniform(Shape{batch, 1}, 0.0, 1.0, dtype, s);
  invert = ops::where(ops::greater(invert, 0.5), ops::full(Shape{batch, 1}, -1.0, dtype),
                      ops::ones(Shape{batch, 1}, dtype));
  Tensor shear_y = random::uniform(Shape{batch, 1}, y_range_.first, y_range_.second, dtype, s);
  Tensor shear_x = random::uniform(Shape{batch, 1}, x_range_.first, x_range_.second, dtype, s);
  return {{"shear_factor", ops::multiply(ops::concatenate({shear_x, shear_y}, 1), invert)}};
}

Tensor RandomShearLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("shear_factor");
  if (it == t.end()) return images;
  Tensor shear = ops::cast(it->second, DType::Float32);
  check(shear.ndim() == 2 && shear.shape()[1] == 2, "RandomShear '", name(),
        "': shear_factor must have shape (batch, 2); got ", shear.shape(), ".");
  const int64_t n = shear.shape()[0];
  Tensor sx = ops::slice(shear, {0, 0}, Shape{n, 1}), sy = ops::slice(shear, {0, 1}, Shape{n, 1});
  Tensor one = ops::ones(Shape{n, 1}, DType::Float32),
         zero = ops::zeros(Shape{n, 1}, DType::Float32);
  // [[1, s_x, 0], [s_y, 1, 0], [0, 0, 1]] flattened to affine_transform's 8 numbers.
  Tensor matrix = ops::concatenate({one, sx, zero, sy, one, zero, zero, zero}, 1);
  return ops::image::affine_transform(images, matrix,
                                      {.interpolation = options_.interpolation,
                                       .fill_mode = options_.fill_mode,
                                       .fill_value = options_.fill_value,
                                       .data_format = data_format_});
}

Config RandomShearLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["x_factor"] = Config::array({x_range_.first, x_range_.second});
  c["y_factor"] = Config::array({y_range_.first, y_range_.second});
  c["fill_mode"] = options_.fill_mode;
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  c["fill_value"] = options_.fill_value;
  return c;
}

std::shared_ptr<Layer> RandomShearLayer::from_config(const Config& c) {
  RandomShearOptions o;
  read_base_config(c, o);
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  // Keras writes a number f as (-f, f), which its own constructor then refuses (Keras 3.15
  // cannot load its RandomShear configs); keras-cpp reads such a pair back as f.
  auto factor = [&](const char* key) {
    if (!c.contains(key)) return Factor(0.0);
    Factor f = Factor::from_config(c[key], std::string("RandomShear ") + key);
    if (f.is_pair() && f.first() < 0 && f.first() == -f.second()) return Factor(f.second());
    return f;
  };
  Factor x = factor("x_factor"), y = factor("y_factor");
  return std::make_shared<RandomShearLayer>(x, y, o);
}

LayerPtr<RandomShearLayer> RandomShear(Factor x_factor, Factor y_factor,
                                       RandomShearOptions options) {
  return make_layer<RandomShearLayer>(std::move(x_factor), std::move(y_factor), std::move(options));
}

}  // namespace keras::layers
