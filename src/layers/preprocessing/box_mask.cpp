#include "layers/preprocessing/box_mask.h"

#include "keras/ops/ops.h"

namespace keras::layers::preprocessing_detail {

std::pair<Tensor, Tensor> crop_bounds(int64_t batch, int64_t length, const Tensor& crop_ratio,
                                      const random::Seed& seed, DType dtype) {
  Tensor span = ops::cast(ops::multiply(crop_ratio, Tensor(static_cast<double>(length))), dtype);
  Tensor start = ops::multiply(random::uniform(Shape{batch}, 0.0, 1.0, dtype, seed),
                               ops::subtract(Tensor(static_cast<double>(length)), span));
  return {start, ops::add(start, span)};
}

Tensor box_mask(int64_t batch, int64_t height, int64_t width, int64_t channels, bool channels_last,
                const Tensor& x0, const Tensor& x1, const Tensor& y0, const Tensor& y1,
                DType dtype) {
  // Grids broadcast against (batch, 1, 1, 1) corners.
  const Shape grid_shape = channels_last ? Shape{1, height, width, 1} : Shape{1, 1, height, width};
  const Shape row_shape = channels_last ? Shape{1, height, 1, 1} : Shape{1, 1, height, 1};
  const Shape col_shape = channels_last ? Shape{1, 1, width, 1} : Shape{1, 1, 1, width};
  Tensor gy =
      ops::broadcast_to(ops::reshape(ops::arange(0, height, 1, dtype), row_shape), grid_shape);
  Tensor gx =
      ops::broadcast_to(ops::reshape(ops::arange(0, width, 1, dtype), col_shape), grid_shape);
  auto corner = [&](const Tensor& c) { return ops::reshape(c, Shape{batch, 1, 1, 1}); };
  Tensor inside = ops::logical_and(
      ops::logical_and(ops::greater_equal(gx, corner(x0)), ops::less(gx, corner(x1))),
      ops::logical_and(ops::greater_equal(gy, corner(y0)), ops::less(gy, corner(y1))));
  return ops::repeat(inside, channels, channels_last ? 3 : 1);
}

}  // namespace keras::layers::preprocessing_detail
