// keras.ops.image.scale_and_translate, as jax.image.scale_and_translate: one (in, out) weight
// matrix per spatial axis, computed with ops from `scale` and `translation` (so they are
// differentiable too) and contracted with the images by a matmul.

#include <limits>
#include <numbers>

#include "keras/backend/registry.h"
#include "keras/core/promotion.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"

namespace keras::ops::image {
namespace {

using Kernel = Tensor (*)(const Tensor&);

Tensor triangle(const Tensor& x) {
  return maximum(subtract(1.0, absolute(x)), 0.0);
}

// Keys (1981) cubic convolution with a = -0.5.
Tensor keys_cubic(const Tensor& x) {
  Tensor near = add(multiply(multiply(subtract(multiply(x, 1.5), 2.5), x), x), 1.0);
  Tensor far = add(multiply(subtract(multiply(add(multiply(x, -0.5), 2.5), x), 4.0), x), 2.0);
  return where(greater_equal(x, 2.0), 0.0, where(greater_equal(x, 1.0), far, near));
}

template <int Radius>
Tensor lanczos(const Tensor& x) {
  constexpr double pi = std::numbers::pi;
  Tensor y = multiply(multiply(sin(multiply(x, pi)), sin(multiply(x, pi / Radius))),
                      static_cast<double>(Radius));
  Tensor denominator = where(not_equal(x, 0.0), multiply(square(x), pi * pi), 1.0);
  Tensor out = where(greater(x, 1e-3), divide(y, denominator), 1.0);
  return where(greater(x, static_cast<double>(Radius)), 0.0, out);
}

Kernel scale_kernel_for(const std::string& method) {
  if (method == "linear" || method == "bilinear" || method == "trilinear") return triangle;
  if (method == "cubic" || method == "bicubic" || method == "tricubic") return keys_cubic;
  if (method == "lanczos3") return lanczos<3>;
  if (method == "lanczos5") return lanczos<5>;
  throw ValueError(
      "scale_and_translate: method must be one of \"linear\", \"bilinear\", "
      "\"trilinear\", \"cubic\", \"bicubic\", \"tricubic\", \"lanczos3\", "
      "\"lanczos5\"; got \"" +
      method + "\".");
}

// The (in, out) weights: output index j samples input point (j + 0.5 - t) / s - 0.5; the
// kernel is widened by 1 / s when antialiasing a downsampling; each column is normalized and
// is zero where the point lies outside the input.
Tensor weight_matrix(int64_t in, int64_t out, const Tensor& scale, const Tensor& translation,
                     Kernel kernel, bool antialias) {
  const DType dtype = scale.dtype();
  Tensor inv_scale = divide(1.0, scale);
  Tensor sample =
      subtract(subtract(multiply(add(cast(arange(int64_t{0}, out), dtype), 0.5), inv_scale),
                        multiply(translation, inv_scale)),
               0.5);
  Tensor distance = absolute(
      subtract(expand_dims(sample, 0), expand_dims(cast(arange(int64_t{0}, in), dtype), 1)));
  if (antialias) distance = divide(distance, maximum(inv_scale, 1.0));
  Tensor weights = kernel(distance);
  Tensor total = sum(weights, 0, true);
  const double threshold = 1000.0 * std::numeric_limits<float>::epsilon();
  weights = where(greater(absolute(total), threshold),
                  divide(weights, where(not_equal(total, 0.0), total, 1.0)), 0.0);
  Tensor inside =
      logical_and(greater_equal(sample, -0.5), less_equal(sample, static_cast<double>(in) - 0.5));
  return where(expand_dims(inside, 0), weights, 0.0);
}

}  // namespace

Tensor scale_and_translate(const Tensor& images, const Shape& output_shape, const Tensor& scale,
                           const Tensor& translation, const std::vector<int>& spatial_dims,
                           const std::string& method, bool antialias) {
  constexpr std::string_view op = "scale_and_translate";
  const Kernel kernel = scale_kernel_for(method);
  check(images.defined() && scale.defined() && translation.defined(), op,
        ": an input is an undefined tensor.");
  const int rank = images.ndim();
  check(static_cast<int>(output_shape.size()) == rank, op,
        ": output_shape must have one entry per dimension of the images; got ", output_shape,
        " for images of shape ", images.shape(), ".");
  const int64_t k = static_cast<int64_t>(spatial_dims.size());
  check(scale.ndim() == 1 && scale.shape()[0] == k && translation.ndim() == 1 &&
            translation.shape()[0] == k,
        op, ": scale and translation must hold one number per spatial dim (", k, "); got shapes ",
        scale.shape(), " and ", translation.shape(), ".");
  backend::BackendScope on_input(images.backend_name());
  std::vector<bool> spatial(static_cast<size_t>(rank), false);
  for (int d : spatial_dims) {
    check(d >= -rank && d < rank, op, ": spatial dim ", d, " is out of range for images of rank ",
          rank, ".");
    spatial[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
  }
  for (int d = 0; d < rank; ++d)
    check(spatial[static_cast<size_t>(d)] || output_shape[d] == images.shape()[d], op,
          ": output_shape ", output_shape, " changes dimension ", d,
          ", which is not a spatial dim of images of shape ", images.shape(), ".");

  const DType weight_dtype = float_result_type(result_type({scale.dtype(), translation.dtype()}));
  Tensor s = cast(scale, weight_dtype), t = cast(translation, weight_dtype);
  Tensor x = cast(images, float_result_type(images.dtype()));
  for (int64_t i = 0; i < k; ++i) {
    const int d = spatial_dims[static_cast<size_t>(i)] < 0
                      ? spatial_dims[static_cast<size_t>(i)] + rank
                      : spatial_dims[static_cast<size_t>(i)];
    Tensor w = weight_matrix(x.shape()[d], output_shape[d], take(s, Tensor(i), 0),
                             take(t, Tensor(i), 0), kernel, antialias);
    // (..., in) @ (in, out) along axis d.
    x = moveaxis(matmul(moveaxis(x, d, -1), cast(w, x.dtype())), -1, d);
  }
  return x;
}

}  // namespace keras::ops::image
