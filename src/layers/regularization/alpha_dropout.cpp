#include "keras/layers/regularization/alpha_dropout.h"

#include <cmath>

#include "keras/layers/regularization/dropout.h"
#include "keras/ops/ops.h"

namespace keras::layers {

AlphaDropoutLayer::AlphaDropoutLayer(double rate, AlphaDropoutOptions options)
    : Layer(base_options(options), "alpha_dropout"), rate_(rate), options_(std::move(options)) {
  const std::string who = "AlphaDropout '" + name() + "'";
  check(rate >= 0.0 && rate <= 1.0, who,
        ": invalid value received for argument `rate`. Expected a float value between 0 and 1. "
        "Received: rate=", rate, ".");
  detail::check_noise_shape(options_.noise_shape, who);
  if (rate > 0)
    generator_ = std::make_unique<random::SeedGenerator>(
        options_.seed ? std::optional<uint64_t>(static_cast<uint64_t>(*options_.seed))
                      : std::nullopt);
  set_supports_masking(true);
  set_built(true);
}

Tensor AlphaDropoutLayer::call(const Tensor& inputs, const CallContext& ctx) {
  Tensor x = autocast(inputs);
  if (!ctx.training.value_or(false) || rate_ == 0.0) return x;
  check(rate_ < 1.0, "AlphaDropout '", name(),
        "': rate=1 drops everything and its affine correction is infinite; use a rate below 1.");
  Shape noise = x.shape();
  if (options_.noise_shape) {
    check(options_.noise_shape->rank() == x.ndim(), "AlphaDropout '", name(), "': noise_shape ",
          shape_string(*options_.noise_shape), " must have the input's rank; got input shape ",
          x.shape(), ".");
    for (int d = 0; d < x.ndim(); ++d)
      if ((*options_.noise_shape)[d] != -1) noise[d] = (*options_.noise_shape)[d];
  }
  // SELU's constants: the dropped value is its negative saturation alpha' = -scale * alpha.
  constexpr double alpha = 1.6732632423543772848170429916717;
  constexpr double scale = 1.0507009873554804934193349852946;
  constexpr double alpha_p = -alpha * scale;
  const double p = rate_;
  const double a = 1.0 / std::sqrt((1.0 - p) * (1.0 + p * alpha_p * alpha_p));
  const double b = -a * alpha_p * p;
  Tensor u = random::uniform(noise, 0.0, 1.0, std::nullopt, detail::draw_seed(generator_.get(), x));
  Tensor kept = ops::cast(ops::greater_equal(u, p), x.dtype());
  // a * (x * kept + alpha' * (1 - kept)) + b
  Tensor mixed = ops::add(ops::multiply(x, kept), ops::multiply(ops::subtract(1.0, kept), alpha_p));
  return ops::add(ops::multiply(mixed, a), b);
}

Config AlphaDropoutLayer::get_config() const {
  Config c = Layer::get_config();
  c["rate"] = rate_;
  c["seed"] = detail::seed_to_config(options_.seed);
  c["noise_shape"] = detail::noise_shape_to_config(options_.noise_shape);
  return c;
}

std::shared_ptr<Layer> AlphaDropoutLayer::from_config(const Config& c) {
  AlphaDropoutOptions o;
  read_base_config(c, o);
  if (c.contains("seed")) o.seed = detail::seed_from_config(c["seed"]);
  if (c.contains("noise_shape")) o.noise_shape = detail::noise_shape_from_config(c["noise_shape"]);
  return std::make_shared<AlphaDropoutLayer>(c.at("rate").get<double>(), std::move(o));
}

LayerPtr<AlphaDropoutLayer> AlphaDropout(double rate, AlphaDropoutOptions options) {
  return make_layer<AlphaDropoutLayer>(rate, std::move(options));
}

}  // namespace keras::layers
