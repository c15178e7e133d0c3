#include "keras/layers/regularization/gaussian_noise.h"

#include "keras/layers/regularization/dropout.h"
#include "keras/ops/ops.h"

namespace keras::layers {

GaussianNoiseLayer::GaussianNoiseLayer(double stddev, GaussianNoiseOptions options)
    : Layer(base_options(options), "gaussian_noise"), stddev_(stddev), options_(std::move(options)) {
  check(stddev >= 0.0 && stddev <= 1.0, "GaussianNoise '", name(),
        "': invalid value received for argument `stddev`. Expected a float value between 0 and "
        "1. Received: stddev=", stddev, ".");
  if (stddev > 0)
    generator_ = std::make_unique<random::SeedGenerator>(
        options_.seed ? std::optional<uint64_t>(static_cast<uint64_t>(*options_.seed))
                      : std::nullopt);
  set_supports_masking(true);
  set_built(true);
}

Tensor GaussianNoiseLayer::call(const Tensor& inputs, const CallContext& ctx) {
  Tensor x = autocast(inputs);
  if (!ctx.training.value_or(false) || stddev_ == 0.0) return x;
  Tensor noise = random::normal(x.shape(), 0.0, stddev_, compute_dtype(),
                                detail::draw_seed(generator_.get(), x));
  return ops::add(x, noise);
}

Config GaussianNoiseLayer::get_config() const {
  Config c = Layer::get_config();
  c["stddev"] = stddev_;
  c["seed"] = detail::seed_to_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> GaussianNoiseLayer::from_config(const Config& c) {
  GaussianNoiseOptions o;
  read_base_config(c, o);
  if (c.contains("seed")) o.seed = detail::seed_from_config(c["seed"]);
  return std::make_shared<GaussianNoiseLayer>(c.at("stddev").get<double>(), std::move(o));
}

LayerPtr<GaussianNoiseLayer> GaussianNoise(double stddev, GaussianNoiseOptions options) {
  return make_layer<GaussianNoiseLayer>(stddev, std::move(options));
}

}  // namespace keras::layers
