// fill, arange, random, copy, unary, binary and where, mapped to ATen.
//
// Where ATen's semantics differ from NumPy's (which the contract follows), the difference is
// fixed here: integer division and remainder by zero give 0 instead of raising, sign(NaN) is
// NaN, integer powers with negative exponents and shifts past the width have NumPy's values.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "aten_views.h"
#include "keras/core/errors.h"
#include "keras/random/philox.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

using backend::BinaryOp;
using backend::UnaryOp;

bool is_integral(const at::Tensor& t) {
  return at::isIntegralType(t.scalar_type(), /*includeBool=*/false);
}

// ATen's vectorized float32 erf (and so GELU) and tanh are a few ulps off the correctly
// rounded value the cpu backend's libm gives: those compute in float64 and round once, so the
// backends agree to an ulp (and tanh's gradient 1 - y^2, which magnifies an ulp of y near 1,
// agrees too).
template <typename F>
at::Tensor in_float64(const at::Tensor& x, F&& f) {
  if (x.scalar_type() != at::kFloat) return f(x);
  return f(x.to(at::kDouble)).to(at::kFloat);
}
template <typename F>
at::Tensor in_float64(const at::Tensor& a, const at::Tensor& b, F&& f) {
  if (a.scalar_type() != at::kFloat) return f(a, b);
  return f(a.to(at::kDouble), b.to(at::kDouble)).to(at::kFloat);
}

// ATen's erfinv loses about 1e-11 in the float64 tails; two Newton steps in float64 (the
// residual through erfc where 1 - |y| is exact), as the cpu backend takes, recover NumPy's
// answer.
at::Tensor refined_erfinv(const at::Tensor& y) {
  at::Tensor a = at::abs(y).to(at::kDouble);
  at::Tensor x = at::erfinv(a);
  at::Tensor inside = at::isfinite(x);
  for (int i = 0; i < 2; ++i) {
    at::Tensor err = at::where(a < 0.5, at::erf(x) - a, (1.0 - a) - at::erfc(x));
    at::Tensor step = err / (1.1283791670955126 * at::exp(-x * x));
    x = at::where(inside, x - step, x);
  }
  return at::copysign(x, y.to(at::kDouble)).to(y.scalar_type());
}

// nextafter on float16/bfloat16 in their own precision: one step of the 16-bit pattern (ATen
// has no 16-bit CPU kernel, and a float32 step rounds back to the same value).
at::Tensor nextafter_16bit(const at::Tensor& a, const at::Tensor& b) {
  at::Tensor x = a.to(at::kFloat), y = b.to(at::kFloat);
  at::Tensor bits = a.view(at::kShort).to(at::kInt);
  at::Tensor away_from_zero = (y > x) == (x > 0);
  at::Tensor stepped = at::where(away_from_zero, bits + 1, bits - 1);
  // From zero: the smallest subnormal with y's sign.
  at::Tensor smallest = at::where(at::signbit(y), at::full_like(bits, 0x8001), at::ones_like(bits));
  stepped = at::where(x == 0, smallest, stepped);
  at::Tensor result = stepped.to(at::kShort).view(a.scalar_type());
  result = at::where(x == y, b, result);
  return at::where(at::isnan(x) | at::isnan(y), x.to(a.scalar_type()) + y.to(a.scalar_type()), result);
}

