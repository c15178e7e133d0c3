// Reductions, statistics, cumulative ops, sorting/searching, sets and the keras.ops.math
// reductions against NumPy (tools/golden/numpy_reductions.py).

#include <gtest/gtest.h>

#include "golden.h"
#include "golden_args.h"
#include "keras/keras.h"
#include "ops/numpy/reduce_common.h"

namespace keras {
namespace {

using namespace test;  // the fixture helpers

using test::GoldenOps;
using test::json;

// A single optional axis: absent -> `absent`, null -> nullopt.
std::optional<int> axis_of(const json& kw, std::optional<int> absent) {
  if (!kw.contains("axis")) return absent;
  if (kw["axis"].is_null()) return std::nullopt;
  return kw["axis"].get<int>();
}

bool keepdims_of(const json& kw) {
  return kw.value("keepdims", false);
}

using Reduction = Tensor (*)(const Tensor&, const ops::Axes&, bool);
using Cumulative = Tensor (*)(const Tensor&, std::optional<int>, std::optional<DType>);
using ArgReduction = Tensor (*)(const Tensor&, std::optional<int>, bool);
using Quantile = Tensor (*)(const Tensor&, const Tensor&, const ops::Axes&, const std::string&,
                            bool);
using Segment = Tensor (*)(const Tensor&, const Tensor&, std::optional<int64_t>, bool);

// `f` applied to in[0], or to in[0] transposed by kwargs "axes" (a strided input).
template <typename F>
void add_with_transpose(GoldenOps& m, const std::string& name, F f) {
  m[name] = [f](const TensorList& in, const json& kw) { return TensorList{f(in[0], kw)}; };
  m[name + "_of_transpose"] = [f](const TensorList& in, const json& kw) {
    return TensorList{f(ops::transpose(in[0], kw["axes"].get<std::vector<int>>()), kw)};
  };
}

GoldenOps reduction_ops() {
  GoldenOps m;
  const std::pair<const char*, Reduction> reductions[] = {
      {"sum", ops::sum},
      {"mean", ops::mean},
      {"max", ops::max},
      {"min", ops::min},
      {"amax", ops::amax},
      {"amin", ops::amin},
      {"ptp", ops::ptp},
      {"all", ops::all},
      {"any", ops::any},
      {"var", ops::var},
      {"std", ops::std},
      {"median", ops::median},
      {"nanmedian", ops::nanmedian},
      {"nansum", ops::nansum},
      {"nanprod", ops::nanprod},
      {"nanmean", ops::nanmean},
      {"nanmax", ops::nanmax},
      {"nanmin", ops::nanmin},
      {"nanvar", ops::nanvar},
      {"nanstd", ops::nanstd},
      {"logsumexp", ops::logsumexp},
  };
  for (auto [name, fn] : reductions)
    add_with_transpose(m, name, [fn](const Tensor& x, const json& kw) {
      return fn(x, axes_of(kw), keepdims_of(kw));
    });
  add_with_transpose(m, "prod", [](const Tensor& x, const json& kw) {
    return ops::prod(x, axes_of(kw), keepdims_of(kw), dtype_arg(kw));
  });
  m["max_initial"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::max(in[0], axes_of(kw), keepdims_of(kw), scalar_of(kw["initial"]))};
  };
  m["min_initial"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::min(in[0], axes_of(kw), keepdims_of(kw), scalar_of(kw["initial"]))};
  };
  m["count_nonzero"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::count_nonzero(in[0], axes_of(kw))};
  };
  const std::pair<const char*, ArgReduction> args[] = {{"argmax", ops::argmax},
                                                       {"argmin", ops::argmin},
                                                       {"nanargmax", ops::nanargmax},
                                                       {"nanargmin", ops::nanargmin}};
  for (auto [name, fn] : args)
    m[name] = [fn](const TensorList& in, const json& kw) {
      return TensorList{fn(in[0], axis_of(kw, std::nullopt), keepdims_of(kw))};
    };
  const std::pair<const char*, Cumulative> scans[] = {{"cumsum", ops::cumsum},
                                                      {"cumprod", ops::cumprod},
                                                      {"nancumsum", ops::nancumsum},
                                                      {"nancumprod", ops::nancumprod}};
  for (auto [name, fn] : scans)
    add_with_transpose(m, name, [fn](const Tensor& x, const json& kw) {
      return fn(x, axis_of(kw, std::nullopt), dtype_arg(kw));
    });
  m["trapezoid"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::trapezoid(in[0], Tensor(), kw.value("dx", 1.0), kw.value("axis", -1))};
  };
  m["trapezoid_x"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::trapezoid(in[0], in[1], 1.0, kw.value("axis", -1))};
  };
  m["average"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::average(in[0], axes_of(kw))};
  };
  m["average_w"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::average(in[0], axes_of(kw), in[1])};
  };
  m["corrcoef"] = [](const TensorList& in, const json&) {
    return TensorList{ops::corrcoef(in[0])};
  };
  const std::pair<const char*, Quantile> quantiles[] = {{"quantile", ops::quantile},
                                                        {"nanquantile", ops::nanquantile},
                                                        {"percentile", ops::percentile},
                                                        {"nanpercentile", ops::nanpercentile}};
  for (auto [name, fn] : quantiles)
    m[name] = [fn](const TensorList& in, const json& kw) {
      return TensorList{fn(in[0], in[1], axes_of(kw), kw.value("method", std::string("linear")),
                           keepdims_of(kw))};
    };
  return m;
}

