#include "ops/image/image_common.h"

#include "keras/core/config.h"
#include "keras/ops/ops.h"

namespace keras::ops::image::detail {

std::string standardize_data_format(std::string_view op, const std::string& data_format) {
  if (data_format.empty()) return config::image_data_format();
  check(data_format == "channels_last" || data_format == "channels_first", op,
        ": data_format must be \"channels_last\" or \"channels_first\"; got \"", data_format,
        "\".");
  return data_format;
}

void check_image_rank(std::string_view op, const Tensor& images) {
  check(images.defined(), op, ": the images are an undefined tensor.");
  check(images.ndim() == 3 || images.ndim() == 4, op,
        ": invalid images rank: expected rank 3 (single image) or rank 4 (batch of images); "
        "got images of shape ",
        images.shape(), ".");
}

std::pair<int, int> spatial_axes(int rank, const std::string& data_format) {
  return data_format == "channels_last" ? std::pair{rank - 3, rank - 2}
                                        : std::pair{rank - 2, rank - 1};
}

void check_fill_mode(std::string_view op, const std::string& fill_mode) {
  check(fill_mode == "constant" || fill_mode == "nearest" || fill_mode == "wrap" ||
            fill_mode == "mirror" || fill_mode == "reflect",
        op,
        ": fill_mode must be one of \"constant\", \"nearest\", \"wrap\", \"mirror\", "
        "\"reflect\"; got \"",
        fill_mode, "\".");
}

DType interpolation_dtype(DType images_dtype) {
  if (images_dtype == DType::Float32 || images_dtype == DType::Float64) return images_dtype;
  return DType::Float32;
}

Tensor restore_dtype(const Tensor& result, DType dtype) {
  if (result.dtype() == dtype) return result;
  if (is_integer(dtype) || dtype == DType::Bool) {
    Tensor rounded = where(greater_equal(result, 0.0), floor(add(result, 0.5)),
                           ceil(subtract(result, 0.5)));
    return cast(rounded, dtype);
  }
  return cast(result, dtype);
}

namespace {

// The triangular wave that reflects about the centres of the edge pixels:
// |((i + s) mod 2s) - s|, s = size - 1 (jax.scipy.ndimage's mirror index fixer).
Tensor mirror_index(const Tensor& index, int64_t size) {
  if (size <= 1) return zeros_like(index);
  const int64_t s = size - 1;
  return absolute(subtract(mod(add(index, Tensor(s)), Tensor(2 * s)), Tensor(s)));
}

Tensor fix_index(const Tensor& index, int64_t size, const std::string& mode) {
  if (mode == "constant" || mode == "nearest") return clip(index, int64_t{0}, size - 1);
  if (mode == "wrap") return mod(index, Tensor(size));
  if (mode == "mirror") return mirror_index(index, size);
  // "reflect": reflect about the pixel edges, (mirror(2 i + 1, 2 size + 1) - 1) // 2.
  Tensor doubled = add(multiply(index, Tensor(int64_t{2})), Tensor(int64_t{1}));
  return floor_divide(subtract(mirror_index(doubled, 2 * size + 1), Tensor(int64_t{1})),
                      Tensor(int64_t{2}));
}

Neighbour make_neighbour(const Tensor& raw, int64_t size, const std::string& mode,
                         const Tensor& weight) {
  Neighbour n;
  n.index = fix_index(raw, size, mode);
  if (mode == "constant")
    n.valid = logical_and(greater_equal(raw, Tensor(int64_t{0})), less(raw, Tensor(size)));
  n.weight = weight;
  return n;
}

}  // namespace

std::vector<Neighbour> neighbours(const Tensor& coordinate, int64_t size, int order,
                                  const std::string& fill_mode) {
  // Far-away, infinite or NaN coordinates become a far-away finite one, so the int64 index
  // arithmetic below cannot overflow (the point is outside the image either way).
  constexpr double kFar = 1e9;
  Tensor c = clip(nan_to_num(coordinate, -kFar, kFar, -kFar), -kFar, kFar);
  if (order == 0) {
    Tensor rounded = where(greater_equal(c, 0.0), floor(add(c, 0.5)), ceil(subtract(c, 0.5)));
    return {make_neighbour(cast(rounded, DType::Int64), size, fill_mode, Tensor())};
  }
  Tensor lower = floor(c);
  Tensor upper_weight = subtract(c, lower);
  Tensor lower_weight = subtract(1.0, upper_weight);
  Tensor index = cast(lower, DType::Int64);
  return {make_neighbour(index, size, fill_mode, lower_weight),
          make_neighbour(add(index, Tensor(int64_t{1})), size, fill_mode, upper_weight)};
}

}  // namespace keras::ops::image::detail