at::Tensor unary_value(UnaryOp op, const at::Tensor& x, double p0, double p1) {
  switch (op) {
    case UnaryOp::Neg: return at::neg(x);
    case UnaryOp::Abs: return at::abs(x);
    case UnaryOp::Sign: return x.is_floating_point() ? at::where(at::isnan(x), x, at::sign(x))
                                                     : at::sign(x);
    case UnaryOp::Square: return x * x;
    case UnaryOp::Reciprocal: return at::reciprocal(x);
    case UnaryOp::Sqrt: return at::sqrt(x);
    case UnaryOp::Rsqrt: return at::rsqrt(x);
    case UnaryOp::Cbrt: {
      // ATen has no cbrt: the real cube root through pow in float64, rounded once.
      at::Tensor d = x.to(at::kDouble);
      return (at::sign(d) * at::pow(at::abs(d), 1.0 / 3.0)).to(x.scalar_type());
    }
    case UnaryOp::Exp: return at::exp(x);
    case UnaryOp::Exp2: return at::exp2(x);
    case UnaryOp::Expm1: return at::expm1(x);
    case UnaryOp::Log: return at::log(x);
    case UnaryOp::Log2: return at::log2(x);
    case UnaryOp::Log10: return at::log10(x);
    case UnaryOp::Log1p: return at::log1p(x);
    case UnaryOp::Sin: return at::sin(x);
    case UnaryOp::Cos: return at::cos(x);
    case UnaryOp::Tan: return at::tan(x);
    case UnaryOp::Asin: return at::asin(x);
    case UnaryOp::Acos: return at::acos(x);
    case UnaryOp::Atan: return at::atan(x);
    case UnaryOp::Sinh: return at::sinh(x);
    case UnaryOp::Cosh: return at::cosh(x);
    case UnaryOp::Tanh: return in_float64(x, at::tanh);
    case UnaryOp::Asinh: return at::asinh(x);
    case UnaryOp::Acosh: return at::acosh(x);
    case UnaryOp::Atanh: return at::atanh(x);
    case UnaryOp::Floor: return at::floor(x);
    case UnaryOp::Ceil: return at::ceil(x);
    case UnaryOp::Round: return at::round(x);  // half to even, as NumPy
    case UnaryOp::Trunc: return at::trunc(x);
    case UnaryOp::Erf: return in_float64(x, at::erf);
    case UnaryOp::Erfc: return in_float64(x, at::erfc);
    case UnaryOp::Erfinv: return refined_erfinv(x);
    case UnaryOp::Lgamma: return at::lgamma(x);
    case UnaryOp::Digamma: return at::digamma(x);
    case UnaryOp::I0: return at::where(at::isinf(x), at::abs(x), at::i0(x));  // ATen: NaN at inf
    case UnaryOp::Relu: return at::clamp_min(x, 0);  // NaN propagates
    case UnaryOp::Sigmoid: return at::sigmoid(x);
    case UnaryOp::Softplus: {
      // log(1 + exp(x)) exactly (ATen's softplus switches to x above a threshold).
      return at::clamp_min(x, 0) + at::log1p(at::exp(-at::abs(x)));
    }
    case UnaryOp::Silu: return at::silu(x);
    case UnaryOp::Gelu: return in_float64(x, [](const at::Tensor& v) { return at::gelu(v); });
    case UnaryOp::GeluTanh:
      return in_float64(x, [](const at::Tensor& v) { return at::gelu(v, "tanh"); });
    case UnaryOp::LogSigmoid: return at::log_sigmoid(x);
    case UnaryOp::Elu: return at::where(x > 0, x, at::expm1(x) * p0);
    case UnaryOp::LeakyRelu: return at::where(x > 0, x, x * p0);
    case UnaryOp::Clip: {
      // NumPy's clip: max then min, NaN propagating (bounds as x's dtype).
      at::Tensor lo = at::scalar_tensor(p0, x.options()), hi = at::scalar_tensor(p1, x.options());
      return at::minimum(at::maximum(x, lo), hi);
    }
    case UnaryOp::PowScalar: return at::pow(x, p0);
    case UnaryOp::BitwiseNot: return at::bitwise_not(x);
    case UnaryOp::LogicalNot: return at::logical_not(x);
    case UnaryOp::IsNan: return at::isnan(x);
    case UnaryOp::IsInf: return at::isinf(x);
    case UnaryOp::IsFinite: return at::isfinite(x);
    case UnaryOp::IsPosInf: return at::isposinf(x);
    case UnaryOp::IsNegInf: return at::isneginf(x);
    case UnaryOp::SignBit: return at::signbit(x);
    case UnaryOp::kCount: break;
  }
  throw RuntimeError("torch backend: unknown unary op");
}

