#pragma once
// The shape shared by elementwise ops: promote, run one primitive (or a short composition of
// ops), record one gradient rule. An elementwise op is a name, a primitive, a promotion policy
// and a rule.

#include <functional>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "keras/backend/primitives.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// How an elementwise op chooses its compute dtype from the promoted dtype of its inputs.
enum class Promotion {
  Keep,     // the promoted dtype as it is (add, maximum, bitwise_and, ...)
  Numeric,  // as Keep, but bool becomes int32 (JAX's promote_dtypes_numeric: square, mod, ...)
  ToFloat,  // integers and bool become floatx(), int64 included (exp, sqrt, divide, ...)
  Inexact,  // integers and bool become floatx(), int64 becomes float64 (JAX's to_inexact:
            // cbrt, hypot, i0, ...)
};

/// The dtype an op with `promotion` computes in, given its inputs' promoted dtype.
DType compute_dtype(DType promoted, Promotion promotion);

/// float16 or bfloat16: composite ops compute these in float32 and round once at the end.
constexpr bool is_half(DType t) {
  return t == DType::Float16 || t == DType::BFloat16;
}

/// dL/dx given x, the op's output y and dL/dy.
using UnaryGrad = Tensor (*)(const Tensor& x, const Tensor& y, const Tensor& g);
/// (dL/da, dL/db) at the broadcast shape; the framework sums them back to each input's shape.
/// `need_a`/`need_b` say which are wanted.
using BinaryGrad = std::pair<Tensor, Tensor> (*)(const Tensor& a, const Tensor& b, const Tensor& y,
                                                 const Tensor& g, bool need_a, bool need_b);

/// y = op(x, p0, p1). `grad` may be null for ops without a gradient (predicates).
Tensor unary_op(std::string_view name, backend::UnaryOp op, const Tensor& x, Promotion promotion,
                UnaryGrad grad, double p0 = 0, double p1 = 0);

/// y = op(a, b) with broadcasting. `grad` may be null.
Tensor binary_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b,
                 Promotion promotion, BinaryGrad grad);

/// A comparison or logical op: inputs promoted together, bool result, no gradient.
Tensor predicate_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b);

/// An elementwise op written as a composition of ops: `forward` runs on x (converted to the
/// compute dtype) without recording, and `grad` is recorded as the op's one rule.
Tensor composite_unary(std::string_view name, const Tensor& x, Promotion promotion,
                       const std::function<Tensor(const Tensor&)>& forward, UnaryGrad grad);

/// The binary form of composite_unary; `forward` receives both inputs in the compute dtype
/// (not yet broadcast).
Tensor composite_binary(std::string_view name, const Tensor& a, const Tensor& b,
                        Promotion promotion,
                        const std::function<Tensor(const Tensor&, const Tensor&)>& forward,
                        BinaryGrad grad);

/// `g` summed over the axes that broadcasting added or stretched, giving `shape`.
Tensor sum_to(const Tensor& g, const Shape& shape);

/// The result of an op that leaves its input unchanged: `x` itself, or for a C++ literal a
/// strong 0-d tensor of its default dtype (as Keras converts a Python scalar).
Tensor unchanged(const Tensor& x);

/// The zero gradient of a piecewise-constant op (floor, sign, ...).
Tensor zero_grad(const Tensor& x, const Tensor& y, const Tensor& g);

// ---- dtype domains -------------------------------------------------------------------------

/// TypeError naming `op` and every input's dtype and shape unless all inputs are integers
/// (or bool, when `allow_bool`).
void require_integer(std::string_view op, std::initializer_list<const Tensor*> inputs,
                     bool allow_bool);
/// TypeError naming `op` when an input is bool (ops NumPy and JAX reject on bool, such as
/// subtract and negative). `hint` suggests the alternative.
void reject_bool(std::string_view op, std::initializer_list<const Tensor*> inputs,
                 std::string_view hint);

}  // namespace keras::ops::detail
