#include "keras/layers/preprocessing/discretization.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

// Keras's summary is a (2, n) float32 array: sorted values and their weights (counts).
struct Summary {
  std::vector<float> values, weights;
};

// numpy.interp(x, xp, fp) for increasing xp (NumPy's compiled arr_interp, in double).
std::vector<double> interp(const std::vector<double>& x, const std::vector<double>& xp,
                           const std::vector<double>& fp) {
  std::vector<double> out(x.size());
  const size_t n = xp.size();
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    if (std::isnan(v)) {
      out[i] = v;
      continue;
    }
    // The largest j with xp[j] <= v (-1 when v < xp[0]).
    const auto it = std::upper_bound(xp.begin(), xp.end(), v);
    const ptrdiff_t j = (it - xp.begin()) - 1;
    if (j < 0) {
      out[i] = fp[0];
    } else if (static_cast<size_t>(j) >= n - 1) {
      out[i] = v > xp[n - 1] ? fp[n - 1] : fp[static_cast<size_t>(j)];
    } else if (xp[static_cast<size_t>(j)] == v) {
      out[i] = fp[static_cast<size_t>(j)];
    } else {
      const size_t k = static_cast<size_t>(j);
      const double slope = (fp[k + 1] - fp[k]) / (xp[k + 1] - xp[k]);
      out[i] = slope * (v - xp[k]) + fp[k];
      if (std::isnan(out[i])) {
        out[i] = slope * (v - xp[k + 1]) + fp[k + 1];
        if (std::isnan(out[i]) && fp[k] == fp[k + 1]) out[i] = fp[k];
      }
    }
  }
  return out;
}

// Keras's compress_summary: re-bins a summary at cumulative-weight fractions epsilon, 2
// epsilon, ..., 1 (unchanged when it has fewer than 1 / epsilon entries).
Summary compress(const Summary& s, double epsilon) {
  if (static_cast<double>(s.values.size()) * epsilon < 1.0) return s;
  // epsilon + np.arange(0.0, 1.0, epsilon)
  const auto count = static_cast<size_t>(std::ceil((1.0 - 0.0) / epsilon));
  std::vector<double> percents(count);
  for (size_t i = 0; i < count; ++i) percents[i] = epsilon + static_cast<double>(i) * epsilon;
  // float32 cumulative sums and fractions, as NumPy computes them on the float32 summary.
  std::vector<float> cum(s.weights.size());
  float acc = 0.0f;
  for (size_t i = 0; i < cum.size(); ++i) cum[i] = acc = acc + s.weights[i];
  std::vector<double> xp(cum.size()), cum_d(cum.size()), values(s.values.begin(), s.values.end());
  for (size_t i = 0; i < cum.size(); ++i) {
    xp[i] = static_cast<double>(cum[i] / cum.back());
    cum_d[i] = static_cast<double>(cum[i]);
  }
  std::vector<double> new_bins = interp(percents, xp, values);
  std::vector<double> new_cum = interp(percents, xp, cum_d);
  Summary out;
  for (size_t i = 0; i < count; ++i) {
    out.values.push_back(static_cast<float>(new_bins[i]));
    out.weights.push_back(static_cast<float>(new_cum[i] - (i ? new_cum[i - 1] : 0.0)));
  }
  return out;
}

// Keras's summarize: every step-th sorted value (from index step - 1), each weighing step.
Summary summarize(std::vector<float> values, double epsilon) {
  std::sort(values.begin(), values.end());
  const double elements = static_cast<double>(values.size());
  const double increment = elements / (1.0 / epsilon);
  const double step = std::max(increment, 1.0);
  const auto start = static_cast<int64_t>(step - 1);
  const auto stride = static_cast<int64_t>(step);
  Summary s;
  for (int64_t i = start; i < static_cast<int64_t>(values.size()); i += stride) {
    s.values.push_back(values[static_cast<size_t>(i)]);
    s.weights.push_back(static_cast<float>(step));
  }
  return s;
}

// Keras's merge_summaries: both summaries sorted together by value, then compressed.
Summary merge(const Summary& a, const Summary& b, double epsilon) {
  Summary merged = a;
  merged.values.insert(merged.values.end(), b.values.begin(), b.values.end());
  merged.weights.insert(merged.weights.end(), b.weights.begin(), b.weights.end());
  std::vector<size_t> order(merged.values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t i, size_t j) { return merged.values[i] < merged.values[j]; });
  Summary sorted;
  for (size_t i : order) {
    sorted.values.push_back(merged.values[i]);
    sorted.weights.push_back(merged.weights[i]);
  }
  return compress(sorted, epsilon);
}

}  // namespace

DiscretizationLayer::DiscretizationLayer(DiscretizationOptions options)
    : Layer(base_options(options), "discretization"), options_(std::move(options)) {
  const std::string& mode = options_.output_mode;
  check<NotImplementedError>(!options_.sparse, "Discretization '", name(),
                             "': sparse=true is not supported (keras-cpp has no sparse "
                             "tensors); use the dense output.");
  check(mode == "int" || mode == "one_hot" || mode == "multi_hot" || mode == "count",
        "Discretization '", name(), "': output_mode must be one of \"int\", \"one_hot\", ",
        "\"multi_hot\", \"count\"; got \"", mode, "\".");
  check(!options_.num_bins || *options_.num_bins >= 0, "Discretization '", name(),
        "': num_bins must be greater than or equal to 0; got num_bins=",
        options_.num_bins.value_or(0), ".");
  check(!(options_.num_bins && options_.bin_boundaries), "Discretization '", name(),
        "': both num_bins and bin_boundaries should not be set.");
  check(options_.num_bins || options_.bin_boundaries, "Discretization '", name(),
        "': you need to set either num_bins or bin_boundaries.");
  if (options_.bin_boundaries)
    check(std::is_sorted(options_.bin_boundaries->begin(), options_.bin_boundaries->end()),
          "Discretization '", name(), "': bin_boundaries must be sorted.");
}