// Integer division and remainder with NumPy's answers where ATen would raise or trap:
// x / 0 = 0, x % 0 = 0, and (min / -1) wraps.
at::Tensor integer_division(BinaryOp op, const at::Tensor& a, const at::Tensor& b) {
  at::Tensor zero = b == 0, minus_one = b == -1;
  at::Tensor safe_b = at::where(zero | minus_one, at::ones_like(b), b);
  at::Tensor q;
  switch (op) {
    case BinaryOp::Div: q = at::div(a, safe_b, "trunc"); break;
    case BinaryOp::FloorDiv: q = at::div(a, safe_b, "floor"); break;
    case BinaryOp::Mod: q = at::remainder(a, safe_b); break;
    default: q = at::fmod(a, safe_b); break;
  }
  const bool quotient = op == BinaryOp::Div || op == BinaryOp::FloorDiv;
  at::Tensor by_minus_one = quotient ? at::neg(a) : at::zeros_like(a);
  q = at::where(minus_one, by_minus_one, q);
  return at::where(zero, at::zeros_like(q), q);
}

// NumPy's integer power: negative exponents give 0 except for bases 1 and -1.
at::Tensor integer_power(const at::Tensor& a, const at::Tensor& b) {
  at::Tensor negative = b < 0;
  at::Tensor p = at::pow(a, at::where(negative, at::zeros_like(b), b));
  at::Tensor odd = at::remainder(b, 2) != 0;
  at::Tensor special = at::where(a == 1, at::ones_like(a),
                                 at::where(a == -1, at::where(odd, -at::ones_like(a),
                                                              at::ones_like(a)),
                                           at::zeros_like(a)));
  return at::where(negative, special, p);
}

// Shifts by a negative amount or past the width give 0 (or -1 for a negative value shifted
// right), as NumPy does; C++ (and so ATen) leaves them undefined.
at::Tensor integer_shift(bool left, const at::Tensor& a, const at::Tensor& b) {
  const int64_t bits = static_cast<int64_t>(at::elementSize(a.scalar_type())) * 8;
  at::Tensor out_of_range = (b < 0) | (b >= bits);
  at::Tensor safe_b = at::where(out_of_range, at::zeros_like(b), b);
  at::Tensor shifted = left ? at::bitwise_left_shift(a, safe_b) : at::bitwise_right_shift(a, safe_b);
  at::Tensor fallback = left ? at::zeros_like(a) : at::where(a < 0, -at::ones_like(a), at::zeros_like(a));
  return at::where(out_of_range, fallback, shifted);
}

at::Tensor binary_value(BinaryOp op, const at::Tensor& a, const at::Tensor& b) {
  const bool integral = is_integral(a);
  switch (op) {
    case BinaryOp::Add: return a.scalar_type() == at::kBool ? at::logical_or(a, b) : a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a.scalar_type() == at::kBool ? at::logical_and(a, b) : a * b;
    case BinaryOp::Div:
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
    case BinaryOp::FMod:
      if (integral) return integer_division(op, a, b);
      if (op == BinaryOp::Div) return at::div(a, b);
      if (op == BinaryOp::FloorDiv) return at::div(a, b, "floor");
      return op == BinaryOp::Mod ? at::remainder(a, b) : at::fmod(a, b);
    case BinaryOp::Pow: return integral ? integer_power(a, b) : at::pow(a, b);
    case BinaryOp::Maximum: return at::maximum(a, b);
    case BinaryOp::Minimum: return at::minimum(a, b);
    case BinaryOp::FMax: return at::fmax(a, b);
    case BinaryOp::FMin: return at::fmin(a, b);
    case BinaryOp::Atan2: return at::atan2(a, b);
    case BinaryOp::Hypot: return at::hypot(a, b);
    case BinaryOp::CopySign: return at::copysign(a, b);
    case BinaryOp::NextAfter: return at::nextafter(a, b);  // 16-bit floats: see binary()
    case BinaryOp::LogAddExp: return in_float64(a, b, at::logaddexp);  // as the cpu backend
    case BinaryOp::LogAddExp2: return in_float64(a, b, at::logaddexp2);
    case BinaryOp::Heaviside: return at::where(at::isnan(a), a, at::heaviside(a, b));
    case BinaryOp::Gcd: return at::gcd(a, b);
    case BinaryOp::Lcm: return at::lcm(a, b);
    case BinaryOp::BitwiseAnd: return at::bitwise_and(a, b);
    case BinaryOp::BitwiseOr: return at::bitwise_or(a, b);
    case BinaryOp::BitwiseXor: return at::bitwise_xor(a, b);
    case BinaryOp::LeftShift: return integer_shift(true, a, b);
    case BinaryOp::RightShift: return integer_shift(false, a, b);
    case BinaryOp::Equal: return at::eq(a, b);
    case BinaryOp::NotEqual: return at::ne(a, b);
    case BinaryOp::Less: return at::lt(a, b);
    case BinaryOp::LessEqual: return at::le(a, b);
    case BinaryOp::Greater: return at::gt(a, b);
    case BinaryOp::GreaterEqual: return at::ge(a, b);
    case BinaryOp::LogicalAnd: return at::logical_and(a, b);
    case BinaryOp::LogicalOr: return at::logical_or(a, b);
    case BinaryOp::LogicalXor: return at::logical_xor(a, b);
    case BinaryOp::kCount: break;
  }
  throw RuntimeError("torch backend: unknown binary op");
}

