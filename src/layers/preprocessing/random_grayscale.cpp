#include "keras/layers/preprocessing/random_grayscale.h"

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomGrayscaleLayer::RandomGrayscaleLayer(double factor, RandomGrayscaleOptions options)
    : RandomImageLayer(base_options(options), "random_grayscale", options.data_format,
                       options.seed),
      factor_(factor) {
  check(factor >= 0.0 && factor <= 1.0, "RandomGrayscale '", name(),
        "': factor should be between 0 and 1; got factor=", factor, ".");
}

RandomGrayscaleLayer::Transformation RandomGrayscaleLayer::get_random_transformation(
    const Tensor& images, bool /*training*/, std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  Tensor u = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, resolve_seed(images, seed));
  return {{"should_apply", ops::reshape(ops::less(u, factor_), Shape{batch, 1, 1, 1})}};
}

Tensor RandomGrayscaleLayer::transform_images(const Tensor& images, const Transformation& t,
                                              bool training) {
  auto it = t.find("should_apply");
  if (!training || it == t.end()) return images;
  // rgb_to_grayscale keeps one channel; `where` broadcasts it back over the three.
  Tensor gray = ops::image::rgb_to_grayscale(images, data_format_);
  return ops::where(it->second, gray, images);
}

Config RandomGrayscaleLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = factor_;
  return c;
}

std::shared_ptr<Layer> RandomGrayscaleLayer::from_config(const Config& c) {
  RandomGrayscaleOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  return std::make_shared<RandomGrayscaleLayer>(c.value("factor", 0.5), o);
}

LayerPtr<RandomGrayscaleLayer> RandomGrayscale(double factor, RandomGrayscaleOptions options) {
  return make_layer<RandomGrayscaleLayer>(factor, std::move(options));
}

}  // namespace keras::layers
