// The loss classes of keras.losses: construction checks, call() through the loss function,
// Keras's config keys, and the name registry behind get()/deserialize().

#include <map>
#include <mutex>

#include "keras/core/errors.h"
#include "keras/losses/losses.h"
#include "keras/ops/ops.h"

namespace keras::losses {
namespace {

// Keras's LossFunctionWrapper.call brings y_true and y_pred to the same rank before the loss
// function (labels (batch,) against predictions (batch, 1), for one).
std::pair<Tensor, Tensor> wrapper_ranks(const Tensor& y_true, const Tensor& y_pred) {
  return squeeze_or_expand_to_same_rank(y_true, y_pred);
}

template <typename T>
T read(const Config& c, const char* key, T fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  return c[key].get<T>();
}

std::optional<int64_t> read_optional_int(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return c[key].get<int64_t>();
}

// Dice/Tversky's axis: None, an int or a list of ints.
std::optional<std::vector<int>> read_axes(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  if (c[key].is_number_integer()) return std::vector<int>{c[key].get<int>()};
  return c[key].get<std::vector<int>>();
}

Config axes_config(const std::optional<std::vector<int>>& axis, bool as_list) {
  if (!axis) return nullptr;
  if (axis->size() == 1 && !as_list) return (*axis)[0];
  return *axis;
}

// Whether a config's axis is a list (Keras writes a tuple axis as one, an int as an int).
bool axis_is_list(const Config& c) { return c.contains("axis") && c["axis"].is_array(); }

std::optional<DType> read_dtype(const Config& c) {
  if (!c.contains("dtype") || c["dtype"].is_null()) return std::nullopt;
  const Config& d = c["dtype"];
  // Keras 3.6+ may write a serialized DTypePolicy: {"class_name": "DTypePolicy", "config":
  // {"name": "float32"}}.
  if (d.is_object()) return dtype_from_string(d.at("config").at("name").get<std::string>());
  return dtype_from_string(d.get<std::string>());
}

std::string read_reduction(const Config& c) {
  if (!c.contains("reduction") || c["reduction"].is_null()) {
    return c.contains("reduction") ? "None" : kSumOverBatchSize;
  }
  return c["reduction"].get<std::string>();
}

// The arguments every loss shares: reduction, name, dtype.
template <typename Options>
void read_base_options(const Config& c, Options& o) {
  o.reduction = read_reduction(c);
  o.name = read<std::string>(c, "name", o.name);
  o.dtype = read_dtype(c);
}

void check_probability(const char* cls, const char* what, double v) {
  check(v >= 0 && v <= 1, cls, ": ", what, " must be in [0, 1]; got ", v, ".");
}

}  // namespace

MeanSquaredError::MeanSquaredError(MeanSquaredErrorOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor MeanSquaredError::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return mean_squared_error(t, p);
}
Config MeanSquaredError::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr MeanSquaredError::from_config(const Config& c) {
  MeanSquaredErrorOptions o;
  read_base_options(c, o);
  return std::make_shared<MeanSquaredError>(o);
}

MeanAbsoluteError::MeanAbsoluteError(MeanAbsoluteErrorOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor MeanAbsoluteError::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return mean_absolute_error(t, p);
}
Config MeanAbsoluteError::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr MeanAbsoluteError::from_config(const Config& c) {
  MeanAbsoluteErrorOptions o;
  read_base_options(c, o);
  return std::make_shared<MeanAbsoluteError>(o);
}

MeanAbsolutePercentageError::MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor MeanAbsolutePercentageError::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return mean_absolute_percentage_error(t, p);
}
Config MeanAbsolutePercentageError::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr MeanAbsolutePercentageError::from_config(const Config& c) {
  MeanAbsolutePercentageErrorOptions o;
  read_base_options(c, o);
  return std::make_shared<MeanAbsolutePercentageError>(o);
}

MeanSquaredLogarithmicError::MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor MeanSquaredLogarithmicError::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return mean_squared_logarithmic_error(t, p);
}
Config MeanSquaredLogarithmicError::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr MeanSquaredLogarithmicError::from_config(const Config& c) {
  MeanSquaredLogarithmicErrorOptions o;
  read_base_options(c, o);
  return std::make_shared<MeanSquaredLogarithmicError>(o);
}

