#include "keras/layers/preprocessing/random_flip.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomFlipLayer::RandomFlipLayer(RandomFlipOptions options)
    : RandomImageLayer(base_options(options), "random_flip", options.data_format, options.seed),
      options_(std::move(options)) {
  set_convert_input_args(false);  // as Keras's RandomFlip
  const std::string& m = options_.mode;
  check(m == "horizontal" || m == "vertical" || m == "horizontal_and_vertical", "RandomFlip '",
        name(), "': mode must be \"horizontal\", \"vertical\" or \"horizontal_and_vertical\"; got \"",
        m, "\".");
}

RandomFlipLayer::Transformation RandomFlipLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  if (!training) return {};
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const Shape shape = images.ndim() == 3 ? Shape{1, 1, 1} : Shape{images.shape()[0], 1, 1, 1};
  Tensor u = random::uniform(shape, 0.0, 1.0, std::nullopt, resolve_seed(images, seed));
  return {{"flips", ops::less_equal(u, 0.5)}};
}

Tensor RandomFlipLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("flips");
  if (it == t.end()) return images;
  const Tensor& flips = it->second;
  const auto [v_axis, h_axis] = spatial_axes(images.ndim());
  Tensor out = images;
  const std::string& m = options_.mode;
  if (m == "horizontal" || m == "horizontal_and_vertical")
    out = ops::where(flips, ops::flip(out, h_axis), out);
  if (m == "vertical" || m == "horizontal_and_vertical")
    out = ops::where(flips, ops::flip(out, v_axis), out);
  return out;
}

Config RandomFlipLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["seed"] = pd::seed_to_config(seed_);
  c["mode"] = options_.mode;
  return c;
}

std::shared_ptr<Layer> RandomFlipLayer::from_config(const Config& c) {
  RandomFlipOptions o;
  read_base_config(c, o);
  o.mode = c.value("mode", o.mode);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomFlipLayer>(o);
}

LayerPtr<RandomFlipLayer> RandomFlip(RandomFlipOptions options) {
  return make_layer<RandomFlipLayer>(std::move(options));
}

LayerPtr<RandomFlipLayer> RandomFlip(const std::string& mode, RandomFlipOptions options) {
  options.mode = mode;
  return make_layer<RandomFlipLayer>(std::move(options));
}

}  // namespace keras::layers