Tensor DiscretizationLayer::call(const Tensor& inputs, const CallContext&) {
  check(options_.bin_boundaries.has_value(), "Discretization '", name(),
        "': you need to either pass the bin_boundaries argument at construction time or call "
        "adapt(data) before you can start using the layer.");
  const std::vector<double>& bounds = *options_.bin_boundaries;
  Tensor x = is_floating(inputs.dtype()) ? inputs : ops::cast(inputs, compute_dtype());
  Tensor bins = ops::cast(Tensor::from_vector(bounds, Shape{static_cast<int64_t>(bounds.size())},
                                              inputs.backend_name()),
                          x.dtype());
  // The boundaries are sorted (checked at construction and by adapt), so np.digitize's
  // bins[i-1] <= x < bins[i] is the right insertion point; searchsorted reads no data on the
  // host (digitize does, to find the direction), so this also runs on symbolic tensors.
  Tensor indices = bounds.empty() ? ops::zeros_like(x, DType::Int32)
                                  : ops::searchsorted(bins, x, "right");
  const std::string& mode = options_.output_mode;
  if (mode == "int") return ops::cast(indices, DType::Int32);
  const int64_t depth = static_cast<int64_t>(bounds.size()) + 1;
  const DType dtype = compute_dtype();
  if (indices.ndim() == 0) indices = ops::expand_dims(indices, -1);
  if (mode == "multi_hot") return ops::multi_hot(indices, depth, -1, dtype);
  if (mode == "one_hot") {
    if (indices.ndim() > 1 && indices.shape()[indices.ndim() - 1] == 1)
      indices = ops::squeeze(indices, -1);
    return ops::one_hot(indices, depth, -1, dtype);
  }
  return ops::sum(ops::one_hot(indices, depth, -1, dtype), indices.ndim() > 1 ? 1 : 0);
}

void DiscretizationLayer::update_state(const Tensor& data) {
  check(data.defined(), "Discretization '", name(), "': adapt() got an undefined tensor.");
  Summary next = summarize(data.to_vector<float>(), options_.epsilon);
  Summary merged = merge(next, Summary{summary_values_, summary_weights_}, options_.epsilon);
  summary_values_ = std::move(merged.values);
  summary_weights_ = std::move(merged.weights);
}

void DiscretizationLayer::finalize_state() {
  Summary s = compress(Summary{summary_values_, summary_weights_},
                       1.0 / static_cast<double>(*options_.num_bins));
  std::vector<double> bounds;
  for (size_t i = 0; i + 1 < s.values.size(); ++i) bounds.push_back(s.values[i]);
  options_.bin_boundaries = bounds;
}

void DiscretizationLayer::adapt(const Tensor& data) { adapt(TensorList{data}); }

void DiscretizationLayer::adapt(const TensorList& batches, std::optional<int64_t> steps) {
  check(options_.num_bins.has_value(), "Discretization '", name(),
        "': cannot adapt a Discretization layer that has been initialized with bin_boundaries; "
        "use num_bins instead.");
  check(!batches.empty(), "Discretization '", name(), "': adapt() received no batches.");
  summary_values_.clear();
  summary_weights_.clear();
  for (size_t i = 0; i < batches.size(); ++i) {
    if (steps && static_cast<int64_t>(i) >= *steps) break;
    update_state(batches[i]);
  }
  finalize_state();
}

Config DiscretizationLayer::get_config() const {
  // Keras writes exactly these keys (no "trainable"), with "dtype" as the dtype name.
  Config c;
  c["bin_boundaries"] =
      options_.bin_boundaries ? Config(*options_.bin_boundaries) : Config(nullptr);
  c["num_bins"] = options_.num_bins ? Config(*options_.num_bins) : Config(nullptr);
  c["epsilon"] = options_.epsilon;
  c["output_mode"] = options_.output_mode;
  c["sparse"] = options_.sparse;
  c["name"] = name();
  c["dtype"] = dtype_policy().name;
  return c;
}

std::shared_ptr<Layer> DiscretizationLayer::from_config(const Config& c) {
  DiscretizationOptions o;
  read_base_config(c, o);
  if (c.contains("bin_boundaries") && !c["bin_boundaries"].is_null())
    o.bin_boundaries = c["bin_boundaries"].get<std::vector<double>>();
  if (c.contains("num_bins") && !c["num_bins"].is_null())
    o.num_bins = c["num_bins"].get<int64_t>();
  o.epsilon = c.value("epsilon", 0.01);
  o.output_mode = c.value("output_mode", std::string("int"));
  o.sparse = c.value("sparse", false);
  // After adapt() both are set; Keras builds with num_bins and restores the boundaries.
  std::optional<std::vector<double>> bounds;
  if (o.bin_boundaries && o.num_bins) bounds = std::exchange(o.bin_boundaries, std::nullopt);
  auto layer = std::make_shared<DiscretizationLayer>(o);
  if (bounds) layer->options_.bin_boundaries = bounds;
  return layer;
}

LayerPtr<DiscretizationLayer> Discretization(DiscretizationOptions options) {
  return make_layer<DiscretizationLayer>(std::move(options));
}

}  // namespace keras::layers
