#include "keras/layers/preprocessing/rand_augment.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/augmentation_set.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

const std::vector<std::string>& RandAugmentLayer::augmentation_names() {
  static const std::vector<std::string> names = {"random_shear",
                                                 "random_translation",
                                                 "random_rotation",
                                                 "random_brightness",
                                                 "random_color_degeneration",
                                                 "random_contrast",
                                                 "random_sharpness",
                                                 "random_posterization",
                                                 "solarization",
                                                 "auto_contrast",
                                                 "equalization"};
  return names;
}

RandAugmentLayer::RandAugmentLayer(RandAugmentOptions options)
    : RandomImageLayer(base_options(options), "rand_augment", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
  check(options_.num_ops >= 0, "RandAugment '", name(),
        "': num_ops must be a non-negative integer (augmentations per call); got ",
        options_.num_ops, ".");
  if (options_.interpolation != "nearest" && options_.interpolation != "bilinear")
    throw NotImplementedError("RandAugment '" + name() + "': unknown interpolation '" +
                              options_.interpolation + "'; expected 'nearest' or 'bilinear'.");
  const pd::AugmentationArgs args{factor_,       options_.value_range, options_.interpolation,
                                  options_.seed, options_.data_format, options_.dtype};
  for (const auto& n : augmentation_names())
    augmentations_.push_back(pd::make_augmentation(n, args));
}

RandAugmentLayer::Transformation RandAugmentLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const auto count = static_cast<int64_t>(augmentation_names().size());
  Tensor idx = random::randint(Shape{options_.num_ops}, 0, count, DType::Int32,
                               seed ? *seed : random::Seed(generator_));
  Transformation t{{"layer_idxes", idx}};
  // Keras draws every augmentation's transformation and keeps the picked ones; drawing only
  // those gives the same distribution. A pick this build lacks is reported when applied.
  std::vector<bool> drawn(count, false);
  for (int64_t k : idx.to_vector<int64_t>()) {
    if (drawn[k] || !augmentations_[k]) continue;
    drawn[k] = true;
    pd::add_sub_transformation(
        t, augmentation_names()[k],
        augmentations_[k]->get_random_transformation(images, true, random::Seed(generator_)));
  }
  return t;
}

Tensor RandAugmentLayer::transform_images(const Tensor& images, const Transformation& t,
                                          bool training) {
  Tensor x = ops::cast(images, compute_dtype());
  if (!training || t.empty()) return x;
  auto idx = t.find("layer_idxes");
  check(idx != t.end(), "RandAugment '", name(),
        "': the transformation needs \"layer_idxes\" (from get_random_transformation).");
  const auto& names = augmentation_names();
  for (int64_t k : idx->second.to_vector<int64_t>()) {
    check(k >= 0 && k < static_cast<int64_t>(names.size()), "RandAugment '", name(),
          "': layer index ", k, " is outside [0, ", names.size(), ").");
    if (!augmentations_[k])
      throw NotImplementedError("RandAugment '" + name() + "' picked " +
                                pd::augmentation_class(names[k]) +
                                ", a layer this build of keras-cpp does not have (not "
                                "registered); RandAugment needs all eleven of its augmentations.");
    x = ops::cast(augmentations_[k]->transform_images(x, pd::sub_transformation(t, names[k]), true),
                  compute_dtype());
  }
  return x;
}

Config RandAugmentLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = Config::array({options_.value_range.first, options_.value_range.second});
  c["num_ops"] = options_.num_ops;
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandAugmentLayer::from_config(const Config& c) {
  RandAugmentOptions o;
  read_base_config(c, o);
  if (c.contains("value_range")) {
    const Config& r = c["value_range"];
    check(r.is_array() && r.size() == 2,
          "RandAugment value_range must be a list of two numbers; got ", r.dump(), ".");
    o.value_range = {r[0].get<double>(), r[1].get<double>()};
  }
  o.num_ops = c.value("num_ops", o.num_ops);
  if (c.contains("factor")) o.factor = Factor::from_config(c["factor"], "RandAugment factor");
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandAugmentLayer>(o);
}

LayerPtr<RandAugmentLayer> RandAugment(RandAugmentOptions options) {
  return make_layer<RandAugmentLayer>(std::move(options));
}

}  // namespace keras::layers
