// Conformance cases for the primitives: elementwise, reductions, scans, sorting, indexing,
// matmul and linear algebra. Shapes avoid multiples of 8 so vectorized tails run too.

#include <cmath>

#include "keras/ops/ops.h"
#include "testing/conformance/cases.h"

namespace keras::testing::conformance {
namespace {

using Fn1 = Tensor (*)(const Tensor&);
using Fn2 = Tensor (*)(const Tensor&, const Tensor&);
using Outputs = std::vector<Tensor>;

const Shape kMatrix{64, 37};

Case unary(const std::string& name, Fn1 f, double lo, double hi, bool differentiable = true) {
  return {"elementwise", name, {{kMatrix, lo, hi}},
          [f](const Outputs& in) { return Outputs{f(in[0])}; }, 1e-6, differentiable};
}

Case binary(const std::string& name, Fn2 f, double lo, double hi, bool differentiable = true) {
  return {"elementwise", name, {{kMatrix, lo, hi}, {kMatrix, lo, hi}},
          [f](const Outputs& in) { return Outputs{f(in[0], in[1])}; }, 1e-6, differentiable};
}

Case reduction(const std::string& name, std::function<Tensor(const Tensor&)> f,
               bool differentiable = true) {
  return {"reductions", name, {{Shape{17, 33, 9}, -1, 1}},
          [f](const Outputs& in) { return Outputs{f(in[0])}; }, 1e-6, differentiable};
}

// A well-conditioned batch of square matrices: x + n * I.
Tensor well_conditioned(const Tensor& x) {
  const int64_t n = x.shape()[x.rank() - 1];
  return x + ops::eye(n, std::nullopt, 0, x.dtype()) * static_cast<double>(n);
}

void add_elementwise(std::vector<Case>& cases) {
  cases.push_back(unary("negative", ops::negative, -3, 3));
  cases.push_back(unary("abs", ops::abs, -3, 3));
  cases.push_back(unary("sign", ops::sign, -3, 3, false));
  cases.push_back(unary("square", ops::square, -3, 3));
  cases.push_back(unary("sqrt", ops::sqrt, 0.01, 9));
  cases.push_back(unary("rsqrt", ops::rsqrt, 0.01, 9));
  cases.push_back(unary("cbrt", ops::cbrt, -9, 9));
  cases.push_back(unary("reciprocal", ops::reciprocal, 0.1, 3));
  cases.push_back(unary("exp", ops::exp, -10, 10));
  cases.push_back(unary("exp2", ops::exp2, -10, 10));
  cases.push_back(unary("expm1", ops::expm1, -3, 3));
  cases.push_back(unary("log", ops::log, 0.01, 100));
  cases.push_back(unary("log2", ops::log2, 0.01, 100));
  cases.push_back(unary("log10", ops::log10, 0.01, 100));
  cases.push_back(unary("log1p", ops::log1p, -0.9, 10));
  cases.push_back(unary("sin", ops::sin, -6, 6));
  cases.push_back(unary("cos", ops::cos, -6, 6));
  cases.push_back(unary("tan", ops::tan, -1.4, 1.4));
  cases.push_back(unary("arcsin", ops::arcsin, -0.99, 0.99));
  cases.push_back(unary("arccos", ops::arccos, -0.99, 0.99));
  cases.push_back(unary("arctan", ops::arctan, -5, 5));
  cases.push_back(unary("sinh", ops::sinh, -4, 4));
  cases.push_back(unary("cosh", ops::cosh, -4, 4));
  cases.push_back(unary("tanh", ops::tanh, -4, 4));
  cases.push_back(unary("arcsinh", ops::arcsinh, -5, 5));
  cases.push_back(unary("arccosh", ops::arccosh, 1.01, 5));
  cases.push_back(unary("arctanh", ops::arctanh, -0.99, 0.99));
  cases.push_back(unary("floor", ops::floor, -5, 5, false));
  cases.push_back(unary("ceil", ops::ceil, -5, 5, false));
  cases.push_back(unary("round", [](const Tensor& x) { return ops::round(x); }, -5, 5, false));
  cases.push_back(unary("trunc", ops::trunc, -5, 5, false));
  cases.push_back(unary("erf", ops::erf, -3, 3));
  cases.push_back(unary("erfc", ops::erfc, -3, 3));
  cases.push_back(unary("erfinv", ops::erfinv, -0.99, 0.99));
  cases.push_back(unary("i0", ops::i0, -8, 8, false));
  cases.push_back(unary("relu", ops::relu, -3, 3));
  cases.push_back(unary("sigmoid", ops::sigmoid, -8, 8));
  cases.push_back(unary("softplus", ops::softplus, -8, 8));
  cases.push_back(unary("silu", ops::silu, -8, 8));
  cases.push_back(unary("gelu", [](const Tensor& x) { return ops::gelu(x, false); }, -4, 4));
  cases.push_back(unary("gelu tanh", [](const Tensor& x) { return ops::gelu(x, true); }, -4, 4));
  cases.push_back(unary("log_sigmoid", ops::log_sigmoid, -8, 8));
  cases.push_back(unary("elu", [](const Tensor& x) { return ops::elu(x); }, -3, 3));
  cases.push_back(unary("leaky_relu", [](const Tensor& x) { return ops::leaky_relu(x); }, -3, 3));
  cases.push_back(unary("clip", [](const Tensor& x) { return ops::clip(x, -0.5, 0.5); }, -1, 1));
  cases.push_back(unary("power 2.5", [](const Tensor& x) { return ops::power(x, Tensor(2.5)); }, 0.1, 3));
  cases.push_back(unary("isfinite", ops::isfinite, -1, 1, false));
  cases.push_back(unary("logical_not", ops::logical_not, -1, 1, false));
  cases.push_back(unary("signbit", ops::signbit, -1, 1, false));
  cases.push_back(binary("add", ops::add, -3, 3));
  cases.push_back(binary("subtract", ops::subtract, -3, 3));
  cases.push_back(binary("multiply", ops::multiply, -3, 3));
  cases.push_back(binary("divide", ops::divide, 0.5, 3));
  cases.push_back(binary("floor_divide", ops::floor_divide, -3, 3, false));
  cases.push_back(binary("mod", ops::mod, -3, 3, false));
  cases.push_back(binary("fmod", ops::fmod, -3, 3, false));
  cases.push_back(binary("power", ops::power, 0.1, 3));
  cases.push_back(binary("maximum", ops::maximum, -3, 3));
  cases.push_back(binary("minimum", ops::minimum, -3, 3));
  cases.push_back(binary("arctan2", ops::arctan2, -3, 3));
  cases.push_back(binary("hypot", ops::hypot, -3, 3));
  cases.push_back(binary("logaddexp", ops::logaddexp, -5, 5));
  cases.push_back(binary("nextafter", ops::nextafter, -3, 3, false));
  cases.push_back(binary("heaviside", ops::heaviside, -3, 3, false));
  cases.push_back(binary("greater", ops::greater, -1, 1, false));
  cases.push_back(binary("equal", [](const Tensor& a, const Tensor& b) {
    return ops::equal(ops::round(a), ops::round(b)); }, -2, 2, false));
  cases.push_back({"elementwise", "add broadcast", {{Shape{8, 1, 5}}, {Shape{1, 7, 5}}},
                   [](const Outputs& in) { return Outputs{in[0] + in[1]}; }, 1e-6, true});
  cases.push_back({"elementwise", "exp of a reversed view", {{kMatrix, -3, 3}},
                   [](const Outputs& in) { return Outputs{ops::exp(ops::flip(in[0], 1))}; },
                   1e-6, true});
  cases.push_back({"elementwise", "where", {{kMatrix}, {kMatrix}, {kMatrix}},
                   [](const Outputs& in) { return Outputs{ops::where(in[0] > 0, in[1], in[2])}; },
                   1e-6, true});
  cases.push_back({"elementwise", "int32 floor_divide and mod", {{kMatrix, -50, 50, DType::Int32},
                   {kMatrix, 1, 9, DType::Int32}}, [](const Outputs& in) {
                     return Outputs{ops::floor_divide(in[0], in[1]), ops::mod(in[0], in[1])}; }});
  cases.push_back({"elementwise", "float16 exp", {{kMatrix, -3, 3, DType::Float16}},
                   [](const Outputs& in) { return Outputs{ops::exp(in[0])}; }, 1e-3});
  cases.push_back({"elementwise", "float64 tanh", {{kMatrix, -3, 3, DType::Float64}},
                   [](const Outputs& in) { return Outputs{ops::tanh(in[0])}; }, 1e-14, true});
}

void add_reductions(std::vector<Case>& cases) {
  cases.push_back(reduction("sum", [](const Tensor& x) { return ops::sum(x); }));
  cases.push_back(reduction("sum axis 1", [](const Tensor& x) { return ops::sum(x, 1); }));
  cases.push_back(reduction("mean axes 0,2", [](const Tensor& x) { return ops::mean(x, {0, 2}); }));
  cases.push_back(reduction("prod axis 2", [](const Tensor& x) { return ops::prod(x, 2); }));
  cases.push_back(reduction("max axis 0", [](const Tensor& x) { return ops::max(x, 0); }));
  cases.push_back(reduction("min axis 2", [](const Tensor& x) { return ops::min(x, 2); }));
  cases.push_back(reduction("any axis 1", [](const Tensor& x) { return ops::any(x > 0.9, 1); }, false));
  cases.push_back(reduction("all axis 1", [](const Tensor& x) { return ops::all(x > -0.9, 1); }, false));
  cases.push_back(reduction("var axis 1", [](const Tensor& x) { return ops::var(x, 1); }));
  cases.push_back(reduction("logsumexp axis 2", [](const Tensor& x) { return ops::logsumexp(x, 2); }));
  cases.push_back(reduction("argmax axis 1", [](const Tensor& x) { return ops::argmax(x, 1); }, false));
  cases.push_back(reduction("argmin axis 2", [](const Tensor& x) { return ops::argmin(x, 2); }, false));
  cases.push_back(reduction("cumsum axis 1", [](const Tensor& x) { return ops::cumsum(x, 1); }));
  cases.push_back(reduction("cumprod axis 2", [](const Tensor& x) { return ops::cumprod(x, 2); }));
  cases.push_back(reduction("sort", [](const Tensor& x) { return ops::sort(x); }));
  cases.push_back(reduction("argsort", [](const Tensor& x) { return ops::argsort(x); }, false));
  cases.push_back(reduction("top_k 4", [](const Tensor& x) { return ops::top_k(x, 4).first; }));
  cases.push_back(reduction("int32 sum", [](const Tensor& x) {
    return ops::sum(ops::cast(x * 100.0, DType::Int32), 1); }, false));
}

void add_indexing(std::vector<Case>& cases) {
  cases.push_back({"indexing", "take_along_axis", {{Shape{9, 31}}, {Shape{9, 12}, 0, 31, DType::Int32}},
                   [](const Outputs& in) { return Outputs{ops::take_along_axis(in[0], in[1], 1)}; },
                   1e-6, true});
  cases.push_back({"indexing", "take", {{Shape{40, 6}}, {Shape{25}, 0, 40, DType::Int64}},
                   [](const Outputs& in) { return Outputs{ops::take(in[0], in[1], 0)}; }, 1e-6, true});
  cases.push_back({"indexing", "scatter (add)", {{Shape{30, 2}, 0, 10, DType::Int32}, {Shape{30}}},
                   [](const Outputs& in) { return Outputs{ops::scatter(in[0], in[1], {10, 10})}; },
                   1e-6});
  cases.push_back({"indexing", "segment_max", {{Shape{50, 4}}, {Shape{50}, 0, 7, DType::Int32}},
                   [](const Outputs& in) {
                     return Outputs{ops::segment_max(in[0], ops::sort(in[1]), 7)}; }, 1e-6});
  cases.push_back({"indexing", "slice_update", {{Shape{12, 9}}, {Shape{4, 3}}},
                   [](const Outputs& in) { return Outputs{ops::slice_update(in[0], {3, 2}, in[1])}; },
                   1e-6, true});
}

void add_matmul_and_linalg(std::vector<Case>& cases) {
  cases.push_back({"matmul", "matmul 67x45 @ 45x53", {{Shape{67, 45}}, {Shape{45, 53}}},
                   [](const Outputs& in) { return Outputs{ops::matmul(in[0], in[1])}; }, 1e-5, true});
  // Relative to the largest output / 1000 (difference()), a 14-term float32 sum that cancels
  // to near that floor keeps a few 1e-5 of summation-order difference: LibTorch 2.15 on an AMD
  // Zen 4 differs from OpenBLAS by 1.4e-5 here.
  cases.push_back({"matmul",
                   "batched matmul broadcast",
                   {{Shape{3, 1, 9, 14}}, {Shape{5, 14, 6}}},
                   [](const Outputs& in) { return Outputs{ops::matmul(in[0], in[1])}; },
                   5e-5,
                   true});
  cases.push_back({"matmul", "float64 matmul", {{Shape{33, 21}, -1, 1, DType::Float64},
                   {Shape{21, 17}, -1, 1, DType::Float64}},
                   [](const Outputs& in) { return Outputs{ops::matmul(in[0], in[1])}; }, 1e-13, true});
  cases.push_back({"matmul", "int32 matmul", {{Shape{7, 5}, -9, 9, DType::Int32},
                   {Shape{5, 4}, -9, 9, DType::Int32}},
                   [](const Outputs& in) { return Outputs{ops::matmul(in[0], in[1])}; }});
  cases.push_back({"matmul", "einsum bij,bjk->bik", {{Shape{4, 6, 7}}, {Shape{4, 7, 3}}},
                   [](const Outputs& in) { return Outputs{ops::einsum("bij,bjk->bik", in[0], in[1])}; },
                   1e-5, true});
  const InputSpec square{Shape{4, 6, 6}, -1, 1, DType::Float64};
  cases.push_back({"linalg", "inv", {square},
                   [](const Outputs& in) { return Outputs{ops::inv(well_conditioned(in[0]))}; },
                   1e-12, true});
  cases.push_back({"linalg", "solve", {square, {Shape{4, 6, 2}, -1, 1, DType::Float64}},
                   [](const Outputs& in) { return Outputs{ops::solve(well_conditioned(in[0]), in[1])}; },
                   1e-12, true});
  cases.push_back({"linalg", "cholesky", {square}, [](const Outputs& in) {
                     Tensor a = well_conditioned(in[0]);
                     return Outputs{ops::cholesky(ops::matmul(a, ops::swapaxes(a, -1, -2)))}; },
                   1e-12, true});
  cases.push_back({"linalg", "det", {square},
                   [](const Outputs& in) { return Outputs{ops::det(well_conditioned(in[0]))}; },
                   1e-12, true});
  cases.push_back({"linalg", "solve_triangular", {square, {Shape{4, 6, 3}, -1, 1, DType::Float64}},
                   [](const Outputs& in) {
                     return Outputs{ops::solve_triangular(ops::tril(well_conditioned(in[0])), in[1], true)}; },
                   1e-12, true});
  cases.push_back({"linalg", "qr (|R| diagonal)", {square}, [](const Outputs& in) {
                     // Signs of QR factors are a LAPACK convention; compare |R|.
                     return Outputs{ops::abs(ops::qr(in[0]).second)}; }, 1e-12});
  cases.push_back({"linalg", "svd values", {square}, [](const Outputs& in) {
                     return Outputs{std::get<1>(ops::svd(in[0], false, false))}; }, 1e-12});
  cases.push_back({"linalg", "eigh values", {square}, [](const Outputs& in) {
                     Tensor s = in[0] + ops::swapaxes(in[0], -1, -2);
                     return Outputs{ops::eigh(s).first}; }, 1e-12});
}

}  // namespace

std::vector<Case> op_cases() {
  std::vector<Case> cases;
  add_elementwise(cases);
  add_reductions(cases);
  add_indexing(cases);
  add_matmul_and_linalg(cases);
  return cases;
}

}  // namespace keras::testing::conformance
