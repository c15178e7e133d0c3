// depth_to_space and space_to_depth: a reshape, a transpose and a reshape (one copy).

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/spatial_args.h"

namespace keras::ops {
inline namespace nn {

namespace {

// Checks the arguments; returns true for channels_last.
bool check_args(std::string_view op, const Tensor& x, int64_t block_size,
                const std::string& data_format) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(block_size >= 2, op, ": block_size must be at least 2; got block_size=", block_size, ".");
  const bool channels_last = detail::parse_data_format(op, data_format);
  check(x.ndim() == 4, op, " requires a 4D input tensor; got shape ", x.shape(), ".");
  return channels_last;
}

}  // namespace

Tensor depth_to_space(const Tensor& x, int64_t block_size, const std::string& data_format) {
  constexpr std::string_view op = "depth_to_space";
  const bool cl = check_args(op, x, block_size, data_format);
  const Shape& s = x.shape();
  const int64_t n = s[0], h = cl ? s[1] : s[2], w = cl ? s[2] : s[3], c = cl ? s[3] : s[1];
  const int64_t b = block_size, b2 = block_size * block_size;
  check(c % b2 == 0, op, ": the number of channels (", c, ", shape ", s,
        ") must be divisible by block_size**2 (", b2, ").");
  const int64_t nc = c / b2;
  if (cl)  // (N, H, W, bh, bw, C') -> (N, H, bh, W, bw, C')
    return reshape(transpose(reshape(x, Shape{n, h, w, b, b, nc}), {0, 1, 3, 2, 4, 5}),
                   Shape{n, h * b, w * b, nc});
  // (N, C', bh, bw, H, W) -> (N, C', H, bh, W, bw)
  return reshape(transpose(reshape(x, Shape{n, nc, b, b, h, w}), {0, 1, 4, 2, 5, 3}),
                 Shape{n, nc, h * b, w * b});
}

Tensor space_to_depth(const Tensor& x, int64_t block_size, const std::string& data_format) {
  constexpr std::string_view op = "space_to_depth";
  const bool cl = check_args(op, x, block_size, data_format);
  const Shape& s = x.shape();
  const int64_t n = s[0], h = cl ? s[1] : s[2], w = cl ? s[2] : s[3], c = cl ? s[3] : s[1];
  const int64_t b = block_size;
  check(h % b == 0 && w % b == 0, op, ": height and width (", h, ", ", w, "; shape ", s,
        ") must be divisible by block_size (", b, ").");
  if (cl)  // (N, H', bh, W', bw, C) -> (N, H', W', bh, bw, C)
    return reshape(transpose(reshape(x, Shape{n, h / b, b, w / b, b, c}), {0, 1, 3, 2, 4, 5}),
                   Shape{n, h / b, w / b, c * b * b});
  // (N, C, H', bh, W', bw) -> (N, C, bh, bw, H', W')
  return reshape(transpose(reshape(x, Shape{n, c, h / b, b, w / b, b}), {0, 1, 3, 5, 2, 4}),
                 Shape{n, c * b * b, h / b, w / b});
}

}  // namespace nn
}  // namespace keras::ops