// Flat storage positions of every element of `a`, in a's element order (for overlapping
// destinations, where the same position appears more than once).
at::Tensor storage_positions(const Array& a) {
  std::vector<int64_t> sizes = sizes_of(a), strides(a.strides.begin(), a.strides.end());
  int64_t lowest = 0, highest = 0;
  for (int d = 0; d < a.rank(); ++d) {
    const int64_t reach = (a.shape[d] - 1) * a.strides[d];
    (reach < 0 ? lowest : highest) += reach;
  }
  at::Tensor all = at::arange(lowest, highest + 1, options_beside(a, at::kLong));
  return all.as_strided(sizes, strides, -lowest).reshape({-1});
}

// The ops whose ATen `_out` form computes what unary_value() does for a floating x, straight
// into `dst` (of x's dtype). False for the rest, which compute and copy.
bool unary_into(UnaryOp op, at::Tensor& dst, const at::Tensor& x) {
  if (!x.is_floating_point() || dst.scalar_type() != x.scalar_type()) return false;
  switch (op) {
    case UnaryOp::Neg:
      at::neg_out(dst, x);
      return true;
    case UnaryOp::Abs:
      at::abs_out(dst, x);
      return true;
    case UnaryOp::Square:
      at::mul_out(dst, x, x);
      return true;
    case UnaryOp::Reciprocal:
      at::reciprocal_out(dst, x);
      return true;
    case UnaryOp::Sqrt:
      at::sqrt_out(dst, x);
      return true;
    case UnaryOp::Rsqrt:
      at::rsqrt_out(dst, x);
      return true;
    case UnaryOp::Exp:
      at::exp_out(dst, x);
      return true;
    case UnaryOp::Expm1:
      at::expm1_out(dst, x);
      return true;
    case UnaryOp::Log:
      at::log_out(dst, x);
      return true;
    case UnaryOp::Log1p:
      at::log1p_out(dst, x);
      return true;
    case UnaryOp::Sin:
      at::sin_out(dst, x);
      return true;
    case UnaryOp::Cos:
      at::cos_out(dst, x);
      return true;
    case UnaryOp::Floor:
      at::floor_out(dst, x);
      return true;
    case UnaryOp::Ceil:
      at::ceil_out(dst, x);
      return true;
    case UnaryOp::Round:
      at::round_out(dst, x);
      return true;
    case UnaryOp::Trunc:
      at::trunc_out(dst, x);
      return true;
    case UnaryOp::Relu:
      at::clamp_min_out(dst, x, 0);
      return true;
    case UnaryOp::Sigmoid:
      at::sigmoid_out(dst, x);
      return true;
    case UnaryOp::Silu:
      at::silu_out(dst, x);
      return true;
    default:
      return false;
  }
}

