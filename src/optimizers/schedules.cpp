// keras.optimizers.schedules: the formulas of learning_rate_schedule.py, in float32 as Keras
// computes them (the initial learning rate is a float32 tensor and the step is cast to it).

#include "keras/optimizers/schedules.h"

#include <cmath>
#include <numbers>

#include "keras/ops/ops.h"

namespace keras::optimizers::schedules {
namespace {

constexpr DType kF32 = DType::Float32;

Tensor f32(double v) {
  return ops::full({}, v, kF32);
}

/// Step counts are Python ints in Keras configs; keep them integers when they are.
Config steps_json(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return Config(static_cast<int64_t>(v));
  return Config(v);
}

void check_steps(const char* what, double v) {
  check(v > 0, "Argument `", what, "` must be > 0. Received: ", what, "=", v);
}

double number(const Config& c, const char* key) {
  check(c.contains(key) && c[key].is_number(), "Learning rate schedule config ", c.dump(),
        " needs a number `", key, "`.");
  return c[key].get<double>();
}
double number(const Config& c, const char* key, double fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<double>() : fallback;
}
bool flag(const Config& c, const char* key, bool fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<bool>() : fallback;
}
std::string text(const Config& c, const char* key, const std::string& fallback) {
  return c.contains(key) && c[key].is_string() ? c[key].get<std::string>() : fallback;
}
std::vector<double> numbers(const Config& c, const char* key) {
  check(c.contains(key) && c[key].is_array(), "Learning rate schedule config ", c.dump(),
        " needs a list `", key, "`.");
  return c[key].get<std::vector<double>>();
}

Tensor step_f32(const Tensor& step) {
  return ops::cast(step, kF32);
}

}  // namespace

// ---- ExponentialDecay ----------------------------------------------------------------------

ExponentialDecay::ExponentialDecay(double initial_learning_rate, double decay_steps,
                                   double decay_rate, bool staircase, std::string name)
    : initial_learning_rate_(initial_learning_rate),
      decay_steps_(decay_steps),
      decay_rate_(decay_rate),
      staircase_(staircase),
      name_(std::move(name)) {
  check_steps("decay_steps", decay_steps);
}

Tensor ExponentialDecay::operator()(const Tensor& step) const {
  Tensor p = ops::divide(step_f32(step), f32(decay_steps_));
  if (staircase_) p = ops::floor(p);
  return ops::multiply(f32(initial_learning_rate_), ops::power(f32(decay_rate_), p));
}

Config ExponentialDecay::get_config() const {
  return {{"initial_learning_rate", initial_learning_rate_},
          {"decay_steps", steps_json(decay_steps_)},
          {"decay_rate", decay_rate_},
          {"staircase", staircase_},
          {"name", name_}};
}

// ---- PiecewiseConstantDecay ----------------------------------------------------------------

PiecewiseConstantDecay::PiecewiseConstantDecay(std::vector<double> boundaries,
                                               std::vector<double> values, std::string name)
    : boundaries_(std::move(boundaries)), values_(std::move(values)), name_(std::move(name)) {
  check(!boundaries_.empty() && boundaries_.size() + 1 == values_.size(),
        "The length of boundaries should be 1 less than the length of values (and at least "
        "1). Received: ",
        boundaries_.size(), " boundaries and ", values_.size(), " values.");
}

Tensor PiecewiseConstantDecay::operator()(const Tensor& step) const {
  // Boundaries take the step's dtype (an int64 iteration count truncates them), as in Keras.
  std::vector<Tensor> b;
  for (double x : boundaries_)
    b.push_back(ops::cast(ops::full({}, x, DType::Float64), step.dtype()));
  Tensor result = ops::zeros(step.shape(), kF32);
  result = ops::add(result, ops::multiply(ops::cast(ops::less_equal(step, b.front()), kF32),
                                          f32(values_.front())));
  result = ops::add(
      result, ops::multiply(ops::cast(ops::greater(step, b.back()), kF32), f32(values_.back())));
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    Tensor in_range = ops::logical_and(ops::greater(step, b[i]), ops::less_equal(step, b[i + 1]));
    result = ops::add(result, ops::multiply(ops::cast(in_range, kF32), f32(values_[i + 1])));
  }
  return result;
}

Config PiecewiseConstantDecay::get_config() const {
  Config bounds = Config::array();
  for (double x : boundaries_) bounds.push_back(steps_json(x));
  return {{"boundaries", bounds}, {"values", values_}, {"name", name_}};
}

// ---- PolynomialDecay -----------------------------------------------------------------------

PolynomialDecay::PolynomialDecay(double initial_learning_rate, double decay_steps,
                                 double end_learning_rate, double power, bool cycle,
                                 std::string name)
    : initial_learning_rate_(initial_learning_rate),
      decay_steps_(decay_steps),
      end_learning_rate_(end_learning_rate),
      power_(power),
      cycle_(cycle),
      name_(std::move(name)) {
  check_steps("decay_steps", decay_steps);
}

