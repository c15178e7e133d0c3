// compile(loss=...) as keras/src/trainers/compile_utils.py CompileLoss.

#include "trainers/compile_loss.h"

#include "keras/core/errors.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/losses/losses.h"
#include "keras/ops/ops.h"

namespace keras::trainers {

LabelKind label_kind(const Tensor& y_true, const Tensor& y_pred) {
  LabelKind k;
  int64_t p_last = y_pred.ndim() ? y_pred.shape().back() : 1;
  int64_t t_last = y_true.ndim() ? y_true.shape().back() : 1;
  k.binary = p_last == 1;
  k.sparse_categorical = y_true.ndim() < y_pred.ndim() || (t_last == 1 && p_last > 1);
  return k;
}

TensorList align_targets(const TensorStruct& y, size_t num_outputs,
                         const std::vector<std::string>& output_names, const char* what) {
  check(y.defined(), what, " is missing: the model has a loss, so fit/evaluate need targets (y).");
  if (y.kind() == TensorStruct::Kind::Map) {
    TensorList out;
    for (size_t i = 0; i < num_outputs; ++i) {
      const std::string& name = i < output_names.size() ? output_names[i] : std::string();
      auto it = y.map().find(name);
      out.push_back(it == y.map().end() ? Tensor() : it->second);
    }
    return out;
  }
  TensorList flat = y.flat();
  check(flat.size() == num_outputs, what, " has ", flat.size(), " tensors but the model has ",
        num_outputs, " outputs; pass one per output (a list in output order, or a map by output "
        "name).");
  return flat;
}

namespace {

losses::LossPtr resolve(const losses::LossArg& arg, const Tensor& y_true, const Tensor& y_pred) {
  if (arg.get()) return arg.get();
  LabelKind kind = label_kind(y_true, y_pred);
  if (kind.binary) return losses::get("binary_crossentropy");
  if (kind.sparse_categorical) return losses::get("sparse_categorical_crossentropy");
  return losses::get("categorical_crossentropy");
}

double weight_for(const LossWeights& w, size_t i, const std::string& name, size_t n) {
  if (std::holds_alternative<std::monostate>(w)) return 1.0;
  if (auto* d = std::get_if<double>(&w)) return *d;
  if (auto* list = std::get_if<std::vector<double>>(&w)) {
    check(list->size() == n, "compile: loss_weights has ", list->size(),
          " entries but the model has ", n, " outputs.");
    return (*list)[i];
  }
  const auto& map = std::get<std::map<std::string, double>>(w);
  auto it = map.find(name);
  return it == map.end() ? 1.0 : it->second;
}

}  // namespace

CompileLoss::CompileLoss(LossSpec loss, LossWeights loss_weights)
    : spec_(std::move(loss)), weights_(std::move(loss_weights)) {}

void CompileLoss::build(const TensorStruct& y_true, const TensorList& y_pred,
                        const std::vector<std::string>& output_names) {
  size_t n = y_pred.size();
  auto name_of = [&](size_t i) {
    return i < output_names.size() ? output_names[i] : "output_" + std::to_string(i);
  };
  if (spec_.list()) {
    check(spec_.list()->size() == n, "compile: `loss` is a list of ", spec_.list()->size(),
          " losses but the model has ", n, " outputs; give one per output (or an empty "
          "LossArg for outputs without a loss).");
  }
  if (spec_.map()) {
    for (const auto& [key, loss] : *spec_.map()) {
      bool found = false;
      for (size_t i = 0; i < n; ++i) found = found || name_of(i) == key;
      std::string names;
      for (size_t i = 0; i < n; ++i) names += (i ? ", " : "") + name_of(i);
      check(found, "compile: `loss` names output '", key, "', which the model does not have. ",
            "Its outputs: ", names, ".");
    }
  }
  TensorList targets = align_targets(y_true, n, output_names, "y");
  for (size_t i = 0; i < n; ++i) {
    const losses::LossArg* arg = nullptr;
    if (spec_.single()) arg = &*spec_.single();
    if (spec_.list()) arg = &(*spec_.list())[i];
    if (spec_.map()) {
      auto it = spec_.map()->find(name_of(i));
      if (it != spec_.map()->end()) arg = &it->second;
    }
    if (!arg || !*arg) continue;
    check(targets[i].defined(), "y has no target for output '", name_of(i),
          "', which has a loss.");
    entries_.push_back({i, resolve(*arg, targets[i], y_pred[i]), weight_for(weights_, i, name_of(i), n)});
  }
  if (entries_.size() > 1)
    for (const Entry& e : entries_)
      trackers_.push_back(std::make_shared<metrics::Mean>(name_of(e.output) + "_loss"));
  built_ = true;
}

Tensor CompileLoss::operator()(const TensorStruct& y_true, const TensorList& y_pred,
                               const std::vector<std::string>& output_names,
                               const TensorStruct& sample_weight) {
  if (!built_) build(y_true, y_pred, output_names);
  if (entries_.empty()) return Tensor();
  TensorList targets = align_targets(y_true, y_pred.size(), output_names, "y");
  TensorList weights;
  if (sample_weight.defined()) {
    weights = sample_weight.size() == 1 && y_pred.size() > 1
                  ? TensorList(y_pred.size(), sample_weight.flat()[0])
                  : align_targets(sample_weight, y_pred.size(), output_names, "sample_weight");
  }
  Tensor total;
  for (size_t k = 0; k < entries_.size(); ++k) {
    const Entry& e = entries_[k];
    Tensor w = weights.empty() ? Tensor() : weights[e.output];
    Tensor value = (*e.loss)(targets[e.output], y_pred[e.output], w);
    if (!trackers_.empty()) {
      // Unweighted per-output losses, counted by batch size as Keras does.
      double batch = y_pred[e.output].ndim() ? static_cast<double>(y_pred[e.output].shape()[0]) : 1;
      NoGradScope no_grad;
      trackers_[k]->update_state(value, ops::full({}, batch, value.dtype()));
    }
    if (e.weight != 1.0) value = ops::multiply(value, e.weight);
    total = total.defined() ? ops::add(total, value) : value;
  }
  return total;
}

}  // namespace keras::trainers
