// keras.ops control flow against the Python loops and NumPy results of
// tools/golden/control_flow.py. Each op name there is one control-flow op applied with one
// fixed function, mapped to the same function here.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

// The function an "assoc" case scans with.
std::function<Tensor(const Tensor&, const Tensor&)> binary_fn(const std::string& name) {
  if (name == "add") return [](const Tensor& a, const Tensor& b) { return ops::add(a, b); };
  if (name == "multiply") return [](const Tensor& a, const Tensor& b) { return a * b; };
  if (name == "maximum") return [](const Tensor& a, const Tensor& b) { return ops::maximum(a, b); };
  return [](const Tensor& a, const Tensor& b) { return ops::minimum(a, b); };
}

Tensor outer(const Tensor& v) { return ops::expand_dims(v, 1) * ops::expand_dims(v, 0); }

GoldenOps control_flow_ops() {
  GoldenOps m;
  auto cumsum = [](const TensorList& in, bool reverse, std::optional<int64_t> length) {
    Tensor init = ops::zeros({in[0].shape()[1]}, in[0].dtype());
    auto [carry, ys] = ops::scan(
        [](const Tensor& c, const Tensor& x) { return ops::ScanStep{c + x, c + x}; }, init, in[0],
        length, reverse);
    return TensorList{carry, ys};
  };
  m["scan_cumsum"] = [cumsum](const TensorList& in, const json& kw) {
    return cumsum(in, kw["reverse"].get<bool>(), std::nullopt);
  };
  m["scan_cumsum_length"] = [cumsum](const TensorList& in, const json& kw) {
    return cumsum(in, false, kw["length"].get<int64_t>());
  };
  m["scan_cumprod"] = [](const TensorList& in, const json&) {
    auto [carry, ys] = ops::scan(
        [](const Tensor& c, const Tensor& x) { return ops::ScanStep{c * x, c * x}; },
        ops::ones({in[0].shape()[1]}), in[0]);
    return TensorList{carry, ys};
  };
  m["scan_recurrence"] = [](const TensorList& in, const json& kw) {
    auto [carry, ys] = ops::scan(
        [](const TensorList& h, const TensorList& ax) {
          Tensor next = ax[0] * h[0] + ax[1];
          return ops::ScanStepList{{next}, {next}};
        },
        {in[2]}, {in[0], in[1]}, std::nullopt, kw["reverse"].get<bool>());
    return TensorList{carry[0], ys[0]};
  };
  m["scan_length"] = [](const TensorList& in, const json& kw) {
    auto [carry, ys] = ops::scan(
        [](const Tensor& c, const Tensor& x) {
          EXPECT_FALSE(x.defined());
          return ops::ScanStep{c * 2.0, c};
        },
        in[0], Tensor(), kw["length"].get<int64_t>());
    return TensorList{carry, ys};
  };
  m["assoc"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::associative_scan(binary_fn(kw["fn"].get<std::string>()), in[0],
                                            kw["reverse"].get<bool>(), kw["axis"].get<int>())};
  };
  m["assoc_matmul"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::associative_scan(
        [](const Tensor& a, const Tensor& b) { return ops::matmul(a, b); }, in[0],
        kw["reverse"].get<bool>())};
  };
  m["assoc_affine"] = [](const TensorList& in, const json&) {
    return ops::associative_scan(
        [](const TensorList& first, const TensorList& second) {
          return TensorList{first[0] * second[0], second[0] * first[1] + second[1]};
        },
        in);
  };
  m["fori_power"] = [](const TensorList& in, const json& kw) {
    Tensor x = in[0];
    return TensorList{ops::fori_loop(0, kw["n"].get<int64_t>(),
                                     [&](int64_t, const Tensor& acc) { return acc * x; },
                                     ops::ones_like(x))};
  };
  m["fori_index_sum"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::fori_loop(kw["lower"].get<int64_t>(), kw["upper"].get<int64_t>(),
                                     [](int64_t i, const Tensor& s) { return s + i; }, in[0])};
  };
  m["while_newton"] = [](const TensorList& in, const json& kw) {
    Tensor a = in[0];
    const double tol = kw["tol"].get<double>();
    return ops::while_loop(
        [&](const TensorList& v) {
          return ops::greater_equal(ops::max(ops::abs(v[0] * v[0] - a)), tol);
        },
        [&](const TensorList& v) {
          return TensorList{(v[0] + a / v[0]) * 0.5, v[1] + 1};
        },
        {a, 0}, kw["max_iter"].get<int64_t>());
  };
  m["map_outer"] = [](const TensorList& in, const json&) {
    return TensorList{ops::map(outer, in[0])};
  };
  m["map_row_sum"] = [](const TensorList& in, const json&) {
    return TensorList{ops::map([](const Tensor& x) { return ops::sum(x); }, in[0])};
  };
  m["vmap_outer"] = [](const TensorList& in, const json&) {
    return TensorList{ops::vectorized_map(outer, in[0])};
  };
  m["vmap_pair"] = [](const TensorList& in, const json&) {
    return ops::vectorized_map(
        [](const TensorList& e) {
          return TensorList{e[0] * e[1], ops::sum(e[0]) + ops::sum(e[1])};
        },
        in);
  };
  auto branches = std::vector<std::function<Tensor(const TensorList&)>>{
      [](const TensorList& o) { return o[0] + 1.0; },
      [](const TensorList& o) { return o[0] * 2.0; },
      [](const TensorList& o) { return -o[0]; }};
  m["switch"] = [branches](const TensorList& in, const json& kw) {
    return TensorList{ops::switch_(kw["index"].get<int>(), branches, {in[0]})};
  };
  m["switch_tensor_index"] = [branches](const TensorList& in, const json&) {
    return TensorList{ops::switch_(in[0], branches, {in[1]})};
  };
  m["cond"] = [](const TensorList& in, const json&) {
    Tensor x = in[1];
    return TensorList{ops::cond(in[0], [&] { return x * 2.0; }, [&] { return x - 1.0; })};
  };
  return m;
}

TEST(ControlFlowGolden, MatchesPythonLoops) { test::run_golden("control_flow", control_flow_ops()); }

}  // namespace
}  // namespace keras
