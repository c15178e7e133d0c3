// keras.ops.image.extract_patches and extract_patches_3d: as in Keras, a convolution with an
// identity kernel of shape (*patch, C, prod(patch) * C), so patch element (i, j, c) lands in
// output channel (i * pw + j) * C + c and autograd differentiates it as a convolution.

#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "ops/image/image_common.h"

namespace keras::ops::image {
namespace {

std::vector<int64_t> patch_size(std::string_view op, const ops::IntOrTuple& size, size_t rank) {
  std::vector<int64_t> out(size.values().begin(), size.values().end());
  if (size.is_scalar()) out.assign(rank, out.at(0));
  check(out.size() == rank, op, ": size must be an int or a tuple of ", rank, " ints; got ",
        out.size(), " values.");
  for (int64_t v : out) check(v > 0, op, ": every patch size must be positive; got ", v, ".");
  return out;
}

Tensor patches(std::string_view op, const Tensor& images, const std::vector<int64_t>& size,
               const ExtractPatchesOptions& o) {
  const int spatial = static_cast<int>(size.size());
  check(images.defined(), op, ": the images are an undefined tensor.");
  check(images.ndim() == spatial + 1 || images.ndim() == spatial + 2, op,
        ": invalid images rank for ", spatial, "-d patches: expected rank ", spatial + 1,
        " (unbatched) or ", spatial + 2, " (batched); got images of shape ", images.shape(), ".");
  const std::string data_format = detail::standardize_data_format(op, o.data_format);
  const bool batched = images.ndim() == spatial + 2;
  Tensor x = batched ? images : expand_dims(images, 0);
  const int64_t channels = data_format == "channels_last" ? x.shape()[x.ndim() - 1] : x.shape()[1];
  int64_t patch = channels;
  for (int64_t v : size) patch *= v;
  // The identity kernel in the images' dtype; integer images go through float64, which holds
  // every int32 exactly (the convolution kernels are floating-point only).
  const DType dtype = images.dtype();
  const DType compute = is_floating(dtype) ? dtype : DType::Float64;
  Shape kernel_shape(size.begin(), size.end());
  kernel_shape.push_back(channels);
  kernel_shape.push_back(patch);
  Tensor kernel = reshape(eye(patch, std::nullopt, 0, compute), kernel_shape);
  ConvOptions conv_options{.strides = o.strides ? *o.strides : ops::IntOrTuple(size),
                           .padding = o.padding,
                           .data_format = data_format,
                           .dilation_rate = o.dilation_rate};
  Tensor out = conv(cast(x, compute), kernel, conv_options);
  if (!batched) out = squeeze(out, 0);
  return cast(out, dtype);
}

}  // namespace

Tensor extract_patches(const Tensor& images, const ops::IntOrTuple& size,
                       const ExtractPatchesOptions& options) {
  constexpr std::string_view op = "extract_patches";
  const size_t rank = size.is_scalar() ? 2 : size.values().size();
  check(rank == 2 || rank == 3, op,
        ": invalid size: expected an int or a tuple of length 2 or 3; got length ", rank, ".");
  return patches(op, images, patch_size(op, size, rank), options);
}

Tensor extract_patches_3d(const Tensor& volumes, const ops::IntOrTuple& size,
                          const ExtractPatchesOptions& options) {
  constexpr std::string_view op = "extract_patches_3d";
  return patches(op, volumes, patch_size(op, size, 3), options);
}

}  // namespace keras::ops::image
