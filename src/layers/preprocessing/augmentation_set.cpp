#include "layers/preprocessing/augmentation_set.h"

#include <algorithm>
#include <cctype>

#include "keras/layers/registry.h"

namespace keras::layers::preprocessing_detail {

std::string augmentation_class(const std::string& snake_name) {
  std::string out;
  bool upper = true;
  for (char c : snake_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::shared_ptr<BaseImagePreprocessingLayer> make_augmentation(const std::string& snake_name,
                                                               const AugmentationArgs& a) {
  const std::string class_name = augmentation_class(snake_name);
  const auto known = registered_layers();
  if (!std::binary_search(known.begin(), known.end(), class_name)) return nullptr;
  // The arguments Keras's RandAugment and AugMix pass, as a config record (a name of the
  // composite's choosing; Keras's sub-layers are named automatically).
  const Config factor = Config::array({a.factor.first, a.factor.second});
  const Config range = Config::array({a.value_range.first, a.value_range.second});
  Config c = {{"name", snake_name}, {"trainable", true}};
  if (!a.data_format.empty()) c["data_format"] = a.data_format;
  if (!a.dtype.empty()) c["dtype"] = a.dtype;
  const Config seed = a.seed ? Config(*a.seed) : Config(nullptr);
  if (snake_name == "random_shear") {
    c["x_factor"] = factor;
    c["y_factor"] = factor;
    c["interpolation"] = a.interpolation;
    c["seed"] = seed;
  } else if (snake_name == "random_translation") {
    c["height_factor"] = factor;
    c["width_factor"] = factor;
    c["interpolation"] = a.interpolation;
    c["seed"] = seed;
  } else if (snake_name == "random_rotation") {
    c["factor"] = factor;
    c["interpolation"] = a.interpolation;
    c["seed"] = seed;
  } else if (snake_name == "solarization") {
    c["addition_factor"] = factor;
    c["threshold_factor"] = factor;
    c["value_range"] = range;
    c["seed"] = seed;
  } else if (snake_name == "random_posterization") {
    // Keras: max(1, int(8 * upper)) bits.
    c["factor"] = std::max<int64_t>(1, static_cast<int64_t>(8 * a.factor.second));
    c["value_range"] = range;
    c["seed"] = seed;
  } else if (snake_name == "auto_contrast" || snake_name == "equalization") {
    c["value_range"] = range;
  } else {  // random_brightness, random_color_degeneration, random_contrast, random_sharpness
    c["factor"] = factor;
    c["value_range"] = range;
    c["seed"] = seed;
  }
  auto layer = from_config(class_name, c);
  auto image_layer = std::dynamic_pointer_cast<BaseImagePreprocessingLayer>(layer);
  check(image_layer != nullptr, "The layer registered as '", class_name,
        "' is not an image preprocessing layer, so RandAugment and AugMix cannot use it.");
  return image_layer;
}

BaseImagePreprocessingLayer::Transformation sub_transformation(
    const BaseImagePreprocessingLayer::Transformation& t, const std::string& prefix) {
  BaseImagePreprocessingLayer::Transformation out;
  const std::string head = prefix + "/";
  for (const auto& [key, value] : t)
    if (key.size() > head.size() && key.compare(0, head.size(), head) == 0)
      out[key.substr(head.size())] = value;
  return out;
}

void add_sub_transformation(BaseImagePreprocessingLayer::Transformation& t,
                            const std::string& prefix,
                            const BaseImagePreprocessingLayer::Transformation& sub) {
  for (const auto& [key, value] : sub) t[prefix + "/" + key] = value;
}

}  // namespace keras::layers::preprocessing_detail