// The ops whose ATen `_out` form computes what binary_value() does, straight into `dst`, for
// operands of one dtype: the arithmetic (dst of that dtype) and the comparisons (dst bool).
// False for the rest, which compute and copy.
bool binary_into(BinaryOp op, at::Tensor& dst, const at::Tensor& a, const at::Tensor& b) {
  const at::ScalarType t = a.scalar_type();
  if (b.scalar_type() != t) return false;
  const bool boolean = t == at::kBool;
  if (dst.scalar_type() == t) {
    switch (op) {
      case BinaryOp::Add:
        boolean ? at::logical_or_out(dst, a, b) : at::add_out(dst, a, b);
        return true;
      case BinaryOp::Mul:
        boolean ? at::logical_and_out(dst, a, b) : at::mul_out(dst, a, b);
        return true;
      case BinaryOp::Sub:
        if (boolean) return false;
        at::sub_out(dst, a, b);
        return true;
      case BinaryOp::Div:
        if (!a.is_floating_point()) return false;  // integer_division's NumPy answers
        at::div_out(dst, a, b);
        return true;
      case BinaryOp::Maximum:
        at::maximum_out(dst, a, b);
        return true;
      case BinaryOp::Minimum:
        at::minimum_out(dst, a, b);
        return true;
      default:
        break;
    }
  }
  if (dst.scalar_type() != at::kBool) return false;
  switch (op) {
    case BinaryOp::Equal:
      at::eq_out(dst, a, b);
      return true;
    case BinaryOp::NotEqual:
      at::ne_out(dst, a, b);
      return true;
    case BinaryOp::Less:
      at::lt_out(dst, a, b);
      return true;
    case BinaryOp::LessEqual:
      at::le_out(dst, a, b);
      return true;
    case BinaryOp::Greater:
      at::gt_out(dst, a, b);
      return true;
    case BinaryOp::GreaterEqual:
      at::ge_out(dst, a, b);
      return true;
    default:
      return false;
  }
}

}  // namespace

void TorchBackend::fill(const Array& out, const Scalar& value) {
  if (out.numel() == 0) return;
  at::Scalar s = value.is_floating() ? at::Scalar(value.to_double())
                 : value.is_bool()   ? at::Scalar(value.to_bool())
                                     : at::Scalar(value.to_int());
  if (at::Tensor w = writable_view(out); w.defined()) {
    w.fill_(s);
    return;
  }
  assign(out, at::full(sizes_of(out), s, options_beside(out, compute_type(out.dtype))));
}

void TorchBackend::arange(const Array& out, double start, double step) {
  // start + i * step computed in float64 and rounded once, as the cpu backend does.
  at::Tensor i = at::arange(out.numel(), options_beside(out, at::kDouble));
  assign(out, i * step + start);
}

void TorchBackend::random(const Array& out, backend::RandomKind kind, uint64_t seed,
                          uint64_t counter) {
  // The counter-based generator is ours (the same bits on every backend), so the stream is
  // computed by the shared Philox code into the output's host memory; on a GPU into a host
  // buffer, then copied over.
  if (out.numel() == 0) return;
  const auto k = static_cast<random::philox::Kind>(kind);
  const auto n = static_cast<uint64_t>(out.numel());
  const size_t nbytes = n * itemsize(out.dtype);
  std::vector<std::byte> staging(is_host() ? 0 : nbytes);
  void* dst = is_host() ? out.data() : staging.data();
  switch (out.dtype) {
    case DType::Float32:
      random::philox::generate<float>(k, static_cast<float*>(dst), 0, n, seed, counter);
      break;
    case DType::Float64:
      random::philox::generate<double>(k, static_cast<double*>(dst), 0, n, seed, counter);
      break;
    case DType::Float16:
      random::philox::generate<float16_t>(k, static_cast<float16_t*>(dst), 0, n, seed, counter);
      break;
    case DType::BFloat16:
      random::philox::generate<bfloat16_t>(k, static_cast<bfloat16_t*>(dst), 0, n, seed, counter);
      break;
    case DType::Int8:
      random::philox::generate<int8_t>(k, static_cast<int8_t*>(dst), 0, n, seed, counter);
      break;
    case DType::Int16:
      random::philox::generate<int16_t>(k, static_cast<int16_t*>(dst), 0, n, seed, counter);
      break;
    case DType::Int32:
      random::philox::generate<int32_t>(k, static_cast<int32_t*>(dst), 0, n, seed, counter);
      break;
    case DType::Int64:
      random::philox::generate<int64_t>(k, static_cast<int64_t*>(dst), 0, n, seed, counter);
      break;
    case DType::UInt8:
      random::philox::generate<uint8_t>(k, static_cast<uint8_t*>(dst), 0, n, seed, counter);
      break;
    case DType::Bool:
      random::philox::generate<bool>(k, static_cast<bool*>(dst), 0, n, seed, counter);
      break;
    case DType::Complex64:
    case DType::Complex128: keras::detail::throw_complex_not_supported(out.dtype);
    case DType::String: keras::detail::throw_string_not_supported();
  }
  if (!is_host())
    copy_from_host(*out.storage, static_cast<size_t>(out.offset) * itemsize(out.dtype),
                   staging.data(), nbytes);
}

