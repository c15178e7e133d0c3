#pragma once
// The vocabulary of the backend contract: which elementwise functions, reductions, scans and
// fused capabilities exist, and the plain structs that describe a convolution or a pooling.
// Shapes, broadcasting, dtype promotion and argument checks are resolved by the front end
// before a backend sees any of these.

#include <array>
#include <cstdint>
#include <string_view>

#include "keras/core/small_vector.h"

#pragma GCC visibility push(default)
namespace keras::backend {

/// Elementwise functions of one input. Output dtype equals the input's except for the
/// predicates (IsNan ... SignBit, LogicalNot), which write bool. `p0`/`p1` are the op's
/// parameters where it has any (noted below).
enum class UnaryOp : uint8_t {
  // arithmetic
  Neg, Abs, Sign, Square, Reciprocal, Sqrt, Rsqrt, Cbrt,
  // exponentials and logarithms
  Exp, Exp2, Expm1, Log, Log2, Log10, Log1p,
  // trigonometric and hyperbolic
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
  // rounding (Round is half-to-even, as NumPy)
  Floor, Ceil, Round, Trunc,
  // special functions
  Erf, Erfc, Erfinv, Lgamma, Digamma, I0,
  // activations
  Relu, Sigmoid, Softplus, Silu, Gelu, GeluTanh, LogSigmoid,
  Elu,        // p0 = alpha
  LeakyRelu,  // p0 = negative_slope
  Clip,       // p0 = min, p1 = max
  PowScalar,  // p0 = exponent
  // bitwise (integers and bool)
  BitwiseNot,
  // predicates, output bool
  LogicalNot, IsNan, IsInf, IsFinite, IsPosInf, IsNegInf, SignBit,
  kCount
};

/// Elementwise functions of two inputs of one dtype (the front end casts first). Comparisons
/// and the logical ops write bool; the rest write the input dtype.
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div,  // Div on integers truncates toward zero (the front end uses FloorDiv)
  FloorDiv, Mod,       // Python semantics: the remainder has the divisor's sign
  FMod,                // C semantics: the remainder has the dividend's sign
  Pow, Maximum, Minimum, FMax, FMin,  // Maximum/Minimum propagate NaN, FMax/FMin skip it
  Atan2, Hypot, CopySign, NextAfter, LogAddExp, LogAddExp2, Heaviside,
  Gcd, Lcm,
  BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift, RightShift,
  // output bool
  Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, LogicalAnd, LogicalOr, LogicalXor,
  kCount
};

/// Reductions over a set of axes. Sum/Mean of float16/bfloat16 accumulate in float32.
/// Max/Min propagate NaN. Any/All write bool.
enum class ReduceOp : uint8_t { Sum, Mean, Prod, Max, Min, Any, All, kCount };

/// Reductions to an index along one axis (first occurrence wins; NaN counts as the extreme).
enum class ArgReduceOp : uint8_t { ArgMax, ArgMin, kCount };

/// Inclusive prefix operations along one axis.
enum class ScanOp : uint8_t { CumSum, CumProd, CumMax, CumMin, kCount };

/// How scatter combines a value with what the output already holds.
enum class ScatterReduce : uint8_t { Assign, Add, Mul, Max, Min, kCount };

/// How copy writes into its destination.
enum class CopyMode : uint8_t { Assign, Add };

/// The generators of the counter-based random primitive (the algorithm is in
/// keras/random/philox.h and is the same on every backend).
enum class RandomKind : uint8_t {
  Bits,             // uint32 words reinterpreted into the output's integer dtype
  Uniform,          // [0, 1)
  Normal,           // N(0, 1), Box-Muller
  TruncatedNormal,  // N(0, 1) truncated to [-2, 2], by inverse CDF
  kCount
};

/// Fused kernels a backend may provide. Without one, the front end runs a decomposition into
/// primitives, so a new backend runs everything on day one.
enum class Capability : uint8_t {
  Conv,                 // conv, conv_backward_input, conv_backward_kernel
  Pool,                 // pool, pool_backward
  Softmax,              // softmax / log_softmax along one axis
  Linear,               // matmul + bias + activation
  Linalg,               // cholesky, lu_factor, triangular_solve, qr, svd, eigh, eig
  Epilogue,             // conv_bias_activation, bias_activation_backward
  ConvPool,             // conv_bias_activation_max_pool(_backward)
  Elementwise,          // elementwise: a chain of elementwise primitives in one pass
  QuantizedMatmul,      // int8_matmul: int8 @ int8 with int32 accumulation
  Int4Matmul,           // int4_matmul: float32 @ a packed int4 kernel, never unpacked whole
  kCount
};