Tensor PolynomialDecay::operator()(const Tensor& step) const {
  Tensor s = step_f32(step);
  Tensor decay_steps = f32(decay_steps_);
  if (cycle_) {
    Tensor multiplier =
        ops::where(ops::equal(s, 0.0), f32(1.0), ops::ceil(ops::divide(s, decay_steps_)));
    decay_steps = ops::multiply(decay_steps, multiplier);
  } else {
    s = ops::minimum(s, decay_steps);
  }
  Tensor p = ops::divide(s, decay_steps);
  Tensor span = ops::subtract(f32(initial_learning_rate_), f32(end_learning_rate_));
  return ops::add(ops::multiply(span, ops::power(ops::subtract(1.0, p), f32(power_))),
                  f32(end_learning_rate_));
}

Config PolynomialDecay::get_config() const {
  return {{"initial_learning_rate", initial_learning_rate_},
          {"decay_steps", steps_json(decay_steps_)},
          {"end_learning_rate", end_learning_rate_},
          {"power", power_},
          {"cycle", cycle_},
          {"name", name_}};
}

// ---- InverseTimeDecay ----------------------------------------------------------------------

InverseTimeDecay::InverseTimeDecay(double initial_learning_rate, double decay_steps,
                                   double decay_rate, bool staircase, std::string name)
    : initial_learning_rate_(initial_learning_rate),
      decay_steps_(decay_steps),
      decay_rate_(decay_rate),
      staircase_(staircase),
      name_(std::move(name)) {
  check_steps("decay_steps", decay_steps);
}

Tensor InverseTimeDecay::operator()(const Tensor& step) const {
  Tensor p = ops::divide(step_f32(step), f32(decay_steps_));
  if (staircase_) p = ops::floor(p);
  return ops::divide(f32(initial_learning_rate_),
                     ops::add(f32(1.0), ops::multiply(f32(decay_rate_), p)));
}

Config InverseTimeDecay::get_config() const {
  return {{"initial_learning_rate", initial_learning_rate_},
          {"decay_steps", steps_json(decay_steps_)},
          {"decay_rate", decay_rate_},
          {"staircase", staircase_},
          {"name", name_}};
}

// ---- CosineDecay ---------------------------------------------------------------------------

CosineDecay::CosineDecay(double initial_learning_rate, double decay_steps, double alpha,
                         std::string name, std::optional<double> warmup_target, double warmup_steps)
    : initial_learning_rate_(initial_learning_rate),
      decay_steps_(decay_steps),
      alpha_(alpha),
      name_(std::move(name)),
      warmup_target_(warmup_target),
      warmup_steps_(warmup_steps) {
  check_steps("decay_steps", decay_steps);
  check(warmup_steps >= 0,
        "Argument `warmup_steps` must be >= 0. Received: warmup_steps=", warmup_steps);
}

Tensor CosineDecay::operator()(const Tensor& step) const {
  Tensor initial = f32(initial_learning_rate_);
  Tensor decay_steps = f32(decay_steps_);
  Tensor s = step_f32(step);
  auto decay = [&](const Tensor& st, const Tensor& from_lr) {
    Tensor fraction = ops::divide(st, decay_steps);
    Tensor cosine =
        ops::multiply(0.5, ops::add(1.0, ops::cos(ops::multiply(f32(std::numbers::pi), fraction))));
    Tensor decayed = ops::add(ops::multiply(1.0 - alpha_, cosine), alpha_);
    return ops::multiply(from_lr, decayed);
  };
  if (!warmup_target_) return decay(ops::minimum(s, decay_steps), initial);
  Tensor target = f32(*warmup_target_);
  Tensor warmup_steps = f32(warmup_steps_);
  s = ops::minimum(s, ops::add(decay_steps, warmup_steps));
  Tensor warm = ops::add(
      ops::multiply(ops::subtract(target, initial), ops::divide(s, warmup_steps)), initial);
  return ops::where(ops::less(s, warmup_steps), warm,
                    decay(ops::subtract(s, warmup_steps), target));
}

Config CosineDecay::get_config() const {
  return {{"initial_learning_rate", initial_learning_rate_},
          {"decay_steps", steps_json(decay_steps_)},
          {"alpha", alpha_},
          {"name", name_},
          {"warmup_target", warmup_target_ ? Config(*warmup_target_) : Config(nullptr)},
          {"warmup_steps", steps_json(warmup_steps_)}};
}

// ---- CosineDecayRestarts -------------------------------------------------------------------

CosineDecayRestarts::CosineDecayRestarts(double initial_learning_rate, double first_decay_steps,
                                         double t_mul, double m_mul, double alpha, std::string name)
    : initial_learning_rate_(initial_learning_rate),
      first_decay_steps_(first_decay_steps),
      t_mul_(t_mul),
      m_mul_(m_mul),
      alpha_(alpha),
      name_(std::move(name)) {
  check_steps("first_decay_steps", first_decay_steps);
}

