#include "keras/layers/preprocessing/random_elastic_transform.h"

#include <algorithm>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomElasticTransformLayer::RandomElasticTransformLayer(RandomElasticTransformOptions options)
    : RandomImageLayer(base_options(options), "random_elastic_transform", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
  try {
    scale_ = base_factor(options_.scale, 0.0, 1.0);
  } catch (const ValueError&) {
    throw ValueError("RandomElasticTransform '" + name() +
                     "': scale should be a number (or a list of two numbers) in the range [0, "
                     "1]; got scale=" +
                     options_.scale.to_config().dump() + ".");
  }
  const std::string& i = options_.interpolation;
  if (i != "nearest" && i != "bilinear")
    throw NotImplementedError("RandomElasticTransform '" + name() + "': unknown interpolation '" +
                              i + "'; expected 'nearest' or 'bilinear'.");
  const std::string& m = options_.fill_mode;
  if (m != "constant" && m != "nearest" && m != "wrap" && m != "mirror" && m != "reflect")
    throw NotImplementedError("RandomElasticTransform '" + name() + "': unknown fill_mode '" + m +
                              "'; expected 'constant', 'nearest', 'wrap', 'mirror' or "
                              "'reflect'.");
}

std::pair<double, double> RandomElasticTransformLayer::elastic_params(int64_t height, int64_t width,
                                                                      double factor) {
  const auto h = static_cast<double>(height), w = static_cast<double>(width);
  return {std::max(h, w) * (0.1 * factor), std::min(h, w) * (0.05 * factor)};
}

RandomElasticTransformLayer::Transformation RandomElasticTransformLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || scale_.second == 0 || factor_.second == 0 || images.backend().is_symbolic())
    return {};
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  const random::Seed s = resolve_seed(images, seed);
  Tensor probability =
      random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt, s);
  Tensor threshold = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, s);
  Tensor distortion = random::uniform(Shape{}, scale_.first, scale_.second, compute_dtype(), s);
  // Keras hands its SeedGenerator to elastic_transform; keras-cpp draws the noise's seed from
  // the same stream, so a seeded layer repeats.
  Tensor noise_seed = random::randint(Shape{}, 0, 2147483647, DType::Int64, s);
  return {{"apply_transform", ops::less(threshold, probability)},
          {"distortion_factor", distortion},
          {"seed", noise_seed}};
}

Tensor RandomElasticTransformLayer::transform(const Tensor& images, const Transformation& t) {
  if (t.empty()) return images;
  auto apply = t.find("apply_transform"), distortion = t.find("distortion_factor"),
       noise_seed = t.find("seed");
  check(apply != t.end() && distortion != t.end() && noise_seed != t.end(),
        "RandomElasticTransform '", name(),
        "': the transformation needs \"apply_transform\", \"distortion_factor\" and \"seed\" "
        "(from get_random_transformation).");
  if (images.backend().is_symbolic()) return images;  // the shape is kept
  const auto [batch, height, width] = image_dims(images);
  (void)batch;
  const auto [alpha, sigma] = elastic_params(height, width, distortion->second.item<double>());
  Tensor warped = ops::image::elastic_transform(
      images, {.alpha = alpha,
               .sigma = sigma,
               .interpolation = options_.interpolation,
               .fill_mode = options_.fill_mode,
               .fill_value = options_.fill_value,
               .seed = random::Seed(noise_seed->second.item<int64_t>()),
               .data_format = data_format_});
  const int64_t n = apply->second.shape()[0];
  Tensor out = ops::where(ops::reshape(apply->second, Shape{n, 1, 1, 1}),
                          ops::cast(warped, images.dtype()), images);
  return ops::cast(ops::clip(out, options_.value_range.first, options_.value_range.second),
                   compute_dtype());
}

Config RandomElasticTransformLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["scale"] = Config::array({scale_.first, scale_.second});
  c["interpolation"] = options_.interpolation;
  c["fill_mode"] = options_.fill_mode;
  c["fill_value"] = options_.fill_value;
  c["value_range"] = Config::array({options_.value_range.first, options_.value_range.second});
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomElasticTransformLayer::from_config(const Config& c) {
  RandomElasticTransformOptions o;
  read_base_config(c, o);
  if (c.contains("factor"))
    o.factor = Factor::from_config(c["factor"], "RandomElasticTransform factor");
  if (c.contains("scale"))
    o.scale = Factor::from_config(c["scale"], "RandomElasticTransform scale");
  o.interpolation = c.value("interpolation", o.interpolation);
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  if (c.contains("value_range")) {
    const Config& r = c["value_range"];
    check(r.is_array() && r.size() == 2,
          "RandomElasticTransform value_range must be a list of "
          "two numbers; got ",
          r.dump(), ".");
    o.value_range = {r[0].get<double>(), r[1].get<double>()};
  }
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomElasticTransformLayer>(o);
}

LayerPtr<RandomElasticTransformLayer> RandomElasticTransform(
    RandomElasticTransformOptions options) {
  return make_layer<RandomElasticTransformLayer>(std::move(options));
}

}  // namespace keras::layers
