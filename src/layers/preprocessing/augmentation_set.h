#pragma once
// The augmentations RandAugment and AugMix compose, made as Keras's constructors make them
// (the same factor for all, value_range, interpolation, seed), through the layer registry so
// that a class this build lacks is known by name instead of breaking the composite.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

namespace keras::layers::preprocessing_detail {

/// What every augmentation of a composite gets.
struct AugmentationArgs {
  std::pair<double, double> factor;
  std::pair<double, double> value_range;
  std::string interpolation;
  std::optional<int64_t> seed;
  std::string data_format;
  std::string dtype;
};

/// The augmentation named `snake_name` ("random_shear", ..., "equalization"), or null when its
/// class is not registered.
std::shared_ptr<BaseImagePreprocessingLayer> make_augmentation(const std::string& snake_name,
                                                               const AugmentationArgs& args);

/// The Keras class name of an augmentation's snake-case name ("random_shear" -> "RandomShear").
std::string augmentation_class(const std::string& snake_name);

/// The entries of `t` whose keys start with `prefix` + "/", with the prefix removed.
BaseImagePreprocessingLayer::Transformation sub_transformation(
    const BaseImagePreprocessingLayer::Transformation& t, const std::string& prefix);

/// `sub`'s entries added to `t` under `prefix` + "/".
void add_sub_transformation(BaseImagePreprocessingLayer::Transformation& t,
                            const std::string& prefix,
                            const BaseImagePreprocessingLayer::Transformation& sub);

}  // namespace keras::layers::preprocessing_detail