/// One elementwise primitive (unary, binary, where or copy) as data: a step of a fused chain
/// (Capability::Elementwise). Its operands are registers of the chain (see ElementwiseChain).
struct ElementwiseStep {
  /// The primitives a step can run: unary, binary, where (select) or copy.
  enum class Kind : uint8_t { Unary, Binary, Where, Copy };
  /// The step's primitive.
  Kind kind = Kind::Unary;
  /// The UnaryOp, BinaryOp or CopyMode, cast to its underlying value (unused for Where).
  uint8_t op = 0;         // the UnaryOp, BinaryOp or CopyMode
  /// A unary op's first parameter, and (p1) its second (see UnaryOp).
  double p0 = 0, p1 = 0;  // a unary op's parameters
  /// The register the step writes.
  int out = -1;
  /// The registers the step reads: x for Unary and Copy, a, b for Binary, cond, a, b for Where.
  std::array<int, 3> in{-1, -1, -1};  // Unary/Copy: x; Binary: a, b; Where: cond, a, b
};

/// Activations a Linear or Epilogue kernel can apply. Relu6 is min(max(x, 0), 6), as
/// ops::relu6 (UnaryOp::Clip with bounds 0 and 6). Gelu, Silu and Relu6 come from the compiler
/// (compiler/fuse_linear.h) where no gradient reads the activation's input, so no backend
/// computes their bias_activation_backward.
enum class Activation : uint8_t { None, Relu, Sigmoid, Tanh, Gelu, Silu, Relu6 };

/// A convolution with explicit padding, for 1, 2 or 3 spatial dimensions.
struct ConvSpec {
  /// The number of spatial dimensions: 1, 2 or 3.
  int spatial_dims = 2;
  /// The stride along each spatial dimension.
  SmallVector<int64_t, 3> strides;
  /// The dilation rate along each spatial dimension (1 for none).
  SmallVector<int64_t, 3> dilation;
  /// Zero padding before each spatial dimension, in elements.
  SmallVector<int64_t, 3> pad_before;
  /// Zero padding after each spatial dimension, in elements.
  SmallVector<int64_t, 3> pad_after;
  /// The number of channel groups (Keras's `groups`); equal to the input channels for depthwise.
  int64_t groups = 1;
  /// True for Keras's "channels_last" data format, false for "channels_first".
  bool channels_last = true;  // input (N, *spatial, C) and kernel (*k, C/groups, O)
  // channels_first: input (N, C, *spatial); the kernel is always (*k, C/groups, O) as in Keras.
};

/// The reduction a pooling window applies.
enum class PoolKind : uint8_t { Max, Average };

/// A pooling window with explicit padding. Average pooling divides by the number of input
/// elements inside the window (padding excluded), as Keras does.
struct PoolSpec {
  /// Max or average pooling.
  PoolKind kind = PoolKind::Max;
  /// The number of spatial dimensions: 1, 2 or 3.
  int spatial_dims = 2;
  /// The window size along each spatial dimension (Keras's `pool_size`).
  SmallVector<int64_t, 3> window;
  /// The stride along each spatial dimension.
  SmallVector<int64_t, 3> strides;
  /// Padding before each spatial dimension, in elements; padded positions never count in a window.
  SmallVector<int64_t, 3> pad_before;
  /// Padding after each spatial dimension, in elements.
  SmallVector<int64_t, 3> pad_after;
  /// True for "channels_last" inputs `(N, *spatial, C)`, false for `(N, C, *spatial)`.
  bool channels_last = true;
};

/// The keras.ops name of `op` ("arcsin" for Asin), for messages; "unknown" when out of range.
std::string_view name_of(UnaryOp op);
/// The keras.ops name of `op` ("subtract" for Sub), for messages; "unknown" when out of range.
std::string_view name_of(BinaryOp op);
/// The keras.ops name of `op` ("sum", "mean", ...); "unknown" when out of range.
std::string_view name_of(ReduceOp op);
/// The keras.ops name of `op` ("argmax" or "argmin"); "unknown" when out of range.
std::string_view name_of(ArgReduceOp op);
/// The keras.ops name of `op` ("cumsum", ...); "unknown" when out of range.
std::string_view name_of(ScanOp op);
/// The name of `op` ("assign", "add", "multiply", "maximum", "minimum"); "unknown" if out of range.
std::string_view name_of(ScatterReduce op);
/// The name of `kind` ("bits", "uniform", "normal", "truncated_normal"); "unknown" if out of range.
std::string_view name_of(RandomKind kind);
/// The snake_case name of `cap` ("conv", "quantized_matmul", ...); "unknown" when out of range.
std::string_view name_of(Capability cap);

/// True for the unary ops that write bool.
constexpr bool is_predicate(UnaryOp op) { return op >= UnaryOp::LogicalNot; }
/// True for the binary ops that write bool.
constexpr bool is_predicate(BinaryOp op) { return op >= BinaryOp::Equal; }

/// \var ElementwiseStep::p1
/// A unary op's second parameter (Clip's max; see UnaryOp).
}  // namespace keras::backend

#pragma GCC visibility pop
