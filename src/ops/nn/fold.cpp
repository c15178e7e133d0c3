// unfold (im2col) and fold (col2im) on channels_first images: a window view and one copy,
// and its adjoint, which sums overlapping windows.

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/spatial_args.h"
#include "ops/nn/windows.h"

namespace keras::ops {
inline namespace nn {

namespace {

struct FoldArgs {
  detail::WindowGeometry geometry;
  detail::Spatial padding;
};

FoldArgs fold_args(std::string_view op, const IntOrTuple& kernel_size, const IntOrTuple& dilation,
                   const IntOrTuple& padding, const IntOrTuple& stride) {
  FoldArgs a;
  a.geometry.window = detail::spatial_values(op, "kernel_size", kernel_size, 2, 1);
  a.geometry.dilation = detail::spatial_values(op, "dilation", dilation, 2, 1);
  a.geometry.strides = detail::spatial_values(op, "stride", stride, 2, 1);
  a.padding = detail::spatial_values(op, "padding", padding, 2, 0);
  return a;
}

// Window positions along each axis of an (h, w) image padded by `padding` on both sides.
detail::Spatial block_counts(const detail::Spatial& image, const FoldArgs& a) {
  detail::Spatial n;
  for (int i = 0; i < 2; ++i)
    n.push_back(detail::window_count(image[i], 2 * a.padding[i],
                                     (a.geometry.window[i] - 1) * a.geometry.dilation[i] + 1,
                                     a.geometry.strides[i]));
  return n;
}

}  // namespace

Tensor unfold(const Tensor& x, const IntOrTuple& kernel_size, const IntOrTuple& dilation,
              const IntOrTuple& padding, const IntOrTuple& stride) {
  constexpr std::string_view op = "unfold";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() == 4, op, ": input must be a 4D tensor (N, C, H, W); got shape ", x.shape(), ".");
  FoldArgs a = fold_args(op, kernel_size, dilation, padding, stride);
  detail::Spatial image{x.shape()[2], x.shape()[3]};
  detail::Spatial blocks = block_counts(image, a);
  check(blocks[0] > 0 && blocks[1] > 0, op, ": the kernel ",
        detail::tuple_string(a.geometry.window), " with dilation ",
        detail::tuple_string(a.geometry.dilation),
        " does not fit in the padded "
        "input of shape ",
        x.shape(), " (padding ", detail::tuple_string(a.padding), ").");
  const int64_t n = x.shape()[0], c = x.shape()[1];
  // (N, H, W, C) -> windows (N, oh, ow, kh, kw, C) -> (N, C, kh, kw, oh, ow) -> columns.
  Tensor x_cl = transpose(x, {0, 2, 3, 1});
  Tensor w =
      detail::window_view(detail::pad_spatial(x_cl, a.padding, a.padding, 0), blocks, a.geometry);
  return reshape(transpose(w, {0, 5, 3, 4, 1, 2}),
                 Shape{n, c * a.geometry.window[0] * a.geometry.window[1], blocks[0] * blocks[1]});
}

Tensor fold(const Tensor& x, const IntOrTuple& output_size, const IntOrTuple& kernel_size,
            const IntOrTuple& dilation, const IntOrTuple& padding, const IntOrTuple& stride) {
  constexpr std::string_view op = "fold";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() == 3, op, ": input must be a 3D tensor (N, C * kH * kW, L); got shape ", x.shape(),
        ".");
  FoldArgs a = fold_args(op, kernel_size, dilation, padding, stride);
  detail::Spatial image = detail::spatial_values(op, "output_size", output_size, 2, 1);
  const int64_t taps = a.geometry.window[0] * a.geometry.window[1];
  const int64_t n = x.shape()[0], ckk = x.shape()[1], length = x.shape()[2];
  check(ckk % taps == 0, op, ": the second dimension of the input (", ckk, ", shape ", x.shape(),
        ") must be divisible by the kernel size product ", taps, ".");
  detail::Spatial blocks = block_counts(image, a);
  check(blocks[0] * blocks[1] == length, op, ": the input of shape ", x.shape(), " has ", length,
        " blocks, but output_size ", detail::tuple_string(image), " with kernel_size ",
        detail::tuple_string(a.geometry.window), ", dilation ",
        detail::tuple_string(a.geometry.dilation), ", padding ", detail::tuple_string(a.padding),
        " and stride ", detail::tuple_string(a.geometry.strides), " gives ", blocks[0], " x ",
        blocks[1], ".");
  const int64_t c = ckk / taps;
  // (N, C, kh, kw, oh, ow) -> (N, oh, ow, kh, kw, C), summed into the padded image.
  Tensor w = transpose(
      reshape(x, Shape{n, c, a.geometry.window[0], a.geometry.window[1], blocks[0], blocks[1]}),
      {0, 4, 5, 2, 3, 1});
  Shape padded{n, image[0] + 2 * a.padding[0], image[1] + 2 * a.padding[1], c};
  Tensor full = detail::window_embed(w, padded, a.geometry);
  return transpose(detail::crop_spatial(full, a.padding, image), {0, 3, 1, 2});
}

}  // namespace nn
}  // namespace keras::ops
