// keras.initializers: the built-in initializers, their names and their configs.

#include "keras/initializers/initializers.h"

#include <cmath>

#include "keras/initializers/stft.h"
#include "keras/ops/ops.h"
#include "keras/random/philox.h"
#include "keras/random/random.h"

namespace keras::initializers {
namespace {

// The seed an unseeded random initializer keeps: 64 bits of the global generator's next draw
// (taken on the host, so no backend is involved).
uint64_t draw_seed() {
  auto [seed, counter] = random::Seed().resolve();
  return random::philox::word(seed, counter, 0) |
         (static_cast<uint64_t>(random::philox::word(seed, counter, 1)) << 32);
}

Config seed_config(const std::optional<int64_t>& seed) {
  return seed ? Config(*seed) : Config(nullptr);
}

std::optional<int64_t> seed_of(const Config& c) {
  if (!c.contains("seed") || c["seed"].is_null()) return std::nullopt;
  return c["seed"].get<int64_t>();
}

double number(const Config& c, const char* key, double fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<double>() : fallback;
}

std::string text(const Config& c, const char* key, const std::string& fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<std::string>() : fallback;
}

}  // namespace

// ---- RandomInitializer -----------------------------------------------------------------------

RandomInitializer::RandomInitializer(std::optional<int64_t> seed)
    : given_seed_(seed), seed_(seed ? static_cast<uint64_t>(*seed) : draw_seed()) {}

Config RandomInitializer::get_config() const { return {{"seed", seed_config(given_seed_)}}; }

// ---- constants -------------------------------------------------------------------------------

Tensor Zeros::operator()(const Shape& shape, DType dtype) const { return ops::zeros(shape, dtype); }
Tensor Ones::operator()(const Shape& shape, DType dtype) const { return ops::ones(shape, dtype); }
Tensor Constant::operator()(const Shape& shape, DType dtype) const {
  return ops::full(shape, value_, dtype);
}

Tensor Identity::operator()(const Shape& shape, DType dtype) const {
  check(shape.rank() == 2, "Identity initializer: the shape must be 2-d; got ", shape, ".");
  return ops::multiply(ops::eye(shape[0], shape[1], 0, dtype), gain_);
}

// ---- random ----------------------------------------------------------------------------------

RandomNormal::RandomNormal(double mean, double stddev, std::optional<int64_t> seed)
    : RandomInitializer(seed), mean_(mean), stddev_(stddev) {}
Tensor RandomNormal::operator()(const Shape& shape, DType dtype) const {
  return random::normal(shape, mean_, stddev_, dtype, seed());
}
Config RandomNormal::get_config() const {
  Config c = RandomInitializer::get_config();
  c["mean"] = mean_;
  c["stddev"] = stddev_;
  return c;
}

RandomUniform::RandomUniform(double minval, double maxval, std::optional<int64_t> seed)
    : RandomInitializer(seed), minval_(minval), maxval_(maxval) {}
Tensor RandomUniform::operator()(const Shape& shape, DType dtype) const {
  return random::uniform(shape, minval_, maxval_, dtype, seed());
}
Config RandomUniform::get_config() const {
  Config c = RandomInitializer::get_config();
  c["minval"] = minval_;
  c["maxval"] = maxval_;
  return c;
}

TruncatedNormal::TruncatedNormal(double mean, double stddev, std::optional<int64_t> seed)
    : RandomInitializer(seed), mean_(mean), stddev_(stddev) {}
Tensor TruncatedNormal::operator()(const Shape& shape, DType dtype) const {
  return random::truncated_normal(shape, mean_, stddev_, dtype, seed());
}
Config TruncatedNormal::get_config() const {
  Config c = RandomInitializer::get_config();
  c["mean"] = mean_;
  c["stddev"] = stddev_;
  return c;
}

std::pair<double, double> compute_fans(const Shape& shape,
                                       const std::optional<std::vector<int>>& input_axes,
                                       const std::optional<std::vector<int>>& output_axes) {
  if (input_axes && output_axes) {
    auto product = [&](const std::vector<int>& axes, const char* which) {
      double n = 1;
      for (int a : axes) {
        int axis = a < 0 ? a + shape.rank() : a;
        check(axis >= 0 && axis < shape.rank(), "VarianceScaling: ", which, " ", a,
              " is out of range for a weight of shape ", shape, ".");
        n *= double(shape[axis]);
      }
      return n;
    };
    return {product(*input_axes, "input axis"), product(*output_axes, "output axis")};
  }
  if (shape.rank() < 1) return {1, 1};
  if (shape.rank() == 1) return {double(shape[0]), double(shape[0])};
  if (shape.rank() == 2) return {double(shape[0]), double(shape[1])};
  double receptive = 1;
  for (int d = 0; d < shape.rank() - 2; ++d) receptive *= double(shape[d]);
  return {double(shape[shape.rank() - 2]) * receptive, double(shape.back()) * receptive};
}

VarianceScaling::VarianceScaling(double scale, std::string mode, std::string distribution,
                                 std::optional<int64_t> seed)
    : RandomInitializer(seed),
      scale_(scale),
      mode_(std::move(mode)),
      distribution_(std::move(distribution)) {
  check(scale_ > 0, "VarianceScaling: scale must be positive; got ", scale_, ".");
  check(mode_ == "fan_in" || mode_ == "fan_out" || mode_ == "fan_avg",
        "VarianceScaling: mode must be 'fan_in', 'fan_out' or 'fan_avg'; got '", mode_, "'.");
  if (distribution_ == "normal") distribution_ = "truncated_normal";  // Keras's alias
  check(distribution_ == "truncated_normal" || distribution_ == "untruncated_normal" ||
            distribution_ == "uniform",
        "VarianceScaling: distribution must be 'truncated_normal', 'untruncated_normal' or "
        "'uniform'; got '", distribution_, "'.");
}

Tensor VarianceScaling::operator()(const Shape& shape, DType dtype) const {
  auto [fan_in, fan_out] = compute_fans(shape, input_axes_, output_axes_);
  double scale = scale_;
  if (mode_ == "fan_in") scale /= std::max(1.0, fan_in);
  else if (mode_ == "fan_out") scale /= std::max(1.0, fan_out);
  else scale /= std::max(1.0, (fan_in + fan_out) / 2.0);
  if (distribution_ == "truncated_normal")
    return random::truncated_normal(shape, 0.0, std::sqrt(scale) / 0.87962566103423978, dtype,
                                    seed());
  if (distribution_ == "untruncated_normal")
    return random::normal(shape, 0.0, std::sqrt(scale), dtype, seed());
  double limit = std::sqrt(3.0 * scale);
  return random::uniform(shape, -limit, limit, dtype, seed());
}

Config VarianceScaling::get_config() const {
  Config c = RandomInitializer::get_config();
  c["scale"] = scale_;
  c["mode"] = mode_;
  c["distribution"] = distribution_;
  c.update(fan_axes_config());
  return c;
}

void VarianceScaling::set_fan_axes(std::optional<std::vector<int>> input_axes,
                                   std::optional<std::vector<int>> output_axes) {
  input_axes_ = std::move(input_axes);
  output_axes_ = std::move(output_axes);
}

Config VarianceScaling::fan_axes_config() const {
  return {{"input_axes", input_axes_ ? Config(*input_axes_) : Config(nullptr)},
          {"output_axes", output_axes_ ? Config(*output_axes_) : Config(nullptr)}};
}

VarianceScalingPreset::VarianceScalingPreset(std::string class_name, double scale,
                                             std::string mode, std::string distribution,
                                             std::optional<int64_t> seed)
    : VarianceScaling(scale, std::move(mode), std::move(distribution), seed),
      class_name_(std::move(class_name)) {}

Config VarianceScalingPreset::get_config() const {
  Config c = RandomInitializer::get_config();
  c.update(fan_axes_config());
  return c;
}

InitializerPtr GlorotUniform(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("GlorotUniform", 1.0, "fan_avg", "uniform", seed);
}
InitializerPtr GlorotNormal(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("GlorotNormal", 1.0, "fan_avg",
                                                 "truncated_normal", seed);
}
InitializerPtr HeUniform(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("HeUniform", 2.0, "fan_in", "uniform", seed);
}
InitializerPtr HeNormal(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("HeNormal", 2.0, "fan_in", "truncated_normal",
                                                 seed);
}
InitializerPtr LecunUniform(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("LecunUniform", 1.0, "fan_in", "uniform", seed);
}
InitializerPtr LecunNormal(std::optional<int64_t> seed) {
  return std::make_shared<VarianceScalingPreset>("LecunNormal", 1.0, "fan_in",
                                                 "truncated_normal", seed);
}

Orthogonal::Orthogonal(double gain, std::optional<int64_t> seed)
    : RandomInitializer(seed), gain_(gain) {}

Tensor Orthogonal::operator()(const Shape& shape, DType dtype) const {
  check(shape.rank() >= 2, "Orthogonal initializer: the shape must be at least 2-d; got ", shape,
        ".");
  int64_t rows = 1;
  for (int d = 0; d < shape.rank() - 1; ++d) rows *= shape[d];
  const int64_t cols = shape.back();
  Tensor a = random::normal({std::max(rows, cols), std::min(rows, cols)}, 0.0, 1.0, dtype, seed());
  auto [q, r] = ops::qr(a);
  q = ops::multiply(q, ops::sign(ops::diagonal(r)));  // unique, as Keras makes it
  if (rows < cols) q = ops::transpose(q);
  return ops::multiply(ops::reshape(q, shape), gain_);
}

Config Orthogonal::get_config() const {
  Config c = RandomInitializer::get_config();
  c["gain"] = gain_;
  return c;
}

// ---- names and configs -----------------------------------------------------------------------

namespace {

std::optional<std::vector<int>> axes_of(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  check(c[key].is_array(), "VarianceScaling: '", key, "' must be a list of axes or null; got ",
        c[key].dump(), ".");
  return c[key].get<std::vector<int>>();
}

// Applies input_axes/output_axes (Keras 3.15) to a variance-scaling initializer that
// from_config_base has just made (not yet shared, so setting it here is safe).
InitializerPtr with_fan_axes(InitializerPtr init, const Config& c) {
  if (auto* vs = dynamic_cast<const VarianceScaling*>(init.get()))
    const_cast<VarianceScaling*>(vs)->set_fan_axes(axes_of(c, "input_axes"),
                                                   axes_of(c, "output_axes"));
  return init;
}

InitializerPtr from_config_base(const std::string& name, const Config& c);

InitializerPtr from_config(const std::string& name, const Config& c) {
  return with_fan_axes(from_config_base(name, c), c);
}

InitializerPtr from_config_base(const std::string& name, const Config& c) {
  auto s = seed_of(c);
  if (name == "Zeros" || name == "zeros" || name == "zero") return std::make_shared<Zeros>();
  if (name == "Ones" || name == "ones" || name == "one") return std::make_shared<Ones>();
  if (name == "Constant" || name == "constant")
    return std::make_shared<Constant>(number(c, "value", 0.0));
  if (name == "Identity" || name == "identity" || name == "IdentityInitializer")
    return std::make_shared<Identity>(number(c, "gain", 1.0));
  if (name == "RandomNormal" || name == "random_normal" || name == "normal")
    return std::make_shared<RandomNormal>(number(c, "mean", 0.0), number(c, "stddev", 0.05), s);
  if (name == "RandomUniform" || name == "random_uniform" || name == "uniform")
    return std::make_shared<RandomUniform>(number(c, "minval", -0.05), number(c, "maxval", 0.05),
                                           s);
  if (name == "TruncatedNormal" || name == "truncated_normal")
    return std::make_shared<TruncatedNormal>(number(c, "mean", 0.0), number(c, "stddev", 0.05),
                                             s);
  if (name == "VarianceScaling" || name == "variance_scaling")
    return std::make_shared<VarianceScaling>(number(c, "scale", 1.0), text(c, "mode", "fan_in"),
                                             text(c, "distribution", "truncated_normal"), s);
  if (name == "GlorotUniform" || name == "glorot_uniform") return GlorotUniform(s);
  if (name == "GlorotNormal" || name == "glorot_normal") return GlorotNormal(s);
  if (name == "HeUniform" || name == "he_uniform") return HeUniform(s);
  if (name == "HeNormal" || name == "he_normal") return HeNormal(s);
  if (name == "LecunUniform" || name == "lecun_uniform") return LecunUniform(s);
  if (name == "LecunNormal" || name == "lecun_normal") return LecunNormal(s);
  if (name == "Orthogonal" || name == "orthogonal" || name == "OrthogonalInitializer")
    return std::make_shared<Orthogonal>(number(c, "gain", 1.0), s);
  if (name == "STFT" || name == "stft" || name == "STFTInitializer") return STFT::from_config(c);
  throw ValueError("Unknown initializer '" + name +
                   "'. Known: zeros, ones, constant, identity, random_normal, random_uniform, "
                   "truncated_normal, variance_scaling, glorot_uniform, glorot_normal, "
                   "he_uniform, he_normal, lecun_uniform, lecun_normal, orthogonal, stft (or their "
                   "class names).");
}

}  // namespace

InitializerPtr get(const std::string& identifier) {
  return from_config(identifier, Config::object());
}

Config serialize(const Initializer& initializer) {
  return {{"module", "keras.initializers"},
          {"class_name", initializer.class_name()},
          {"config", initializer.get_config()},
          {"registered_name", nullptr}};
}

InitializerPtr deserialize(const Config& config) {
  if (config.is_string()) return get(config.get<std::string>());
  check(config.is_object() && config.contains("class_name"),
        "Cannot read an initializer from config ", config.dump(), ".");
  return from_config(config["class_name"].get<std::string>(),
                     config.value("config", Config::object()));
}

}  // namespace keras::initializers
