#include "ops/nn/spatial_args.h"

#include <algorithm>
#include <cctype>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "ops/detail/op_utils.h"

namespace keras::ops::detail {

std::string tuple_string(const Spatial& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

namespace {

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

bool parse_data_format(std::string_view op, const std::optional<std::string>& data_format) {
  const std::string f = lower(data_format ? *data_format : config::image_data_format());
  if (f == "channels_last") return true;
  if (f == "channels_first") return false;
  throw ValueError(keras::detail::cat(op,
                                      ": data_format must be 'channels_last' or "
                                      "'channels_first'; got '",
                                      data_format ? *data_format : f, "'."));
}

bool parse_padding(std::string_view op, std::string_view padding) {
  const std::string p = lower(padding);
  if (p == "same") return true;
  if (p == "valid") return false;
  throw ValueError(
      keras::detail::cat(op, ": padding must be 'valid' or 'same'; got '", padding, "'."));
}

Spatial spatial_values(std::string_view op, std::string_view what, const IntOrTuple& v, int n,
                       int64_t min_value) {
  Spatial out;
  if (v.is_scalar()) {
    out.resize(static_cast<size_t>(n), v.values()[0]);
  } else {
    check(static_cast<int>(v.values().size()) == n, op, ": ", what,
          " must be an int or a tuple of ", n, " ints (one per spatial dimension); got ",
          tuple_string(v.values()), ".");
    out = v.values();
  }
  for (int64_t x : out)
    check(x >= min_value, op, ": every value of ", what, " must be >= ", min_value, "; got ",
          v.is_scalar() ? std::to_string(x) : tuple_string(out), ".");
  return out;
}

Spatial spatial_of(const Shape& shape, bool channels_last) {
  const int r = shape.rank();
  return channels_last ? Spatial(shape.begin() + 1, shape.end() - 1)
                       : Spatial(shape.begin() + 2, shape.begin() + r);
}

int64_t channels_of(const Shape& shape, bool channels_last) {
  return channels_last ? shape[shape.rank() - 1] : shape[1];
}

Shape layout_shape(int64_t n, const Spatial& spatial, int64_t c, bool channels_last) {
  Shape s{n};
  if (!channels_last) s.push_back(c);
  for (int64_t d : spatial) s.push_back(d);
  if (channels_last) s.push_back(c);
  return s;
}

std::pair<int64_t, int64_t> same_padding(int64_t size, int64_t window, int64_t stride) {
  const int64_t out = (size + stride - 1) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + window - size, 0);
  return {total / 2, total - total / 2};
}

Shape conv_output_shape(const Shape& x, const Shape& kernel, const backend::ConvSpec& spec) {
  Spatial in = spatial_of(x, spec.channels_last), out;
  for (int i = 0; i < spec.spatial_dims; ++i) {
    const int64_t window = (kernel[i] - 1) * spec.dilation[i] + 1;
    out.push_back(
        window_count(in[i], spec.pad_before[i] + spec.pad_after[i], window, spec.strides[i]));
  }
  return layout_shape(x[0], out, kernel[kernel.rank() - 1], spec.channels_last);
}

Shape pool_output_shape(const Shape& x, const backend::PoolSpec& spec) {
  Spatial in = spatial_of(x, spec.channels_last), out;
  for (int i = 0; i < spec.spatial_dims; ++i)
    out.push_back(window_count(in[i], spec.pad_before[i] + spec.pad_after[i], spec.window[i],
                               spec.strides[i]));
  return layout_shape(x[0], out, channels_of(x, spec.channels_last), spec.channels_last);
}

std::vector<int> to_channels_last_perm(int rank) {
  std::vector<int> p{0};
  for (int d = 2; d < rank; ++d) p.push_back(d);
  p.push_back(1);
  return p;
}

std::vector<int> to_channels_first_perm(int rank) {
  std::vector<int> p{0, rank - 1};
  for (int d = 1; d < rank - 1; ++d) p.push_back(d);
  return p;
}

}  // namespace keras::ops::detail

namespace keras::ops::detail {

int check_conv_ranks(std::string_view op, const Tensor& x, const Tensor& kernel) {
  check(x.defined() && kernel.defined(), op, ": an input is an undefined tensor.");
  check(x.ndim() >= 3 && x.ndim() <= 5, op,
        ": inputs must have rank 3, 4 or 5 (batch, 1 to 3 spatial dimensions, channels); got "
        "shape ",
        x.shape(), ".");
  check(kernel.ndim() == x.ndim(), op,
        ": the kernel must have the same rank as the inputs; got "
        "inputs of shape ",
        x.shape(), " and kernel of shape ", kernel.shape(), ".");
  const int d = x.ndim() - 2;
  for (int i = 0; i < d; ++i)
    check(kernel.shape()[i] > 0, op,
          ": the kernel's spatial dimensions must be positive; got "
          "kernel of shape ",
          kernel.shape(), ".");
  return d;
}

DType conv_dtype(std::string_view op, std::initializer_list<const Tensor*> inputs) {
  DType t = promote(inputs);
  if (!is_floating(t)) {
    std::string dtypes;
    for (const Tensor* x : inputs)
      dtypes += (dtypes.empty() ? "" : ", ") + std::string(dtype_name(x->dtype()));
    throw TypeError(keras::detail::cat(op, ": expects floating inputs; got dtypes ", dtypes,
                                       ". Cast them with ops::cast(x, keras::float32)."));
  }
  return t;
}

backend::ConvSpec conv_spec(std::string_view op, const Shape& x_shape, const Shape& kernel_shape,
                            const Spatial& strides, const Spatial& dilation, bool same,
                            bool channels_last, int64_t groups) {
  backend::ConvSpec s;
  s.spatial_dims = static_cast<int>(strides.size());
  s.channels_last = channels_last;
  s.groups = groups;
  Spatial in = spatial_of(x_shape, channels_last);
  for (int i = 0; i < s.spatial_dims; ++i) {
    const int64_t window = (kernel_shape[i] - 1) * dilation[i] + 1;
    auto [before, after] =
        same ? same_padding(in[i], window, strides[i]) : std::pair<int64_t, int64_t>{0, 0};
    check(same || in[i] >= window, op,
          ": computed output size would be zero or negative: inputs "
          "of shape ",
          x_shape, ", kernel of shape ", kernel_shape, ", strides ", tuple_string(strides),
          ", dilation_rate ", tuple_string(dilation),
          ", padding 'valid' (the dilated kernel spans ", window, " along spatial dimension ", i,
          " of extent ", in[i], ").");
    s.strides.push_back(strides[i]);
    s.dilation.push_back(dilation[i]);
    s.pad_before.push_back(before);
    s.pad_after.push_back(after);
  }
  return s;
}

}  // namespace keras::ops::detail
