#include "keras/layers/preprocessing/cut_mix.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/box_mask.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

CutMixLayer::CutMixLayer(CutMixOptions options)
    : RandomImageLayer(base_options(options), "cut_mix", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
}

CutMixLayer::Transformation CutMixLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  if (images.ndim() == 3) return {};  // nothing to mix with
  backend::BackendScope on_input(images.backend_name());
  const auto [batch, height, width] = image_dims(images);
  const bool last = data_format_ == "channels_last";
  const int64_t channels = images.shape()[last ? 3 : 1];
  const DType dtype = compute_dtype();
  const random::Seed s = resolve_seed(images, seed);
  // Keras's draws, in order: alpha (+1e-6 keeps Beta's parameter positive), the weights, the
  // x then y starts, the permutation.
  Tensor alpha = ops::add(random::uniform(Shape{}, factor_.first, factor_.second, dtype, s), 1e-6);
  Tensor weight = random::beta(Shape{batch}, alpha, alpha, dtype, s);
  Tensor ratio = ops::sqrt(ops::subtract(1.0, weight));
  auto [x0, x1] = pd::crop_bounds(batch, width, ratio, s, dtype);
  auto [y0, y1] = pd::crop_bounds(batch, height, ratio, s, dtype);
  Tensor masks = pd::box_mask(batch, height, width, channels, last, x0, x1, y0, y1, dtype);
  // The kept fraction, from the box's real-valued area as Keras computes it.
  Tensor area = ops::multiply(ops::subtract(x1, x0), ops::subtract(y1, y0));
  Tensor mix = ops::subtract(1.0, ops::divide(area, Tensor(static_cast<double>(width * height))));
  Tensor order = random::shuffle(ops::arange(0, batch, 1, DType::Int32), 0, s);
  return {{"permutation_order", order}, {"batch_masks", masks}, {"mix_weight", mix}};
}

Tensor CutMixLayer::transform_images(const Tensor& images, const Transformation& t, bool training) {
  Tensor x = ops::cast(images, compute_dtype());
  if (!training || t.empty()) return x;
  auto order = t.find("permutation_order"), masks = t.find("batch_masks");
  check(order != t.end() && masks != t.end(), "CutMix '", name(),
        "': the transformation needs \"permutation_order\" and \"batch_masks\" (from "
        "get_random_transformation).");
  return ops::where(masks->second, ops::take(x, order->second, 0), x);
}

Tensor CutMixLayer::transform_labels(const Tensor& labels, const Transformation& t,
                                     bool training) const {
  if (!training || t.empty()) return labels;
  auto order = t.find("permutation_order"), mix = t.find("mix_weight");
  check(order != t.end() && mix != t.end(), "CutMix '", name(),
        "': the transformation needs \"permutation_order\" and \"mix_weight\" (from "
        "get_random_transformation).");
  check(labels.ndim() >= 1 && labels.shape()[0] == mix->second.shape()[0], "CutMix '", name(),
        "': labels must have one row per image (", mix->second.shape()[0], "); got shape ",
        labels.shape(), ".");
  Tensor w = ops::reshape(mix->second, Shape{-1, 1});
  Tensor other = ops::take(labels, order->second, 0);
  return ops::add(ops::multiply(w, labels), ops::multiply(ops::subtract(1.0, w), other));
}

Config CutMixLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> CutMixLayer::from_config(const Config& c) {
  CutMixOptions o;
  read_base_config(c, o);
  if (c.contains("factor")) o.factor = Factor::from_config(c["factor"], "CutMix factor");
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<CutMixLayer>(o);
}

LayerPtr<CutMixLayer> CutMix(CutMixOptions options) {
  return make_layer<CutMixLayer>(std::move(options));
}

}  // namespace keras::layers
