// bitwise_and, bitwise_or, bitwise_xor, bitwise_invert/not, left and right shifts. Integer or
// bool inputs only (TypeError otherwise); no gradients.

#include "keras/ops/ops.h"
#include "ops/detail/elementwise.h"

namespace keras::ops {
inline namespace numpy {

using backend::BinaryOp;
using detail::Promotion;

namespace {

Tensor bitwise(std::string_view name, BinaryOp op, const Tensor& x, const Tensor& y,
               Promotion promotion) {
  detail::require_integer(name, {&x, &y}, /*allow_bool=*/true);
  return detail::binary_op(name, op, x, y, promotion, nullptr);
}

}  // namespace

Tensor bitwise_and(const Tensor& x, const Tensor& y) {
  return bitwise("bitwise_and", BinaryOp::BitwiseAnd, x, y, Promotion::Keep);
}
Tensor bitwise_or(const Tensor& x, const Tensor& y) {
  return bitwise("bitwise_or", BinaryOp::BitwiseOr, x, y, Promotion::Keep);
}
Tensor bitwise_xor(const Tensor& x, const Tensor& y) {
  return bitwise("bitwise_xor", BinaryOp::BitwiseXor, x, y, Promotion::Keep);
}
Tensor bitwise_invert(const Tensor& x) {
  detail::require_integer("bitwise_invert", {&x}, /*allow_bool=*/true);
  return detail::unary_op("bitwise_invert", backend::UnaryOp::BitwiseNot, x, Promotion::Keep,
                          nullptr);
}
Tensor bitwise_not(const Tensor& x) {
  return bitwise_invert(x);
}

// Shifts treat bool as int32, as JAX does.
Tensor bitwise_left_shift(const Tensor& x, const Tensor& y) {
  return bitwise("bitwise_left_shift", BinaryOp::LeftShift, x, y, Promotion::Numeric);
}
Tensor bitwise_right_shift(const Tensor& x, const Tensor& y) {
  return bitwise("bitwise_right_shift", BinaryOp::RightShift, x, y, Promotion::Numeric);
}
Tensor left_shift(const Tensor& x, const Tensor& y) {
  return bitwise_left_shift(x, y);
}
Tensor right_shift(const Tensor& x, const Tensor& y) {
  return bitwise_right_shift(x, y);
}

}  // namespace numpy
}  // namespace keras::ops