CosineSimilarity::CosineSimilarity(CosineSimilarityOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor CosineSimilarity::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return cosine_similarity(t, p, options_.axis);
}
Config CosineSimilarity::get_config() const {
  Config c = Loss::get_config();
  // Keras 3.15's get_config leaves axis out (its round trip loses a non-default axis): written
  // only when it is not the default, so default configs equal Keras's key for key.
  if (options_.axis != CosineSimilarityOptions{}.axis) c["axis"] = options_.axis;
  return c;
}
LossPtr CosineSimilarity::from_config(const Config& c) {
  CosineSimilarityOptions o;
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<CosineSimilarity>(o);
}

Huber::Huber(HuberOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Huber::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return huber(t, p, options_.delta);
}
Config Huber::get_config() const {
  Config c = Loss::get_config();
  // Left out by Keras 3.15's get_config (a non-default delta is lost there): written only when
  // it is not the default.
  if (options_.delta != HuberOptions{}.delta) c["delta"] = options_.delta;
  return c;
}
LossPtr Huber::from_config(const Config& c) {
  HuberOptions o;
  o.delta = read<double>(c, "delta", o.delta);
  read_base_options(c, o);
  return std::make_shared<Huber>(o);
}

LogCosh::LogCosh(LogCoshOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor LogCosh::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return log_cosh(t, p);
}
Config LogCosh::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr LogCosh::from_config(const Config& c) {
  LogCoshOptions o;
  read_base_options(c, o);
  return std::make_shared<LogCosh>(o);
}

Hinge::Hinge(HingeOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Hinge::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return hinge(t, p);
}
Config Hinge::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr Hinge::from_config(const Config& c) {
  HingeOptions o;
  read_base_options(c, o);
  return std::make_shared<Hinge>(o);
}

SquaredHinge::SquaredHinge(SquaredHingeOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor SquaredHinge::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return squared_hinge(t, p);
}
Config SquaredHinge::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr SquaredHinge::from_config(const Config& c) {
  SquaredHingeOptions o;
  read_base_options(c, o);
  return std::make_shared<SquaredHinge>(o);
}

CategoricalHinge::CategoricalHinge(CategoricalHingeOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor CategoricalHinge::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return categorical_hinge(t, p);
}
Config CategoricalHinge::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr CategoricalHinge::from_config(const Config& c) {
  CategoricalHingeOptions o;
  read_base_options(c, o);
  return std::make_shared<CategoricalHinge>(o);
}

KLDivergence::KLDivergence(KLDivergenceOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor KLDivergence::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return kl_divergence(t, p);
}
Config KLDivergence::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr KLDivergence::from_config(const Config& c) {
  KLDivergenceOptions o;
  read_base_options(c, o);
  return std::make_shared<KLDivergence>(o);
}

Poisson::Poisson(PoissonOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Poisson::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return poisson(t, p);
}
Config Poisson::get_config() const {
  Config c = Loss::get_config();
  return c;
}
LossPtr Poisson::from_config(const Config& c) {
  PoissonOptions o;
  read_base_options(c, o);
  return std::make_shared<Poisson>(o);
}

CTC::CTC(CTCOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor CTC::call(const Tensor& y_true, const Tensor& y_pred) const { return ctc(y_true, y_pred); }
Config CTC::get_config() const { return Loss::get_config(); }
LossPtr CTC::from_config(const Config& c) {
  CTCOptions o;
  read_base_options(c, o);
  return std::make_shared<CTC>(o);
}

BinaryCrossentropy::BinaryCrossentropy(BinaryCrossentropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {
  check_probability("BinaryCrossentropy", "label_smoothing", options_.label_smoothing);
}
Tensor BinaryCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return binary_crossentropy(t, p, options_.from_logits, options_.label_smoothing,
                             options_.axis);
}
Config BinaryCrossentropy::get_config() const {
  Config c = Loss::get_config();
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  c["axis"] = options_.axis;
  return c;
}
LossPtr BinaryCrossentropy::from_config(const Config& c) {
  BinaryCrossentropyOptions o;
  o.from_logits = read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = read<double>(c, "label_smoothing", o.label_smoothing);
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<BinaryCrossentropy>(o);
}

BinaryFocalCrossentropy::BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {
  check_probability("BinaryFocalCrossentropy", "label_smoothing", options_.label_smoothing);
  check(options_.gamma >= 0, "BinaryFocalCrossentropy: gamma must be >= 0; got ", options_.gamma,
        ".");
}
Tensor BinaryFocalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return binary_focal_crossentropy(t, p, options_.apply_class_balancing, options_.alpha,
                                   options_.gamma, options_.from_logits, options_.label_smoothing,
                                   options_.axis);
}
Config BinaryFocalCrossentropy::get_config() const {
  Config c = Loss::get_config();
  c["apply_class_balancing"] = options_.apply_class_balancing;
  c["alpha"] = options_.alpha;
  c["gamma"] = options_.gamma;
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  c["axis"] = options_.axis;
  return c;
}
LossPtr BinaryFocalCrossentropy::from_config(const Config& c) {
  BinaryFocalCrossentropyOptions o;
  o.apply_class_balancing = read<bool>(c, "apply_class_balancing", o.apply_class_balancing);
  o.alpha = read<double>(c, "alpha", o.alpha);
  o.gamma = read<double>(c, "gamma", o.gamma);
  o.from_logits = read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = read<double>(c, "label_smoothing", o.label_smoothing);
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<BinaryFocalCrossentropy>(o);
}

