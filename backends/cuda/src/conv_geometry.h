#pragma once
// How the cuda backend describes a keras-cpp convolution to cuDNN's Nd descriptors: tensors as
// dims and strides in (N, C, *spatial) order whatever Keras's data format, the filter in the
// memory order matching the input's layout, a 1-D convolution as a 2-D one of unit height.
// Plain integers, no cuDNN types: the tests check this on machines without cuDNN or a GPU.

#include "keras/backend/primitives.h"
#include "keras/core/shape.h"

namespace keras::cuda {

/// A tensor as cudnnSetTensorNdDescriptor takes it.
struct CudnnTensor {
  int rank = 0;
  int dims[5] = {};
  int strides[5] = {};
};

/// A convolution as cuDNN's descriptors take it.
struct CudnnConv {
  int spatial = 0;     // 2 or 3 (a 1-D convolution gets a unit height)
  CudnnTensor x, y;    // the input (already padded when the padding is not symmetric) and output
  int filter[5] = {};  // (O, C / groups, *k)
  bool filter_channels_last = true;  // memory (O, *k, C/g) (cuDNN's NHWC), else (O, C/g, *k)
  int pad[3] = {}, stride[3] = {}, dilation[3] = {};
  int groups = 1;
};

/// Whether the padding is the same before and after every spatial axis (the only padding cuDNN
/// applies itself; other paddings are written into a padded copy of the input).
bool symmetric_padding(const backend::ConvSpec& spec);

/// The shape of the input once padded explicitly (each spatial axis grows by its two paddings).
Shape padded_input_shape(const Shape& x, const backend::ConvSpec& spec);

/// The strides of a view of the kernel (*k, C/g, O) in the filter's memory order for `spec`'s
/// layout: (O, *k, C/g) for channels_last, (O, C/g, *k) for channels_first; with the view's
/// shape in `shape`.
Strides filter_view_strides(const Shape& kernel, const Strides& kernel_strides,
                            const backend::ConvSpec& spec, Shape* shape);

/// The descriptors of a convolution of input x (shape and strides, in spec's layout; padded
/// explicitly when `explicitly_padded`) and output y with a kernel of `kernel` shape. Throws
/// NotImplementedError when a size or stride passes cuDNN's 32-bit limit.
CudnnConv cudnn_conv(const Shape& x, const Strides& x_strides, const Shape& kernel, const Shape& y,
                     const Strides& y_strides, const backend::ConvSpec& spec,
                     bool explicitly_padded);

}  // namespace keras::cuda
