#include "conv_geometry.h"

#include <climits>
#include <string>

#include "keras/core/errors.h"

namespace keras::cuda {
namespace {

int narrow(int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw NotImplementedError(std::string("cuda backend: a convolution whose ") + what + " (" +
                              std::to_string(v) + ") passes cuDNN's 32-bit limit");
  return static_cast<int>(v);
}

// The first spatial axis of an array in spec's layout.
int first_spatial(const backend::ConvSpec& spec) {
  return spec.channels_last ? 1 : 2;
}

// (N, C, *spatial) dims and strides of an array in spec's layout; a 1-D array gets a unit
// height whose stride is what a packed layout would give it.
CudnnTensor tensor_of(const Shape& shape, const Strides& strides, const backend::ConvSpec& spec) {
  const int d = spec.spatial_dims, s0 = first_spatial(spec);
  const int c = spec.channels_last ? d + 1 : 1;
  CudnnTensor t;
  auto put = [&](int64_t dim, int64_t stride) {
    t.dims[t.rank] = narrow(dim, "size");
    t.strides[t.rank] = narrow(stride, "stride");
    ++t.rank;
  };
  put(shape[0], strides[0]);
  put(shape[c], strides[c]);
  if (d == 1) put(1, shape[s0] * strides[s0]);
  for (int i = 0; i < d; ++i) put(shape[s0 + i], strides[s0 + i]);
  return t;
}

}  // namespace

bool symmetric_padding(const backend::ConvSpec& spec) {
  for (int i = 0; i < spec.spatial_dims; ++i)
    if (spec.pad_before[i] != spec.pad_after[i]) return false;
  return true;
}

Shape padded_input_shape(const Shape& x, const backend::ConvSpec& spec) {
  Shape padded = x;
  for (int i = 0; i < spec.spatial_dims; ++i)
    padded[first_spatial(spec) + i] += spec.pad_before[i] + spec.pad_after[i];
  return padded;
}

Strides filter_view_strides(const Shape& kernel, const Strides& kernel_strides,
                            const backend::ConvSpec& spec, Shape* shape) {
  const int d = spec.spatial_dims;  // kernel: (*k, C/g, O): axis d is C/g, d + 1 is O
  std::vector<int> order{d + 1};
  if (!spec.channels_last) order.push_back(d);
  for (int i = 0; i < d; ++i) order.push_back(i);
  if (spec.channels_last) order.push_back(d);
  Strides strides;
  *shape = Shape{};
  for (int axis : order) {
    shape->push_back(kernel[axis]);
    strides.push_back(kernel_strides[axis]);
  }
  return strides;
}

CudnnConv cudnn_conv(const Shape& x, const Strides& x_strides, const Shape& kernel, const Shape& y,
                     const Strides& y_strides, const backend::ConvSpec& spec,
                     bool explicitly_padded) {
  const int d = spec.spatial_dims;
  CudnnConv c;
  c.spatial = d == 1 ? 2 : d;
  c.x = tensor_of(x, x_strides, spec);
  c.y = tensor_of(y, y_strides, spec);
  c.filter_channels_last = spec.channels_last;
  c.groups = narrow(spec.groups, "group count");
  c.filter[0] = narrow(kernel[d + 1], "output channels");
  c.filter[1] = narrow(kernel[d], "input channels per group");
  const int lift = d == 1 ? 1 : 0;
  if (lift) {  // the unit height: a window of 1, no padding, unit stride and dilation
    c.filter[2] = 1;
    c.stride[0] = c.dilation[0] = 1;
  }
  for (int i = 0; i < d; ++i) {
    c.filter[2 + lift + i] = narrow(kernel[i], "kernel size");
    c.pad[lift + i] = explicitly_padded ? 0 : narrow(spec.pad_before[i], "padding");
    c.stride[lift + i] = narrow(spec.strides[i], "stride");
    c.dilation[lift + i] = narrow(spec.dilation[i], "dilation");
  }
  return c;
}

}  // namespace keras::cuda