// argpartition's result is any valid partition: check it is one by putting the values in
// canonical order (sorted before kth, the kth value, sorted after), which must equal a sort.
Tensor canonical_partition(const Tensor& x, int64_t kth, std::optional<int> axis) {
  Tensor idx = ops::argpartition(x, kth, axis);
  EXPECT_EQ(idx.dtype(), DType::Int32);
  Tensor src = axis ? x : ops::reshape(x, {x.size()});
  const int a = axis ? (*axis < 0 ? *axis + x.ndim() : *axis) : 0;
  const int64_t n = src.shape()[a], k = kth < 0 ? kth + n : kth;
  Tensor v = ops::detail::gather_along(src, idx, a);
  return ops::concatenate(
      {ops::sort(ops::detail::slice_axis(v, a, 0, k), a), ops::detail::slice_axis(v, a, k, k + 1),
       ops::sort(ops::detail::slice_axis(v, a, k + 1, n), a)},
      a);
}

GoldenOps sorting_ops() {
  GoldenOps m;
  m["sort"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::sort(in[0], axis_of(kw, -1))};
  };
  m["argsort"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::argsort(in[0], axis_of(kw, -1))};
  };
  m["argpartition"] = [](const TensorList& in, const json& kw) {
    return TensorList{canonical_partition(in[0], kw["kth"].get<int64_t>(), axis_of(kw, -1))};
  };
  m["searchsorted"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::searchsorted(in[0], in[1], kw.value("side", std::string("left")))};
  };
  m["digitize"] = [](const TensorList& in, const json&) {
    return TensorList{ops::digitize(in[0], in[1])};
  };
  m["isin"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::isin(in[0], in[1], false, kw.value("invert", false))};
  };
  m["nonzero"] = [](const TensorList& in, const json&) { return ops::nonzero(in[0]); };
  m["unique"] = [](const TensorList& in, const json& kw) {
    ops::UniqueOptions o{.return_index = kw.value("return_index", false),
                         .return_inverse = kw.value("return_inverse", false),
                         .return_counts = kw.value("return_counts", false),
                         .axis = axis_of(kw, std::nullopt)};
    if (kw.contains("size")) o.size = kw["size"].get<int64_t>();
    if (kw.contains("fill_value")) o.fill_value = scalar_of(kw["fill_value"]);
    ops::UniqueResult r = ops::unique(in[0], o);
    TensorList out{r.values};
    for (const Tensor& t : {r.index, r.inverse, r.counts})
      if (t.defined()) out.push_back(t);
    return out;
  };
  m["histogram"] = [](const TensorList& in, const json& kw) {
    std::optional<std::pair<double, double>> range;
    if (kw.contains("range"))
      range = std::pair(kw["range"][0].get<double>(), kw["range"][1].get<double>());
    auto [counts, edges] = ops::histogram(in[0], kw.value("bins", int64_t{10}), range);
    return TensorList{counts, edges};
  };
  m["bincount"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::bincount(in[0], Tensor(), kw.value("minlength", int64_t{0}))};
  };
  m["bincount_w"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::bincount(in[0], in[1], kw.value("minlength", int64_t{0}))};
  };
  m["top_k"] = [](const TensorList& in, const json& kw) {
    auto [values, indices] = ops::top_k(in[0], kw["k"].get<int64_t>());
    return TensorList{values, indices};
  };
  m["in_top_k"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::in_top_k(in[0], in[1], kw["k"].get<int64_t>())};
  };
  const std::pair<const char*, Segment> segments[] = {{"segment_sum", ops::segment_sum},
                                                      {"segment_max", ops::segment_max},
                                                      {"segment_min", ops::segment_min},
                                                      {"segment_prod", ops::segment_prod}};
  for (auto [name, fn] : segments)
    m[name] = [fn](const TensorList& in, const json& kw) {
      std::optional<int64_t> n;
      if (kw.contains("num_segments")) n = kw["num_segments"].get<int64_t>();
      return TensorList{fn(in[0], in[1], n, kw.value("sorted", false))};
    };
  return m;
}

TEST(ReductionsGolden, MatchNumpy) {
  test::run_golden("numpy_reductions", reduction_ops());
}

TEST(ReductionsGolden, SortingMatchNumpy) {
  test::run_golden("numpy_reductions_sorting", sorting_ops());
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py).
TEST(ReductionsOracle, MatchKeras) { test::run_oracle("ops_numpy_reductions", reduction_ops()); }

TEST(ReductionsOracle, SortingMatchKeras) {
  test::run_oracle("ops_numpy_reductions_sorting", sorting_ops());
}

}  // namespace
}  // namespace keras
