// Loss.__call__ as Keras 3: per-sample values, the prediction's mask, sample weights, then
// the reduction (keras/src/losses/loss.py).

#include "keras/losses/loss.h"

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/layers/layer.h"
#include "keras/ops/ops.h"
#include "keras/tensor/keras_mask.h"

namespace keras::losses {

void check_reduction(const std::string& reduction) {
  static const char* allowed[] = {"sum_over_batch_size", "sum", "none", "None", "mean",
                                  "mean_with_sample_weight"};
  for (const char* a : allowed)
    if (reduction == a) return;
  throw ValueError("Invalid loss reduction '" + reduction +
                   "'. Expected one of: sum_over_batch_size, sum, mean, "
                   "mean_with_sample_weight, none.");
}

Loss::Loss(std::string name, std::string reduction, std::optional<DType> dtype)
    : name_(std::move(name)),
      reduction_(std::move(reduction)),
      dtype_(dtype.value_or(config::floatx())) {
  check_reduction(reduction_);
  if (reduction_ == "None") {
    reduction_ = "none";
    reduction_is_null_ = true;
  }
  check(is_floating(dtype_), "A loss computes in a float dtype; got dtype=", dtype_name(dtype_),
        ".");
}

Config Loss::get_config() const {
  Config c = Config::object();
  c["name"] = name_;
  c["reduction"] = reduction_is_null_ ? Config(nullptr) : Config(reduction_);
  return c;
}

Tensor Loss::operator()(const Tensor& y_true, const Tensor& y_pred,
                        const Tensor& sample_weight) const {
  check(y_true.defined() && y_pred.defined(), "Loss '", name_,
        "' needs both y_true and y_pred; one of them is undefined.");
  Tensor in_mask = get_keras_mask(y_pred);
  Tensor pred = y_pred.dtype() == dtype_ ? y_pred : ops::cast(y_pred, dtype_);
  Tensor truth = y_true.dtype() == dtype_ ? y_true : ops::cast(y_true, dtype_);
  Tensor values = call(truth, pred);
  Tensor out_mask = get_keras_mask(values);
  Tensor mask;
  if (in_mask.defined() && out_mask.defined())
    mask = ops::logical_and(in_mask, out_mask);
  else
    mask = in_mask.defined() ? in_mask : out_mask;
  return reduce_weighted_values(values, sample_weight, mask, reduction_, dtype_);
}

std::pair<Tensor, Tensor> squeeze_or_expand_to_same_rank(Tensor x1, Tensor x2, bool expand_rank_1) {
  int r1 = x1.ndim(), r2 = x2.ndim();
  if (r1 == r2) return {x1, x2};
  if (r1 == r2 + 1 && x1.shape().back() == 1) {
    if (r2 == 1 && expand_rank_1)
      x2 = ops::expand_dims(x2, -1);
    else
      x1 = ops::squeeze(x1, -1);
  }
  if (r2 == r1 + 1 && x2.shape().back() == 1) {
    if (r1 == 1 && expand_rank_1)
      x1 = ops::expand_dims(x1, -1);
    else
      x2 = ops::squeeze(x2, -1);
  }
  return {x1, x2};
}

namespace {

Tensor reduce_values(const Tensor& values, const Tensor& sample_weight,
                     const std::string& reduction) {
  if (reduction == "none" || reduction == "None" || values.ndim() == 0 ||
      (values.ndim() == 1 && values.size() == 0))
    return values;
  Tensor loss = ops::sum(values);
  if (reduction == "sum") return loss;
  Tensor divisor;
  if (reduction == "mean_with_sample_weight" && sample_weight.defined())
    divisor = ops::cast(ops::sum(sample_weight), loss.dtype());
  else
    divisor = ops::full({}, static_cast<double>(values.size()), loss.dtype());
  return ops::divide_no_nan(loss, divisor);
}

// Keras's apply_mask: a mask becomes sample weights; for mean reductions the kept entries are
// scaled so the mean runs over them only.
Tensor apply_mask(Tensor sample_weight, const Tensor& mask, DType dtype,
                  const std::string& reduction) {
  if (!mask.defined()) return sample_weight;
  Tensor float_mask;
  if (reduction == "mean" || reduction == "sum_over_batch_size") {
    Tensor total = ops::full({}, static_cast<double>(mask.size()), dtype);
    Tensor valid = ops::sum(ops::cast(mask, dtype));
    Tensor mask_weight = ops::divide_no_nan(total, valid);
    float_mask = ops::where(ops::cast(mask, DType::Bool), mask_weight, ops::zeros({}, dtype));
  } else {
    float_mask = ops::cast(mask, dtype);
  }
  if (!sample_weight.defined()) return float_mask;
  auto [m, w] = squeeze_or_expand_to_same_rank(float_mask, ops::cast(sample_weight, dtype));
  return ops::multiply(w, m);
}

}  // namespace

Tensor reduce_weighted_values(Tensor values, Tensor sample_weight, const Tensor& mask,
                              const std::string& reduction, DType dtype) {
  check_reduction(reduction);
  if (values.dtype() != dtype) values = ops::cast(values, dtype);
  sample_weight = apply_mask(sample_weight, mask, dtype, reduction);
  if (sample_weight.defined()) {
    sample_weight = ops::cast(sample_weight, dtype);
    auto [v, w] = squeeze_or_expand_to_same_rank(values, sample_weight);
    values = ops::multiply(v, w);
    sample_weight = w;
  }
  return reduce_values(values, sample_weight, reduction);
}

LossArg::LossArg(const std::string& name) : name_(name) {
  if (name != "crossentropy" && name != "ce") ptr_ = losses::get(name);
}

LossFunctionWrapper::LossFunctionWrapper(Fn fn, std::string name, std::string reduction)
    : Loss(name.empty() ? unique_name("loss_function_wrapper") : std::move(name),
           std::move(reduction)),
      fn_(std::move(fn)) {
  check(static_cast<bool>(fn_), "LossFunctionWrapper needs a function; got an empty one.");
}

Tensor LossFunctionWrapper::call(const Tensor& y_true, const Tensor& y_pred) const {
  auto [t, p] = squeeze_or_expand_to_same_rank(y_true, y_pred);
  return fn_(t, p);
}

Config LossFunctionWrapper::get_config() const {
  Config c = Loss::get_config();
  c["fn"] = name();
  return c;
}

}  // namespace keras::losses
