// The cuda backend's convolutions through cuDNN (cudnn_conv.h), built when CMake finds cuDNN:
// the operands packed in the work dtype, the kernel in cuDNN's filter order, explicit padding
// where cuDNN's symmetric padding cannot express Keras's.

#include "cuda_backend.h"

#include <vector>

#ifdef KERAS_CUDA_WITH_CUDNN
#include "conv_geometry.h"

namespace keras::cuda {
namespace {

// Runs a convolution direction with the dtype cuDNN computes `dtype` in: its own for floating
// dtypes (float16 and bfloat16 accumulate in float32, as the cpu backend computes them), float32
// for the rest; a half-precision problem cuDNN has no algorithm for runs in float32.
template <typename Run>
void with_conv_work(DType dtype, Run run) {
  const bool half = dtype == DType::Float16 || dtype == DType::BFloat16;
  if (!half) return run(dtype == DType::Float64 ? DType::Float64 : DType::Float32);
  try {
    run(dtype);
  } catch (const NotImplementedError&) {  // no algorithm wrote anything
    run(DType::Float32);
  }
}

// The part of the explicitly padded `padded` that holds an unpadded array of `shape`.
Array interior(const Array& padded, const Shape& shape, const backend::ConvSpec& spec) {
  Array v = padded;
  v.shape = shape;
  const int first = spec.channels_last ? 1 : 2;
  for (int i = 0; i < spec.spatial_dims; ++i)
    v.offset += spec.pad_before[i] * padded.strides[first + i];
  return v;
}

}  // namespace

// x packed in `work`; written into a zero-padded copy when cuDNN cannot pad it itself.
Array CudaBackend::conv_input(const Array& x, const backend::ConvSpec& spec, DType work) {
  if (symmetric_padding(spec)) return packed(x, work);
  Array p = empty(padded_input_shape(x.shape, spec), work);
  fill(p, Scalar(0));
  copy(interior(p, x.shape, spec), x, backend::CopyMode::Assign);
  return p;
}

// The kernel (*k, C/g, O) packed in the filter's memory order, in `work`.
Array CudaBackend::conv_filter(const Array& kernel, const backend::ConvSpec& spec, DType work) {
  Array view = kernel;
  view.strides = filter_view_strides(kernel.shape, kernel.strides, spec, &view.shape);
  return contiguous(view, view.shape, work);
}

// out (N, *o, O) = conv(x, kernel): cuDNN on packed operands in the work dtype (the output
// written directly when it is packed and of that dtype).
void CudaBackend::conv(const Array& out, const Array& x, const Array& kernel,
                       const backend::ConvSpec& spec) {
  select_device();
  with_conv_work(out.dtype, [&](DType work) { conv_in(out, x, kernel, spec, work); });
}

void CudaBackend::conv_in(const Array& out, const Array& x, const Array& kernel,
                          const backend::ConvSpec& spec, DType work) {
  const Array in = conv_input(x, spec, work), w = conv_filter(kernel, spec, work);
  const bool direct = out.dtype == work && out.is_contiguous();
  const Array y = direct ? out : empty(out.shape, work);
  const CudnnConv c = cudnn_conv(in.shape, in.strides, kernel.shape, y.shape, y.strides, spec,
                                 !symmetric_padding(spec));
  std::vector<Ref<backend::Storage>> scratch;
  cudnn_.forward(c, work, operand(in).base, operand(w).base, operand(y).base,
                 scratch_into(scratch));
  if (!direct) copy(out, y, backend::CopyMode::Assign);
}

// dx from dy and the kernel; with explicit padding cuDNN writes the padded gradient, whose
// interior is dx.
void CudaBackend::conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                      const backend::ConvSpec& spec) {
  select_device();
  with_conv_work(dx.dtype, [&](DType work) { conv_backward_input_in(dx, dy, kernel, spec, work); });
}

void CudaBackend::conv_backward_input_in(const Array& dx, const Array& dy, const Array& kernel,
                                         const backend::ConvSpec& spec, DType work) {
  const bool pad = !symmetric_padding(spec);
  const Array g = packed(dy, work), w = conv_filter(kernel, spec, work);
  const bool direct = !pad && dx.dtype == work && dx.is_contiguous();
  const Array d = direct ? dx : empty(pad ? padded_input_shape(dx.shape, spec) : dx.shape, work);
  const CudnnConv c = cudnn_conv(d.shape, d.strides, kernel.shape, g.shape, g.strides, spec, pad);
  std::vector<Ref<backend::Storage>> scratch;
  cudnn_.backward_data(c, work, operand(g).base, operand(w).base, operand(d).base,
                       scratch_into(scratch));
  if (!direct) copy(dx, pad ? interior(d, dx.shape, spec) : d, backend::CopyMode::Assign);
}

// dkernel from x and dy: cuDNN writes the filter in its memory order, copied into dkernel's
// (*k, C/g, O) through a view in that order.
void CudaBackend::conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                       const backend::ConvSpec& spec) {
  select_device();
  with_conv_work(dkernel.dtype,
                 [&](DType work) { conv_backward_kernel_in(dkernel, x, dy, spec, work); });
}

void CudaBackend::conv_backward_kernel_in(const Array& dkernel, const Array& x, const Array& dy,
                                          const backend::ConvSpec& spec, DType work) {
  const Array in = conv_input(x, spec, work), g = packed(dy, work);
  Array target = dkernel;
  target.strides = filter_view_strides(dkernel.shape, dkernel.strides, spec, &target.shape);
  const Array dw = empty(target.shape, work);
  const CudnnConv c = cudnn_conv(in.shape, in.strides, dkernel.shape, g.shape, g.strides, spec,
                                 !symmetric_padding(spec));
  std::vector<Ref<backend::Storage>> scratch;
  cudnn_.backward_filter(c, work, operand(in).base, operand(g).base, operand(dw).base,
                         scratch_into(scratch));
  copy(target, dw, backend::CopyMode::Assign);
}

}  // namespace keras::cuda
#endif  // KERAS_CUDA_WITH_CUDNN