CategoricalCrossentropy::CategoricalCrossentropy(CategoricalCrossentropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {
  check_probability("CategoricalCrossentropy", "label_smoothing", options_.label_smoothing);
}
Tensor CategoricalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return categorical_crossentropy(t, p, options_.from_logits, options_.label_smoothing,
                                  options_.axis);
}
Config CategoricalCrossentropy::get_config() const {
  Config c = Loss::get_config();
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  c["axis"] = options_.axis;
  return c;
}
LossPtr CategoricalCrossentropy::from_config(const Config& c) {
  CategoricalCrossentropyOptions o;
  o.from_logits = read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = read<double>(c, "label_smoothing", o.label_smoothing);
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<CategoricalCrossentropy>(o);
}

CategoricalFocalCrossentropy::CategoricalFocalCrossentropy(
    CategoricalFocalCrossentropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {
  check_probability("CategoricalFocalCrossentropy", "label_smoothing", options_.label_smoothing);
  check(options_.gamma >= 0, "CategoricalFocalCrossentropy: gamma must be >= 0; got ",
        options_.gamma, ".");
}
Tensor CategoricalFocalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return categorical_focal_crossentropy(t, p, options_.alpha, options_.gamma,
                                        options_.from_logits, options_.label_smoothing,
                                        options_.axis);
}
Config CategoricalFocalCrossentropy::get_config() const {
  Config c = Loss::get_config();
  c["alpha"] = options_.alpha;
  c["gamma"] = options_.gamma;
  c["from_logits"] = options_.from_logits;
  c["label_smoothing"] = options_.label_smoothing;
  c["axis"] = options_.axis;
  return c;
}
LossPtr CategoricalFocalCrossentropy::from_config(const Config& c) {
  CategoricalFocalCrossentropyOptions o;
  o.alpha = read<double>(c, "alpha", o.alpha);
  o.gamma = read<double>(c, "gamma", o.gamma);
  o.from_logits = read<bool>(c, "from_logits", o.from_logits);
  o.label_smoothing = read<double>(c, "label_smoothing", o.label_smoothing);
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<CategoricalFocalCrossentropy>(o);
}

SparseCategoricalCrossentropy::SparseCategoricalCrossentropy(
    SparseCategoricalCrossentropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor SparseCategoricalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return sparse_categorical_crossentropy(t, p, options_.from_logits,
                                         options_.ignore_class, options_.axis);
}
Config SparseCategoricalCrossentropy::get_config() const {
  Config c = Loss::get_config();
  c["from_logits"] = options_.from_logits;
  c["ignore_class"] = options_.ignore_class ? Config(*options_.ignore_class) : Config(nullptr);
  // Keras 3.15's get_config leaves axis out; written only when it is not the default.
  if (options_.axis != SparseCategoricalCrossentropyOptions{}.axis) c["axis"] = options_.axis;
  return c;
}
LossPtr SparseCategoricalCrossentropy::from_config(const Config& c) {
  SparseCategoricalCrossentropyOptions o;
  o.from_logits = read<bool>(c, "from_logits", o.from_logits);
  o.ignore_class = read_optional_int(c, "ignore_class");
  o.axis = read<int>(c, "axis", o.axis);
  read_base_options(c, o);
  return std::make_shared<SparseCategoricalCrossentropy>(o);
}

Dice::Dice(DiceOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Dice::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return dice(t, p, options_.axis);
}
Config Dice::get_config() const {
  Config c = Loss::get_config();
  c["axis"] = axes_config(options_.axis, options_.axis_as_list);
  return c;
}
LossPtr Dice::from_config(const Config& c) {
  DiceOptions o;
  o.axis = read_axes(c, "axis");
  o.axis_as_list = axis_is_list(c);
  read_base_options(c, o);
  return std::make_shared<Dice>(o);
}

