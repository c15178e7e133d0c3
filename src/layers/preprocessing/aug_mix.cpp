#include "keras/layers/preprocessing/aug_mix.h"

#include <cmath>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/augmentation_set.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// Keras's AUGMENT_LAYERS_ALL and AUGMENT_LAYERS.
const std::vector<std::string>& all_augmentations() {
  static const std::vector<std::string> names = {
      "random_shear",         "random_translation", "random_rotation",
      "random_posterization", "solarization",       "auto_contrast",
      "equalization",         "random_brightness",  "random_color_degeneration",
      "random_contrast",      "random_sharpness"};
  return names;
}
const std::vector<std::string>& basic_augmentations() {
  static const std::vector<std::string> names(all_augmentations().begin(),
                                              all_augmentations().begin() + 7);
  return names;
}

std::string step_prefix(int64_t chain, int64_t depth) {
  return "chain" + std::to_string(chain) + "/" + std::to_string(depth);
}

}  // namespace

AugMixLayer::AugMixLayer(AugMixOptions options)
    : RandomImageLayer(base_options(options), "aug_mix", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
  check(options_.num_chains >= 1 && options_.chain_depth >= 0, "AugMix '", name(),
        "': num_chains must be at least 1 and chain_depth at least 0; got num_chains=",
        options_.num_chains, ", chain_depth=", options_.chain_depth, ".");
  check(options_.alpha > 0 && std::isfinite(options_.alpha), "AugMix '", name(),
        "': alpha must be a positive number (the Dirichlet and Beta parameter); got alpha=",
        options_.alpha, ".");
  if (options_.interpolation != "nearest" && options_.interpolation != "bilinear")
    throw NotImplementedError("AugMix '" + name() + "': unknown interpolation '" +
                              options_.interpolation + "'; expected 'nearest' or 'bilinear'.");
  const pd::AugmentationArgs args{factor_,       options_.value_range, options_.interpolation,
                                  options_.seed, options_.data_format, options_.dtype};
  for (const auto& n : augmentation_names())
    augmentations_.push_back(pd::make_augmentation(n, args));
}

const std::vector<std::string>& AugMixLayer::augmentation_names() const {
  return options_.all_ops ? all_augmentations() : basic_augmentations();
}

AugMixLayer::Transformation AugMixLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const random::Seed s = seed ? *seed : random::Seed(generator_);
  const Tensor alpha(options_.alpha);
  // Dirichlet(alpha) as normalized Gamma(alpha) draws, then Beta(alpha, alpha), as Keras.
  Tensor gammas = random::gamma(Shape{options_.num_chains}, alpha, std::nullopt, s);
  Tensor weights = ops::divide(gammas, ops::sum(gammas, {-1}, true));
  Tensor blend = random::beta(Shape{}, alpha, alpha, std::nullopt, s);
  const auto count = static_cast<int64_t>(augmentation_names().size());
  // One pick per step among the augmentations and "none" (index count).
  Tensor picks = random::randint(Shape{options_.num_chains, options_.chain_depth}, 0, count + 1,
                                 DType::Int32, s);
  picks = ops::where(ops::equal(picks, count), -1, picks);
  Transformation t{{"chain_mixing_weights", weights},
                   {"weight_sample", blend},
                   {"chain_layers", ops::cast(picks, DType::Int32)}};
  const auto flat = picks.to_vector<int64_t>();
  for (int64_t c = 0; c < options_.num_chains; ++c)
    for (int64_t d = 0; d < options_.chain_depth; ++d) {
      const int64_t k = flat[c * options_.chain_depth + d];
      if (k < 0 || !augmentations_[k]) continue;  // none, or reported when applied
      pd::add_sub_transformation(
          t, step_prefix(c, d),
          augmentations_[k]->get_random_transformation(images, true, random::Seed(generator_)));
    }
  return t;
}

Tensor AugMixLayer::transform_images(const Tensor& images, const Transformation& t, bool training) {
  Tensor x = ops::cast(images, compute_dtype());
  if (!training || t.empty()) return x;
  auto weights = t.find("chain_mixing_weights"), blend = t.find("weight_sample"),
       layers_it = t.find("chain_layers");
  check(weights != t.end() && blend != t.end() && layers_it != t.end(), "AugMix '", name(),
        "': the transformation needs \"chain_mixing_weights\", \"weight_sample\" and "
        "\"chain_layers\" (from get_random_transformation).");
  const Tensor& picks = layers_it->second;
  check(picks.ndim() == 2, "AugMix '", name(),
        "': chain_layers must have shape (num_chains, "
        "chain_depth); got ",
        picks.shape(), ".");
  const int64_t chains = picks.shape()[0], depth = picks.shape()[1];
  const auto flat = picks.to_vector<int64_t>();
  const auto w = ops::cast(weights->second, compute_dtype()).to_vector<double>();
  check(static_cast<int64_t>(w.size()) == chains, "AugMix '", name(), "': ", w.size(),
        " chain weights for ", chains, " chains.");
  const auto& names = augmentation_names();
  Tensor mixed = ops::zeros_like(x);
  for (int64_t c = 0; c < chains; ++c) {
    Tensor chain = x;
    for (int64_t d = 0; d < depth; ++d) {
      const int64_t k = flat[c * depth + d];
      if (k < 0) continue;
      check(k < static_cast<int64_t>(names.size()), "AugMix '", name(), "': layer index ", k,
            " is outside [0, ", names.size(), ").");
      if (!augmentations_[k])
        throw NotImplementedError("AugMix '" + name() + "' picked " +
                                  pd::augmentation_class(names[k]) +
                                  ", a layer this build of keras-cpp does not have (not "
                                  "registered); AugMix needs all of its augmentations.");
      chain = augmentations_[k]->transform_images(
          chain, pd::sub_transformation(t, step_prefix(c, d)), true);
    }
    // Keras's chain weights are in the compute dtype.
    mixed = ops::add(mixed, ops::multiply(ops::cast(chain, compute_dtype()),
                                          ops::cast(ops::slice(weights->second, {c}, Shape{1}),
                                                    compute_dtype())));
  }
  Tensor b = ops::cast(blend->second, compute_dtype());
  Tensor out = ops::add(ops::multiply(b, x), ops::multiply(ops::subtract(1.0, b), mixed));
  out = ops::clip(out, options_.value_range.first, options_.value_range.second);
  return ops::cast(out, compute_dtype());
}

Config AugMixLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = Config::array({options_.value_range.first, options_.value_range.second});
  c["num_chains"] = options_.num_chains;
  c["chain_depth"] = options_.chain_depth;
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["alpha"] = options_.alpha;
  c["all_ops"] = options_.all_ops;
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> AugMixLayer::from_config(const Config& c) {
  AugMixOptions o;
  read_base_config(c, o);
  if (c.contains("value_range")) {
    const Config& r = c["value_range"];
    check(r.is_array() && r.size() == 2, "AugMix value_range must be a list of two numbers; got ",
          r.dump(), ".");
    o.value_range = {r[0].get<double>(), r[1].get<double>()};
  }
  o.num_chains = c.value("num_chains", o.num_chains);
  o.chain_depth = c.value("chain_depth", o.chain_depth);
  if (c.contains("factor")) o.factor = Factor::from_config(c["factor"], "AugMix factor");
  o.alpha = c.value("alpha", o.alpha);
  o.all_ops = c.value("all_ops", o.all_ops);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<AugMixLayer>(o);
}

LayerPtr<AugMixLayer> AugMix(AugMixOptions options) {
  return make_layer<AugMixLayer>(std::move(options));
}

}  // namespace keras::layers
