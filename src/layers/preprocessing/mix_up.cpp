#include "keras/layers/preprocessing/mix_up.h"

#include <cmath>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// The transformation's tensors, or a ValueError naming what is missing.
std::pair<Tensor, Tensor> weights_and_order(const std::string& layer,
                                            const BaseImagePreprocessingLayer::Transformation& t) {
  auto w = t.find("mix_weight"), p = t.find("permutation_order");
  check(w != t.end() && p != t.end(), layer,
        ": the transformation needs \"mix_weight\" and \"permutation_order\" (from "
        "get_random_transformation).");
  return {w->second, p->second};
}

}  // namespace

MixUpLayer::MixUpLayer(MixUpOptions options)
    : RandomImageLayer(base_options(options), "mix_up", options.data_format, options.seed),
      options_(std::move(options)) {
  // Keras does not check; Beta(alpha, alpha) needs alpha > 0 (else every weight is NaN).
  check(options_.alpha > 0 && std::isfinite(options_.alpha), "MixUp '", name(),
        "': alpha must be a positive number (the Beta(alpha, alpha) weights); got alpha=",
        options_.alpha, ".");
}

MixUpLayer::Transformation MixUpLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Keras draws even when not training (and transform_images ignores the draw); keras-cpp's
  // stream differs from JAX's anyway, and not drawing keeps inference free of host reads.
  // Shape inference (symbolic images) needs no draw either.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  const random::Seed s = resolve_seed(images, seed);
  Tensor order = random::shuffle(ops::arange(0, batch, 1, DType::Int64), 0, s);
  Tensor weight =
      random::beta(Shape{batch}, Tensor(options_.alpha), Tensor(options_.alpha), std::nullopt, s);
  return {{"mix_weight", weight}, {"permutation_order", order}};
}

Tensor MixUpLayer::transform_images(const Tensor& images, const Transformation& t, bool training) {
  if (!training) return images;  // as Keras: not cast either
  if (t.empty()) return ops::cast(images, compute_dtype());
  auto [w, order] = weights_and_order("MixUp '" + name() + "'", t);
  Tensor x = ops::cast(images, compute_dtype());
  w = ops::cast(ops::reshape(w, Shape{-1, 1, 1, 1}), compute_dtype());
  Tensor other = ops::take(x, order, 0);
  return ops::add(ops::multiply(w, x), ops::multiply(ops::subtract(1.0, w), other));
}

Tensor MixUpLayer::transform_labels(const Tensor& labels, const Transformation& t,
                                    bool training) const {
  if (!training) return labels;
  auto [w, order] = weights_and_order("MixUp '" + name() + "'", t);
  check(labels.ndim() >= 1 && labels.shape()[0] == w.shape()[0], "MixUp '", name(),
        "': labels must have one row per image (", w.shape()[0], "); got shape ", labels.shape(),
        ".");
  w = ops::reshape(w, Shape{-1, 1});
  Tensor other = ops::take(labels, order, 0);
  return ops::add(ops::multiply(w, labels), ops::multiply(ops::subtract(1.0, w), other));
}

Config MixUpLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["alpha"] = options_.alpha;
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> MixUpLayer::from_config(const Config& c) {
  MixUpOptions o;
  read_base_config(c, o);
  o.alpha = c.value("alpha", o.alpha);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<MixUpLayer>(o);
}

LayerPtr<MixUpLayer> MixUp(MixUpOptions options) {
  return make_layer<MixUpLayer>(std::move(options));
}

}  // namespace keras::layers