Tversky::Tversky(TverskyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Tversky::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return tversky(t, p, options_.alpha, options_.beta, options_.axis);
}
Config Tversky::get_config() const {
  Config c = Loss::get_config();
  c["alpha"] = options_.alpha;
  c["beta"] = options_.beta;
  c["axis"] = axes_config(options_.axis, options_.axis_as_list);
  return c;
}
LossPtr Tversky::from_config(const Config& c) {
  TverskyOptions o;
  o.axis_as_list = axis_is_list(c);
  o.alpha = read<double>(c, "alpha", o.alpha);
  o.beta = read<double>(c, "beta", o.beta);
  o.axis = read_axes(c, "axis");
  read_base_options(c, o);
  return std::make_shared<Tversky>(o);
}

Circle::Circle(CircleOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {}
Tensor Circle::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return circle(t, p, Tensor(), Tensor(), options_.remove_diagonal, options_.gamma,
                options_.margin);
}
Config Circle::get_config() const {
  Config c = Loss::get_config();
  c["gamma"] = options_.gamma;
  c["margin"] = options_.margin;
  c["remove_diagonal"] = options_.remove_diagonal;
  return c;
}
LossPtr Circle::from_config(const Config& c) {
  CircleOptions o;
  o.gamma = read<double>(c, "gamma", o.gamma);
  o.margin = read<double>(c, "margin", o.margin);
  o.remove_diagonal = read<bool>(c, "remove_diagonal", o.remove_diagonal);
  read_base_options(c, o);
  return std::make_shared<Circle>(o);
}

CategoricalGeneralizedCrossEntropy::CategoricalGeneralizedCrossEntropy(
    CategoricalGeneralizedCrossEntropyOptions options)
    : Loss(options.name, options.reduction, options.dtype), options_(std::move(options)) {
  check(options_.q > 0 && options_.q < 1,
        "CategoricalGeneralizedCrossEntropy: q must be in (0, 1); got ", options_.q, ".");
}
Tensor CategoricalGeneralizedCrossEntropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = wrapper_ranks(y_true, y_pred);
  return categorical_generalized_cross_entropy(t, p, options_.q);
}
Config CategoricalGeneralizedCrossEntropy::get_config() const {
  Config c = Loss::get_config();
  c["q"] = options_.q;
  return c;
}
LossPtr CategoricalGeneralizedCrossEntropy::from_config(const Config& c) {
  CategoricalGeneralizedCrossEntropyOptions o;
  o.q = read<double>(c, "q", o.q);
  read_base_options(c, o);
  return std::make_shared<CategoricalGeneralizedCrossEntropy>(o);
}

