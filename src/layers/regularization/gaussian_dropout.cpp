#include "keras/layers/regularization/gaussian_dropout.h"

#include <cmath>

#include "keras/layers/regularization/dropout.h"
#include "keras/ops/ops.h"

namespace keras::layers {

GaussianDropoutLayer::GaussianDropoutLayer(double rate, GaussianDropoutOptions options)
    : Layer(base_options(options), "gaussian_dropout"), rate_(rate), options_(std::move(options)) {
  check(rate >= 0.0 && rate <= 1.0, "GaussianDropout '", name(),
        "': invalid value received for argument `rate`. Expected a float value between 0 and 1. "
        "Received: rate=", rate, ".");
  if (rate > 0)
    generator_ = std::make_unique<random::SeedGenerator>(
        options_.seed ? std::optional<uint64_t>(static_cast<uint64_t>(*options_.seed))
                      : std::nullopt);
  set_supports_masking(true);
  set_built(true);
}

Tensor GaussianDropoutLayer::call(const Tensor& inputs, const CallContext& ctx) {
  Tensor x = autocast(inputs);
  if (!ctx.training.value_or(false) || rate_ == 0.0) return x;
  check(rate_ < 1.0, "GaussianDropout '", name(),
        "': rate=1 gives noise of infinite standard deviation; use a rate below 1.");
  const double stddev = std::sqrt(rate_ / (1.0 - rate_));
  Tensor noise = random::normal(x.shape(), 1.0, stddev, compute_dtype(),
                                detail::draw_seed(generator_.get(), x));
  return ops::multiply(x, noise);
}

Config GaussianDropoutLayer::get_config() const {
  Config c = Layer::get_config();
  c["rate"] = rate_;
  c["seed"] = detail::seed_to_config(options_.seed);
  return c;
}

std::shared_ptr<Layer> GaussianDropoutLayer::from_config(const Config& c) {
  GaussianDropoutOptions o;
  read_base_config(c, o);
  if (c.contains("seed")) o.seed = detail::seed_from_config(c["seed"]);
  return std::make_shared<GaussianDropoutLayer>(c.at("rate").get<double>(), std::move(o));
}

LayerPtr<GaussianDropoutLayer> GaussianDropout(double rate, GaussianDropoutOptions options) {
  return make_layer<GaussianDropoutLayer>(rate, std::move(options));
}

}  // namespace keras::layers
