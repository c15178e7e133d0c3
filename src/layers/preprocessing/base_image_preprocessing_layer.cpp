#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#include <algorithm>
#include <cmath>

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

// ---- Factor ------------------------------------------------------------------------------

Factor::Factor(std::initializer_list<double> pair) : values_(pair) {
  check(values_.size() == 2, "A factor must be a number or a list of two numbers; got a list of ",
        values_.size(), ".");
}

Config Factor::to_config() const {
  if (is_pair()) return Config::array({values_[0], values_[1]});
  return values_[0];
}

Factor Factor::from_config(const Config& c, const std::string& what) {
  if (c.is_number()) return Factor(c.get<double>());
  check(c.is_array() && c.size() == 2 && c[0].is_number() && c[1].is_number(), what,
        " must be a number or a list of two numbers; got ", c.dump(), ".");
  return Factor(c[0].get<double>(), c[1].get<double>());
}

// ---- BaseImagePreprocessingLayer ---------------------------------------------------------

BaseImagePreprocessingLayer::BaseImagePreprocessingLayer(LayerOptions options,
                                                         std::string default_name,
                                                         std::string data_format)
    : Layer(std::move(options), std::move(default_name)) {
  data_format_ = pd::standardize_data_format("Layer '" + name() + "'", data_format);
}

void BaseImagePreprocessingLayer::check_images(const Tensor& images) const {
  check(images.defined(), class_name(), " '", name(), "': the images are an undefined tensor.");
  check(images.ndim() == 3 || images.ndim() == 4, class_name(), " '", name(),
        "': expected an image tensor of rank 3 (single image) or 4 (batch of images); got "
        "shape ",
        images.shape(), ".");
}

std::pair<int, int> BaseImagePreprocessingLayer::spatial_axes(int rank) const {
  return data_format_ == "channels_last" ? std::pair{rank - 3, rank - 2}
                                         : std::pair{rank - 2, rank - 1};
}

std::array<int64_t, 3> BaseImagePreprocessingLayer::image_dims(const Tensor& images) const {
  const auto [h, w] = spatial_axes(images.ndim());
  return {images.ndim() == 4 ? images.shape()[0] : 1, images.shape()[h], images.shape()[w]};
}

std::pair<double, double> BaseImagePreprocessingLayer::base_factor(const Factor& factor,
                                                                   double bound_lo,
                                                                   double bound_hi) const {
  auto fail = [&]() {
    throw ValueError(class_name() + " '" + name() +
                     "': the factor argument should be a number (or a list of two numbers) in "
                     "the range [" +
                     detail::cat(bound_lo) + ", " + detail::cat(bound_hi) +
                     "]; got factor=" + factor.to_config().dump() + ".");
  };
  if (factor.is_pair()) {
    if (factor.first() > bound_hi || factor.second() < bound_lo) fail();
    return {std::min(factor.first(), factor.second()), std::max(factor.first(), factor.second())};
  }
  if (factor.value() < bound_lo || factor.value() > bound_hi) fail();
  const double f = std::abs(factor.value());
  return {std::max(-f, bound_lo), f};
}

Tensor BaseImagePreprocessingLayer::autocast(const Tensor& x) const {
  if (is_floating(x.dtype()) && is_floating(compute_dtype()) && x.dtype() != compute_dtype())
    return ops::cast(x, compute_dtype());
  return x;
}

BaseImagePreprocessingLayer::Transformation BaseImagePreprocessingLayer::get_random_transformation(
    const Tensor&, bool, std::optional<random::Seed>) {
  return {};
}

Tensor BaseImagePreprocessingLayer::transform(const Tensor& images, const Transformation&) {
  return images;
}

Tensor BaseImagePreprocessingLayer::transform_images(const Tensor& images,
                                                     const Transformation& transformation,
                                                     bool training) {
  Tensor x = ops::cast(images, compute_dtype());
  return training ? transform(x, transformation) : x;
}

Tensor BaseImagePreprocessingLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check_images(inputs);
  const bool training = ctx.training.value_or(false);
  Tensor x = autocast(inputs);
  Transformation t = get_random_transformation(x, training);
  if (x.ndim() == 4) return transform_images(x, t, training);
  return ops::squeeze(transform_images(ops::expand_dims(x, 0), t, training), 0);
}

Config BaseImagePreprocessingLayer::get_config() const {
  Config c = Layer::get_config();
  c["data_format"] = data_format_;
  return c;
}

// ---- RandomImageLayer --------------------------------------------------------------------

RandomImageLayer::RandomImageLayer(LayerOptions options, std::string default_name,
                                   std::string data_format, SeedArg seed)
    : BaseImagePreprocessingLayer(std::move(options), std::move(default_name),
                                  std::move(data_format)),
      seed_(seed),
      generator_(pd::generator_seed(seed)) {}

random::Seed RandomImageLayer::resolve_seed(const Tensor& images,
                                            const std::optional<random::Seed>& seed) {
  if (seed) return *seed;
  if (images.backend().is_symbolic()) return random::Seed(uint64_t{0});
  return random::Seed(generator_);
}

}  // namespace keras::layers