namespace {

using Factory = LossPtr (*)(const Config&);

// Class names and the function names and aliases Keras's losses.get accepts.
const std::map<std::string, Factory>& builtin_losses() {
  static const std::map<std::string, Factory> table = {
      {"BinaryCrossentropy", BinaryCrossentropy::from_config},
      {"BinaryFocalCrossentropy", BinaryFocalCrossentropy::from_config},
      {"CategoricalCrossentropy", CategoricalCrossentropy::from_config},
      {"CategoricalFocalCrossentropy", CategoricalFocalCrossentropy::from_config},
      {"CategoricalGeneralizedCrossEntropy", CategoricalGeneralizedCrossEntropy::from_config},
      {"CTC", CTC::from_config},
      {"CategoricalHinge", CategoricalHinge::from_config},
      {"Circle", Circle::from_config},
      {"CosineSimilarity", CosineSimilarity::from_config},
      {"Dice", Dice::from_config},
      {"Hinge", Hinge::from_config},
      {"Huber", Huber::from_config},
      {"KLD", KLDivergence::from_config},
      {"KLDivergence", KLDivergence::from_config},
      {"LogCosh", LogCosh::from_config},
      {"MAE", MeanAbsoluteError::from_config},
      {"MAPE", MeanAbsolutePercentageError::from_config},
      {"MSE", MeanSquaredError::from_config},
      {"MSLE", MeanSquaredLogarithmicError::from_config},
      {"MeanAbsoluteError", MeanAbsoluteError::from_config},
      {"MeanAbsolutePercentageError", MeanAbsolutePercentageError::from_config},
      {"MeanSquaredError", MeanSquaredError::from_config},
      {"MeanSquaredLogarithmicError", MeanSquaredLogarithmicError::from_config},
      {"Poisson", Poisson::from_config},
      {"SparseCategoricalCrossentropy", SparseCategoricalCrossentropy::from_config},
      {"SquaredHinge", SquaredHinge::from_config},
      {"Tversky", Tversky::from_config},
      {"binary_crossentropy", BinaryCrossentropy::from_config},
      {"binary_focal_crossentropy", BinaryFocalCrossentropy::from_config},
      {"categorical_crossentropy", CategoricalCrossentropy::from_config},
      {"categorical_focal_crossentropy", CategoricalFocalCrossentropy::from_config},
      {"categorical_generalized_cross_entropy", CategoricalGeneralizedCrossEntropy::from_config},
      {"categorical_hinge", CategoricalHinge::from_config},
      {"circle", Circle::from_config},
      {"cosine_similarity", CosineSimilarity::from_config},
      {"ctc", CTC::from_config},
      {"dice", Dice::from_config},
      {"hinge", Hinge::from_config},
      {"huber", Huber::from_config},
      {"huber_loss", Huber::from_config},
      {"kl_divergence", KLDivergence::from_config},
      {"kld", KLDivergence::from_config},
      {"kullback_leibler_divergence", KLDivergence::from_config},
      {"log_cosh", LogCosh::from_config},
      {"logcosh", LogCosh::from_config},
      {"mae", MeanAbsoluteError::from_config},
      {"mape", MeanAbsolutePercentageError::from_config},
      {"mean_absolute_error", MeanAbsoluteError::from_config},
      {"mean_absolute_percentage_error", MeanAbsolutePercentageError::from_config},
      {"mean_squared_error", MeanSquaredError::from_config},
      {"mean_squared_logarithmic_error", MeanSquaredLogarithmicError::from_config},
      {"mse", MeanSquaredError::from_config},
      {"msle", MeanSquaredLogarithmicError::from_config},
      {"poisson", Poisson::from_config},
      {"sparse_categorical_crossentropy", SparseCategoricalCrossentropy::from_config},
      {"squared_hinge", SquaredHinge::from_config},
      {"tversky", Tversky::from_config},
  };
  return table;
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, LossFunctionWrapper::Fn>& registered_functions() {
  static std::map<std::string, LossFunctionWrapper::Fn> table;
  return table;
}

LossPtr from_name(const std::string& name, const Config& config) {
  const auto& table = builtin_losses();
  if (auto it = table.find(name); it != table.end()) return it->second(config);
  {
    std::lock_guard lock(registry_mutex());
    auto& fns = registered_functions();
    if (auto it = fns.find(name); it != fns.end())
      return std::make_shared<LossFunctionWrapper>(it->second, name);
  }
  std::string known;
  for (const auto& [n, f] : table) known += (known.empty() ? "" : ", ") + n;
  throw ValueError("Unknown loss '" + name + "'. Known names: " + known +
                   ". Register a custom function with keras::losses::register_loss(\"" + name +
                   "\", fn).");
}

}  // namespace

LossPtr get(const std::string& identifier) {
  return from_name(identifier, Config::object());
}

void register_loss(const std::string& name, LossFunctionWrapper::Fn fn) {
  check(!name.empty() && fn, "register_loss needs a name and a function.");
  check(!builtin_losses().count(name), "register_loss: '", name,
        "' is a built-in loss name; choose another.");
  std::lock_guard lock(registry_mutex());
  registered_functions()[name] = std::move(fn);
}

Config serialize(const LossPtr& loss) {
  if (!loss) return nullptr;
  if (loss->class_name() == "LossFunctionWrapper") {
    // A registered function, as Keras serializes a function object.
    return {{"module", "builtins"},
            {"class_name", "function"},
            {"config", loss->name()},
            {"registered_name", "function"}};
  }
  return {{"module", "keras.losses"},
          {"class_name", loss->class_name()},
          {"config", loss->get_config()},
          {"registered_name", nullptr}};
}

LossPtr deserialize(const Config& config) {
  if (config.is_null()) return nullptr;
  if (config.is_string()) return get(config.get<std::string>());
  check(config.is_object() && config.contains("class_name"),
        "A serialized loss is a name or an object with 'class_name' and 'config'; got ",
        config.dump(), ".");
  std::string cls = config["class_name"].get<std::string>();
  Config inner = config.contains("config") ? config["config"] : Config::object();
  if (cls == "function") return get(inner.get<std::string>());
  return from_name(cls, inner.is_object() ? inner : Config::object());
}

}  // namespace keras::losses
