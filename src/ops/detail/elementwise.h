#pragma once
// The shape shared by elementwise ops: promote, run one primitive, record one gradient rule.
// An elementwise op is a name, a primitive, a promotion policy and a rule.

#include <string_view>
#include <utility>

#include "keras/backend/primitives.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// How an elementwise op chooses its compute dtype.
enum class Promotion {
  Keep,     // the input dtype (or the promoted dtype of the inputs)
  ToFloat,  // as Keep, then integers and bool become floatx() (exp, sqrt, divide, ...)
};

/// dL/dx given x, the op's output y and dL/dy.
using UnaryGrad = Tensor (*)(const Tensor& x, const Tensor& y, const Tensor& g);
/// (dL/da, dL/db) at the broadcast shape; the framework sums them back to each input's shape.
/// `need_a`/`need_b` say which are wanted.
using BinaryGrad = std::pair<Tensor, Tensor> (*)(const Tensor& a, const Tensor& b,
                                                 const Tensor& y, const Tensor& g, bool need_a,
                                                 bool need_b);

/// y = op(x, p0, p1). `grad` may be null for ops without a gradient (predicates, rounding).
Tensor unary_op(std::string_view name, backend::UnaryOp op, const Tensor& x, Promotion promotion,
                UnaryGrad grad, double p0 = 0, double p1 = 0);

/// y = op(a, b) with broadcasting. `grad` may be null.
Tensor binary_op(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b,
                 Promotion promotion, BinaryGrad grad);

/// A comparison or logical op: inputs promoted together, bool result, no gradient.
Tensor predicate_op(std::string_view name, backend::BinaryOp op, const Tensor& a,
                    const Tensor& b);

/// `g` summed over the axes that broadcasting added or stretched, giving `shape`.
Tensor sum_to(const Tensor& g, const Shape& shape);

}  // namespace keras::ops::detail