void TorchBackend::copy(const Array& dst, const Array& src, backend::CopyMode mode) {
  if (dst.numel() == 0) return;
  if (mode == backend::CopyMode::Assign) {
    assign(dst, view(src));
    return;
  }
  // dst += src. dst may overlap itself (the gradient of overlapping windows), which ATen's
  // in-place add refuses: then every element is accumulated by its storage position.
  at::Tensor value = compute_view(src);
  if (!may_overlap(dst)) {
    at::Tensor w = out_view(dst, {&src});
    if (w.defined() && w.scalar_type() == value.scalar_type())
      w.add_(value);
    else
      assign(dst, compute_view(dst) + value);
    return;
  }
  at::Tensor positions = storage_positions(dst);
  int64_t lowest = 0, highest = 0;
  for (int d = 0; d < dst.rank(); ++d) {
    const int64_t reach = (dst.shape[d] - 1) * dst.strides[d];
    (reach < 0 ? lowest : highest) += reach;
  }
  Array span;
  span.storage = dst.storage;
  span.dtype = dst.dtype;
  span.offset = dst.offset + lowest;
  span.shape = Shape({highest - lowest + 1});
  span.strides = Strides({1});
  at::Tensor flat = compute_view(span).clone();
  flat.index_put_({positions}, value.reshape({-1}).to(flat.scalar_type()), /*accumulate=*/true);
  assign(span, flat);
}

void TorchBackend::unary(backend::UnaryOp op, const Array& out, const Array& x, double p0,
                         double p1) {
  if (out.numel() == 0) return;
  at::Tensor t = compute_view(x);
  // ATen's arithmetic kernels skip bool: compute in uint8 (assign() turns nonzero to true).
  if (t.scalar_type() == at::kBool && !backend::is_predicate(op) && op != UnaryOp::BitwiseNot)
    t = t.to(at::kByte);
  if (at::Tensor dst = elementwise_out_view(out, {&x}); dst.defined() && unary_into(op, dst, t))
    return;
  assign(out, unary_value(op, t, p0, p1));
}

void TorchBackend::binary(backend::BinaryOp op, const Array& out, const Array& a,
                          const Array& b) {
  if (out.numel() == 0) return;
  if (op == BinaryOp::NextAfter && (a.dtype == DType::Float16 || a.dtype == DType::BFloat16)) {
    assign(out, nextafter_16bit(view(a), view(b)));
    return;
  }
  at::Tensor x = compute_view(a), y = compute_view(b);
  if (at::Tensor dst = elementwise_out_view(out, {&a, &b});
      dst.defined() && binary_into(op, dst, x, y))
    return;
  assign(out, binary_value(op, x, y));
}

void TorchBackend::where(const Array& out, const Array& cond, const Array& a, const Array& b) {
  if (out.numel() == 0) return;
  assign(out, at::where(view(cond), view(a), view(b)));
}

}  // namespace keras::torch_backend