Tensor CosineDecayRestarts::operator()(const Tensor& step) const {
  Tensor t_mul = f32(t_mul_);
  Tensor alpha = f32(alpha_);
  Tensor fraction = ops::divide(step_f32(step), f32(first_decay_steps_));
  Tensor i_restart;
  if (static_cast<float>(t_mul_) == 1.0f) {
    i_restart = ops::floor(fraction);
    fraction = ops::subtract(fraction, i_restart);
  } else {
    i_restart = ops::floor(ops::divide(
        ops::log(ops::subtract(1.0, ops::multiply(fraction, ops::subtract(1.0, t_mul)))),
        ops::log(t_mul)));
    // Where a cycle starts, the quotient of logarithms is an integer that the last bit of each
    // log can put on either side (log(2.25) / log(1.5): 2.0000002 with glibc's logf, 1.9999999
    // with ATen's vector log), and the floor picks the cycle. The start of the next cycle, a sum
    // of powers of t_mul, settles it on every backend (Keras takes the floor as it comes).
    auto cycle_start = [&](const Tensor& i) {
      return ops::divide(ops::subtract(1.0, ops::power(t_mul, i)), ops::subtract(1.0, t_mul));
    };
    const Tensor next = ops::add(i_restart, 1.0);
    i_restart = ops::where(ops::greater_equal(fraction, cycle_start(next)), next, i_restart);
    i_restart = ops::where(ops::less(fraction, cycle_start(i_restart)),
                           ops::subtract(i_restart, 1.0), i_restart);
    Tensor sum_r = cycle_start(i_restart);
    fraction = ops::divide(ops::subtract(fraction, sum_r), ops::power(t_mul, i_restart));
  }
  Tensor m_fac = ops::power(f32(m_mul_), i_restart);
  Tensor cosine =
      ops::multiply(ops::multiply(0.5, m_fac),
                    ops::add(1.0, ops::cos(ops::multiply(f32(std::numbers::pi), fraction))));
  Tensor decayed = ops::add(ops::multiply(ops::subtract(1.0, alpha), cosine), alpha);
  return ops::multiply(f32(initial_learning_rate_), decayed);
}

Config CosineDecayRestarts::get_config() const {
  return {{"initial_learning_rate", initial_learning_rate_},
          {"first_decay_steps", steps_json(first_decay_steps_)},
          {"t_mul", t_mul_},
          {"m_mul", m_mul_},
          {"alpha", alpha_},
          {"name", name_}};
}

// ---- (de)serialization ---------------------------------------------------------------------

Config serialize(const SchedulePtr& schedule) {
  if (!schedule) return nullptr;
  return {{"module", "keras.optimizers.schedules"},
          {"class_name", schedule->class_name()},
          {"config", schedule->get_config()},
          {"registered_name", nullptr}};
}

SchedulePtr deserialize(const Config& config) {
  check(config.is_object() && config.contains("class_name") && config["class_name"].is_string(),
        "Cannot read a learning rate schedule from ", config.dump(),
        "; expected {\"class_name\": ..., \"config\": {...}}.");
  const std::string name = config["class_name"].get<std::string>();
  const Config c = config.value("config", Config::object());
  if (name == "ExponentialDecay")
    return std::make_shared<ExponentialDecay>(
        number(c, "initial_learning_rate"), number(c, "decay_steps"), number(c, "decay_rate"),
        flag(c, "staircase", false), text(c, "name", "ExponentialDecay"));
  if (name == "PiecewiseConstantDecay")
    return std::make_shared<PiecewiseConstantDecay>(numbers(c, "boundaries"), numbers(c, "values"),
                                                    text(c, "name", "PiecewiseConstant"));
  if (name == "PolynomialDecay")
    return std::make_shared<PolynomialDecay>(
        number(c, "initial_learning_rate"), number(c, "decay_steps"),
        number(c, "end_learning_rate", 0.0001), number(c, "power", 1.0), flag(c, "cycle", false),
        text(c, "name", "PolynomialDecay"));
  if (name == "InverseTimeDecay")
    return std::make_shared<InverseTimeDecay>(
        number(c, "initial_learning_rate"), number(c, "decay_steps"), number(c, "decay_rate"),
        flag(c, "staircase", false), text(c, "name", "InverseTimeDecay"));
  if (name == "CosineDecay") {
    std::optional<double> target;
    if (c.contains("warmup_target") && !c["warmup_target"].is_null())
      target = c["warmup_target"].get<double>();
    return std::make_shared<CosineDecay>(
        number(c, "initial_learning_rate"), number(c, "decay_steps"), number(c, "alpha", 0.0),
        text(c, "name", "CosineDecay"), target, number(c, "warmup_steps", 0.0));
  }
  if (name == "CosineDecayRestarts")
    return std::make_shared<CosineDecayRestarts>(
        number(c, "initial_learning_rate"), number(c, "first_decay_steps"), number(c, "t_mul", 2.0),
        number(c, "m_mul", 1.0), number(c, "alpha", 0.0), text(c, "name", "SGDRDecay"));
  throw ValueError("Unknown learning rate schedule '" + name +
                   "'. Known: CosineDecay, CosineDecayRestarts, ExponentialDecay, "
                   "InverseTimeDecay, PiecewiseConstantDecay, PolynomialDecay.");
}

}  // namespace keras::optimizers::schedules
