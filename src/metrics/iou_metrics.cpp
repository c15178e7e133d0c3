// IoU metrics as keras/src/metrics/iou_metrics.py; the confusion matrix is counted on the host.

#include "keras/metrics/iou_metrics.h"

#include <algorithm>
#include <sstream>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "metrics/config_read.h"
#include "metrics/host.h"

namespace keras::metrics {
namespace {

using detail::device;
using detail::host;

std::vector<int64_t> mean_ids(int64_t n) {
  std::vector<int64_t> ids(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) ids[static_cast<size_t>(i)] = i;
  return ids;
}

// Keras writes IoU dtypes as "int32"/"int64" (its default is "int"): those map to floatx here.
std::optional<DType> iou_dtype(const Config& c) {
  if (!c.contains("dtype") || c["dtype"].is_null()) return std::nullopt;
  std::string n = c["dtype"].is_object() ? c["dtype"].at("config").at("name").get<std::string>()
                                         : c["dtype"].get<std::string>();
  if (n.find("int") != std::string::npos) return std::nullopt;
  return dtype_from_string(n);
}

Config optional_int(const std::optional<int64_t>& v) { return v ? Config(*v) : Config(nullptr); }

}  // namespace

IoU::IoU(int64_t num_classes, std::vector<int64_t> target_class_ids, IoUOptions options)
    : IoU(Kind::IoU, num_classes, std::move(target_class_ids), std::move(options), std::nullopt) {}

IoU::IoU(Kind kind, int64_t num_classes, std::vector<int64_t> target_class_ids,
         IoUOptions options, std::optional<double> threshold)
    : Metric(options.name, options.dtype), kind_(kind), num_classes_(num_classes),
      target_class_ids_(std::move(target_class_ids)), options_(std::move(options)),
      threshold_(threshold) {
  set_direction("up");
  if (num_classes_ < 1)
    throw ValueError("IoU metrics need num_classes >= 1; got num_classes=" +
                     std::to_string(num_classes_) + ".");
  if (target_class_ids_.empty())
    throw ValueError("IoU metrics need at least one target class id; got none.");
  for (int64_t id : target_class_ids_)
    if (id < 0 || id >= num_classes_)
      throw ValueError("Target class id " + std::to_string(id) +
                       " is out of range, which is [0, " + std::to_string(num_classes_) + ").");
  total_cm_ = add_variable({num_classes_, num_classes_}, "total_confusion_matrix");
}

void IoU::update_state(const Tensor& y_true_in, const Tensor& y_pred_in,
                       const Tensor& sample_weight) {
  check(y_true_in.defined() && y_pred_in.defined(), class_name(), " '", name(),
        "' needs both y_true and y_pred; one of them is undefined.");
  Tensor y_true = y_true_in, y_pred = y_pred_in;
  if (threshold_) {  // BinaryIoU
    Tensor p = ops::cast(y_pred, DType::Float32);
    y_pred = ops::cast(ops::greater_equal(p, ops::full({}, *threshold_, DType::Float32)), dtype());
  }
  if (!options_.sparse_y_true) y_true = ops::argmax(y_true, options_.axis);
  if (!options_.sparse_y_pred) y_pred = ops::argmax(y_pred, options_.axis);
  std::vector<double> t = host(y_true), p = host(y_pred);
  check(t.size() == p.size(), class_name(), " '", name(), "': y_true has ", t.size(),
        " class ids (shape ", y_true.shape(), ") but y_pred has ", p.size(), " (shape ",
        y_pred.shape(), ").");
  std::vector<double> w(t.size(), 1.0);
  if (sample_weight.defined()) {
    Tensor sw = sample_weight.ndim() > 1 ? sample_weight.flatten() : sample_weight;
    try {
      w = host(ops::broadcast_to(ops::cast(sw, dtype()), Shape{static_cast<int64_t>(t.size())}));
    } catch (const Error&) {
      throw ValueError(class_name() + " '" + name() + "': sample_weight of shape " +
                       detail::shape_str(sample_weight.shape()) + " does not match the " +
                       std::to_string(t.size()) + " class ids of y_true.");
    }
  }
  const double n = static_cast<double>(num_classes_);
  std::vector<double> cm(static_cast<size_t>(num_classes_ * num_classes_), 0.0);
  for (size_t i = 0; i < t.size(); ++i) {
    bool ok = t[i] >= 0 && t[i] < n && p[i] >= 0 && p[i] < n;
    if (options_.ignore_class && t[i] == static_cast<double>(*options_.ignore_class)) ok = false;
    if (!ok) continue;  // Keras moves it to (0, 0) with weight 0
    auto r = static_cast<int64_t>(t[i]), c = static_cast<int64_t>(p[i]);
    cm[static_cast<size_t>(r * num_classes_ + c)] += w[i];
  }
  total_cm_.assign_add(device(cm, total_cm_.shape(), dtype()));
}

Tensor IoU::result() const {
  std::vector<double> cm = host(total_cm_.value());
  size_t n = static_cast<size_t>(num_classes_);
  double sum_iou = 0, valid = 0;
  const double eps = config::epsilon();
  for (int64_t id : target_class_ids_) {
    size_t k = static_cast<size_t>(id);
    double row = 0, col = 0;
    for (size_t j = 0; j < n; ++j) {
      row += cm[j * n + k];  // sum over axis 0: predicted as k
      col += cm[k * n + j];  // sum over axis 1: truly k
    }
    double tp = cm[k * n + k];
    auto denom = static_cast<double>(static_cast<float>(row + col - tp));
    if (denom > 1e-9) {
      sum_iou += tp / (denom + eps);
      valid += 1;
    }
  }
  return device({sum_iou / (valid + eps)}, Shape{}, dtype());
}

Config IoU::get_config() const {
  Config c = Metric::get_config();
  switch (kind_) {
    case Kind::IoU:
      c["num_classes"] = num_classes_;
      c["target_class_ids"] = target_class_ids_;
      c["ignore_class"] = optional_int(options_.ignore_class);
      c["sparse_y_true"] = options_.sparse_y_true;
      c["sparse_y_pred"] = options_.sparse_y_pred;
      c["axis"] = options_.axis;
      break;
    case Kind::Binary:
      c["target_class_ids"] = target_class_ids_;
      c["threshold"] = *threshold_;
      break;
    case Kind::Mean:
      c["num_classes"] = num_classes_;
      c["ignore_class"] = optional_int(options_.ignore_class);
      c["sparse_y_true"] = options_.sparse_y_true;
      c["sparse_y_pred"] = options_.sparse_y_pred;
      c["axis"] = options_.axis;
      break;
    case Kind::OneHot:
      c["num_classes"] = num_classes_;
      c["target_class_ids"] = target_class_ids_;
      c["ignore_class"] = optional_int(options_.ignore_class);
      c["sparse_y_pred"] = options_.sparse_y_pred;
      c["axis"] = options_.axis;
      break;
    case Kind::OneHotMean:
      c["num_classes"] = num_classes_;
      c["ignore_class"] = optional_int(options_.ignore_class);
      c["sparse_y_pred"] = options_.sparse_y_pred;
      c["axis"] = options_.axis;
      break;
  }
  return c;
}

IoUOptions IoU::read_options(const Config& c) {
  IoUOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = iou_dtype(c);
  o.ignore_class = detail::read_optional_int(c, "ignore_class");
  o.sparse_y_true = detail::read<bool>(c, "sparse_y_true", o.sparse_y_true);
  o.sparse_y_pred = detail::read<bool>(c, "sparse_y_pred", o.sparse_y_pred);
  o.axis = detail::read<int>(c, "axis", o.axis);
  return o;
}

namespace {
int64_t need_num_classes(const Config& c, const char* who) {
  check(c.contains("num_classes") && !c["num_classes"].is_null(), who,
        " config needs 'num_classes'; got ", c.dump(), ".");
  return c["num_classes"].get<int64_t>();
}
std::vector<int64_t> need_targets(const Config& c, const char* who) {
  check(c.contains("target_class_ids") && c["target_class_ids"].is_array(), who,
        " config needs 'target_class_ids'; got ", c.dump(), ".");
  return c["target_class_ids"].get<std::vector<int64_t>>();
}
OneHotIoUOptions one_hot_options(const IoUOptions& o) {
  return {.name = o.name, .dtype = o.dtype, .ignore_class = o.ignore_class,
          .sparse_y_pred = o.sparse_y_pred, .axis = o.axis};
}
IoUOptions from_one_hot(const OneHotIoUOptions& o) {
  return {.name = o.name, .dtype = o.dtype, .ignore_class = o.ignore_class,
          .sparse_y_true = false, .sparse_y_pred = o.sparse_y_pred, .axis = o.axis};
}
}  // namespace

MetricPtr IoU::from_config(const Config& c) {
  return std::make_shared<IoU>(need_num_classes(c, "IoU"), need_targets(c, "IoU"),
                               read_options(c));
}

MeanIoU::MeanIoU(int64_t num_classes, IoUOptions options)
    : IoU(Kind::Mean, num_classes, mean_ids(num_classes), std::move(options), std::nullopt) {}
MetricPtr MeanIoU::from_config(const Config& c) {
  return std::make_shared<MeanIoU>(need_num_classes(c, "MeanIoU"), read_options(c));
}

BinaryIoU::BinaryIoU(BinaryIoUOptions o)
    : IoU(Kind::Binary, 2, o.target_class_ids, IoUOptions{.name = o.name, .dtype = o.dtype},
          o.threshold) {}
MetricPtr BinaryIoU::from_config(const Config& c) {
  BinaryIoUOptions o;
  o.name = detail::read<std::string>(c, "name", "");
  o.dtype = iou_dtype(c);
  if (c.contains("target_class_ids") && c["target_class_ids"].is_array())
    o.target_class_ids = c["target_class_ids"].get<std::vector<int64_t>>();
  o.threshold = detail::read<double>(c, "threshold", o.threshold);
  return std::make_shared<BinaryIoU>(o);
}

OneHotIoU::OneHotIoU(int64_t num_classes, std::vector<int64_t> target_class_ids,
                     OneHotIoUOptions o)
    : IoU(Kind::OneHot, num_classes, std::move(target_class_ids), from_one_hot(o), std::nullopt) {}
MetricPtr OneHotIoU::from_config(const Config& c) {
  IoUOptions o = read_options(c);
  o.sparse_y_pred = detail::read<bool>(c, "sparse_y_pred", false);
  return std::make_shared<OneHotIoU>(need_num_classes(c, "OneHotIoU"),
                                     need_targets(c, "OneHotIoU"), one_hot_options(o));
}

OneHotMeanIoU::OneHotMeanIoU(int64_t num_classes, OneHotIoUOptions o)
    : IoU(Kind::OneHotMean, num_classes, mean_ids(num_classes), from_one_hot(o), std::nullopt) {}
MetricPtr OneHotMeanIoU::from_config(const Config& c) {
  IoUOptions o = read_options(c);
  o.sparse_y_pred = detail::read<bool>(c, "sparse_y_pred", false);
  return std::make_shared<OneHotMeanIoU>(need_num_classes(c, "OneHotMeanIoU"),
                                         one_hot_options(o));
}

}  // namespace keras::metrics
