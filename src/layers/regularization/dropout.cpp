#include "keras/layers/regularization/dropout.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"

namespace keras::layers {

namespace detail {

random::Seed draw_seed(random::SeedGenerator* generator, const Tensor& like) {
  if (like.backend().is_symbolic() || generator == nullptr) return random::Seed(int64_t{0});
  return random::Seed(*generator);
}

Config seed_to_config(const std::optional<int64_t>& seed) {
  return seed ? Config(*seed) : Config(nullptr);
}

std::optional<int64_t> seed_from_config(const Config& config) {
  if (config.is_null()) return std::nullopt;
  return config.get<int64_t>();
}

void check_noise_shape(const std::optional<Shape>& noise_shape, const std::string& layer) {
  if (!noise_shape) return;
  for (size_t i = 0; i < noise_shape->size(); ++i)
    check((*noise_shape)[i] > 0 || (*noise_shape)[i] == -1, layer,
          ": invalid value received for argument `noise_shape`. Expected all dimensions to be "
          "positive integers or -1 (None). Received ",
          (*noise_shape)[i], " at index ", i, " of ", shape_string(*noise_shape), ".");
}

Config noise_shape_to_config(const std::optional<Shape>& noise_shape) {
  if (!noise_shape) return nullptr;
  Config list = Config::array();
  for (int64_t d : *noise_shape) list.push_back(d < 0 ? Config(nullptr) : Config(d));
  return list;
}

std::optional<Shape> noise_shape_from_config(const Config& config) {
  if (config.is_null()) return std::nullopt;
  check(config.is_array(), "Invalid value received for argument `noise_shape`. Expected a list "
        "of integers or null; got ", config.dump(), ".");
  Shape s;
  for (const Config& d : config) s.push_back(d.is_null() ? -1 : d.get<int64_t>());
  return s;
}

}  // namespace detail

DropoutLayer::DropoutLayer(double rate, DropoutOptions options)
    : DropoutLayer(rate, std::move(options), "dropout", "Dropout") {}

DropoutLayer::DropoutLayer(double rate, DropoutOptions options, const std::string& default_name,
                           const std::string& label)
    : Layer(base_options(options), default_name), rate_(rate), options_(std::move(options)) {
  const std::string who = label + " '" + name() + "'";
  check(rate >= 0.0 && rate <= 1.0, who,
        ": invalid value received for argument `rate`. Expected a float value between 0 and 1. "
        "Received: rate=", rate, ".");
  detail::check_noise_shape(options_.noise_shape, who);
  if (rate > 0) {
    generator_ = std::make_unique<random::SeedGenerator>(
        options_.seed ? std::optional<uint64_t>(static_cast<uint64_t>(*options_.seed))
                      : std::nullopt);
  }
  set_supports_masking(true);
  set_built(true);
}

Tensor DropoutLayer::apply(const Tensor& inputs, const CallContext& ctx,
                           const std::optional<Shape>& noise_shape) {
  Tensor x = autocast(inputs);
  if (!ctx.training.value_or(false) || rate_ == 0.0) return x;
  if (noise_shape)
    check(noise_shape->rank() == x.ndim(), class_name(), " '", name(), "': noise_shape ",
          shape_string(*noise_shape), " must have the input's rank; got input shape ", x.shape(),
          ".");
  return random::dropout(x, rate_, noise_shape, detail::draw_seed(generator_.get(), x));
}

Tensor DropoutLayer::call(const Tensor& inputs, const CallContext& ctx) {
  return apply(inputs, ctx, options_.noise_shape);
}

Config DropoutLayer::get_config() const {
  Config c = Layer::get_config();
  c["rate"] = rate_;
  c["seed"] = detail::seed_to_config(options_.seed);
  c["noise_shape"] = detail::noise_shape_to_config(options_.noise_shape);
  return c;
}

std::shared_ptr<Layer> DropoutLayer::from_config(const Config& c) {
  DropoutOptions o;
  read_base_config(c, o);
  if (c.contains("seed")) o.seed = detail::seed_from_config(c["seed"]);
  if (c.contains("noise_shape")) o.noise_shape = detail::noise_shape_from_config(c["noise_shape"]);
  return std::make_shared<DropoutLayer>(c.at("rate").get<double>(), std::move(o));
}

LayerPtr<DropoutLayer> Dropout(double rate, DropoutOptions options) {
  return make_layer<DropoutLayer>(rate, std::move(options));
}

}  // namespace keras::layers
