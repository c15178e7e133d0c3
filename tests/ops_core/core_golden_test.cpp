// The engine's first ops against NumPy (tools/golden/numpy_core.py).

#include <gtest/gtest.h>

#include "golden.h"
#include "golden_args.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // the fixture helpers

using test::GoldenOps;
using test::json;

std::optional<int64_t> opt(const json& j) {
  return j.is_null() ? std::nullopt : std::optional<int64_t>(j.get<int64_t>());
}

template <Tensor (*F)(const Tensor&, const ops::Axes&, bool)>
test::GoldenFn reduction() {
  return [](const TensorList& in, const json& kw) {
    return TensorList{F(in[0], axes_of(kw), kw.value("keepdims", false))};
  };
}

GoldenOps core_ops() {
  GoldenOps m;
  add_view_ops(m);
  m["add"] = binary<ops::add>();
  m["subtract"] = binary<ops::subtract>();
  m["multiply"] = binary<ops::multiply>();
  m["divide"] = binary<ops::divide>();
  m["power"] = binary<ops::power>();
  m["maximum"] = binary<ops::maximum>();
  m["minimum"] = binary<ops::minimum>();
  m["add_scalar"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::add(in[0], Tensor(scalar_of(kw["scalar"])))};
  };
  m["multiply_scalar"] = [](const TensorList& in, const json& kw) {
    return TensorList{in[0] * Tensor(scalar_of(kw["scalar"]))};
  };
  m["negative"] = unary<ops::negative>();
  m["absolute"] = unary<ops::absolute>();
  m["square"] = unary<ops::square>();
  m["sign"] = unary<ops::sign>();
  m["sqrt"] = unary<ops::sqrt>();
  m["exp"] = unary<ops::exp>();
  m["log"] = unary<ops::log>();
  m["tanh"] = unary<ops::tanh>();
  m["equal"] = binary<ops::equal>();
  m["not_equal"] = binary<ops::not_equal>();
  m["less"] = binary<ops::less>();
  m["less_equal"] = binary<ops::less_equal>();
  m["greater"] = binary<ops::greater>();
  m["greater_equal"] = binary<ops::greater_equal>();
  m["logical_not"] = unary<ops::logical_not>();
  m["where"] = [](const TensorList& in, const json&) {
    return TensorList{ops::where(in[0], in[1], in[2])};
  };
  m["sum"] = reduction<ops::sum>();
  m["mean"] = reduction<ops::mean>();
  m["max"] = reduction<ops::max>();
  m["min"] = reduction<ops::min>();
  m["reshape_of_transpose"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::reshape(ops::transpose(in[0], ints(kw["axes"])), shape_of(kw["shape"]))};
  };
  m["slice"] = [](const TensorList& in, const json& kw) {
    const json& s = kw["slices"];
    std::vector<Slice> slices;
    for (const json& e : s) slices.emplace_back(opt(e[0]), opt(e[1]), opt(e[2]));
    // Tensor::slice takes a braced list; build it for up to two axes (all these cases need).
    if (slices.size() == 1) return TensorList{in[0].slice({slices[0]})};
    return TensorList{in[0].slice({slices[0], slices[1]})};
  };
  m["index"] = [](const TensorList& in, const json& kw) {
    return TensorList{in[0][kw["index"].get<int64_t>()]};
  };
  m["matmul"] = binary<ops::matmul>();
  m["matmul_tt"] = [](const TensorList& in, const json&) {
    return TensorList{ops::matmul(ops::transpose(in[0]), ops::transpose(in[1]))};
  };
  m["cast"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::cast(in[0], dtype_from_string(kw["dtype"].get<std::string>()))};
  };
  m["arange"] = [](const TensorList&, const json& kw) {
    return TensorList{ops::arange(scalar_of(kw["start"]), scalar_of(kw["stop"]), scalar_of(kw["step"]))};
  };
  auto dtype_kw = [](const json& kw) {
    return kw.contains("dtype") ? std::optional<DType>(dtype_from_string(kw["dtype"].get<std::string>()))
                                : std::nullopt;
  };
  m["zeros"] = [dtype_kw](const TensorList&, const json& kw) {
    return TensorList{ops::zeros(shape_of(kw["shape"]), dtype_kw(kw))};
  };
  m["ones"] = [dtype_kw](const TensorList&, const json& kw) {
    return TensorList{ops::ones(shape_of(kw["shape"]), dtype_kw(kw))};
  };
  m["full"] = [dtype_kw](const TensorList&, const json& kw) {
    return TensorList{ops::full(shape_of(kw["shape"]), scalar_of(kw["value"]), dtype_kw(kw))};
  };
  return m;
}

TEST(CoreOpsGolden, MatchNumpy) { test::run_golden("numpy_core", core_ops()); }

// The same cases, and Keras's own edge cases (empty, 0-d, NaN/inf, integer wrap-around), with
// the outputs of real Keras 3.15 (tools/keras_oracle/ops.py).
TEST(CoreOpsOracle, MatchKeras) { test::run_oracle("ops_numpy_core", core_ops()); }
TEST(CoreOpsOracle, EdgeCasesMatchKeras) { test::run_oracle("ops_edge_cases", core_ops()); }

}  // namespace
}  // namespace keras
