#include "keras/quantizers/int4.h"

#include <string>
#include <vector>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::quantizers {
namespace {

int normalized_axis(int axis, int rank, const char* what) {
  check(axis >= -rank && axis < rank, what, ": axis ", axis, " is out of range for a tensor of rank ",
        rank, ".");
  return axis < 0 ? axis + rank : axis;
}

void require_packing_dtype(DType dtype, const char* what) {
  if (dtype != DType::Int8 && dtype != DType::UInt8)
    throw ValueError(std::string(what) + ": expected dtype to be 'int8' or 'uint8', but got '" +
                     std::string(dtype_name(dtype)) + "'.");
}

}  // namespace

Tensor pack_int4(const Tensor& x, int axis, DType dtype) {
  require_packing_dtype(dtype, "pack_int4");
  if (x.dtype() != dtype)
    throw TypeError("pack_int4: expected a " + std::string(dtype_name(dtype)) +
                    " tensor for packing, got " + std::string(dtype_name(x.dtype())) + ".");
  const Shape& shape = x.shape();
  const int a = normalized_axis(axis, shape.rank(), "pack_int4");
  // Viewed as (outer, n, inner) around the packed axis.
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < a; ++i) outer *= shape[static_cast<size_t>(i)];
  for (int i = a + 1; i < shape.rank(); ++i) inner *= shape[static_cast<size_t>(i)];
  const int64_t n = shape[static_cast<size_t>(a)], half = (n + 1) / 2;
  std::vector<uint8_t> in;
  if (dtype == DType::UInt8) {
    in = x.to_vector<uint8_t>();
  } else {
    const std::vector<int8_t> signed_in = x.to_vector<int8_t>();
    in.assign(signed_in.begin(), signed_in.end());  // two's complement bytes, as NumPy's astype
  }
  std::vector<uint8_t> out(static_cast<size_t>(outer * half * inner));
  // On the host, as Keras packs with NumPy (int8 shifts that overflow wrap there).
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < half; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t row) {
          return row < n ? in[static_cast<size_t>((o * n + row) * inner + i)] : uint8_t{0};
        };
        out[static_cast<size_t>((o * half + j) * inner + i)] =
            static_cast<uint8_t>((at(2 * j) & 0x0F) | ((at(2 * j + 1) & 0x0F) << 4));
      }
  std::vector<int64_t> dims(shape.begin(), shape.end());
  dims[static_cast<size_t>(a)] = half;
  const Shape packed_shape(dims.begin(), dims.end());
  if (dtype == DType::UInt8) return Tensor::from_vector(out, packed_shape);
  return Tensor::from_vector(std::vector<int8_t>(out.begin(), out.end()), packed_shape);
}

Tensor unpack_int4(const Tensor& packed, int64_t orig_len, int axis, DType dtype) {
  require_packing_dtype(dtype, "unpack_int4");
  if (packed.dtype() != DType::Int8 && packed.dtype() != DType::UInt8)
    throw TypeError("unpack_int4: expected an int8 or uint8 tensor for unpacking, got " +
                    std::string(dtype_name(packed.dtype())) + ".");
  const Shape& shape = packed.shape();
  const int a = normalized_axis(axis, shape.rank(), "unpack_int4");
  const int64_t half = shape[static_cast<size_t>(a)];
  check(orig_len >= 0 && (orig_len + 1) / 2 == half, "unpack_int4: orig_len ", orig_len,
        " does not match ", half, " packed entries along axis ", axis,
        " (expected ", 2 * half - 1, " or ", 2 * half, ").");
  // Keras's nibble split: x & 0xF (low) and (x >> 4) & 0xF (high), each made signed by
  // (v ^ 8) - 8 for int8 results.
  auto to_signed = [dtype](const Tensor& v) {
    return dtype == DType::Int8 ? ops::subtract(ops::bitwise_xor(v, 8), 8) : v;
  };
  Tensor low = to_signed(ops::bitwise_and(packed, 0x0F));
  Tensor high = to_signed(ops::bitwise_and(ops::right_shift(packed, 4), 0x0F));
  // Interleaved along `axis`: stacking after it and merging the two axes puts low, high in turn.
  Tensor both = ops::stack({low, high}, a + 1);
  std::vector<int64_t> dims(shape.begin(), shape.end());
  dims[static_cast<size_t>(a)] = 2 * half;
  Tensor unpacked = ops::reshape(both, Shape(dims.begin(), dims.end()));
  if (orig_len == 2 * half) return ops::cast(unpacked, dtype);
  dims[static_cast<size_t>(a)] = orig_len;
  return ops::cast(ops::slice(unpacked, std::vector<int64_t>(dims.size(), 0),
                              Shape(dims.begin(), dims.end())),
                   dtype);
}

GroupedQuantized abs_max_quantize_grouped_with_zero_point(const Tensor& x, int64_t block_size,
                                                          std::pair<double, double> value_range,
                                                          double epsilon) {
  check(x.ndim() == 2, "abs_max_quantize_grouped_with_zero_point: expected a 2-D tensor "
        "(input_dim, output_dim); got shape ", x.shape(), ".");
  check(block_size > 0, "abs_max_quantize_grouped_with_zero_point: block_size must be positive; "
        "got ", block_size, ".");
  const int64_t rows = x.shape()[0], columns = x.shape()[1];
  const int64_t groups = (rows + block_size - 1) / block_size;
  const auto [qmin, qmax] = value_range;
  // The same NumPy steps in x's dtype (Python scalars are weak, as in NumPy 2).
  Tensor padded = groups * block_size > rows
                      ? ops::pad(x, {{0, groups * block_size - rows}, {0, 0}})
                      : x;
  Tensor blocks = ops::reshape(padded, {groups, block_size, columns});
  Tensor min = ops::min(blocks, 1, /*keepdims=*/true), max = ops::max(blocks, 1, true);
  Tensor scale = (max - min + Tensor(epsilon)) / Tensor(qmax - qmin);
  Tensor zero = ops::clip(ops::round(ops::negative(min) / scale) + Tensor(qmin), qmin, qmax);
  Tensor values = ops::clip(ops::round(blocks / scale) + zero, qmin, qmax);
  values = ops::reshape(ops::cast(values, DType::Int8), {groups * block_size, columns});
  if (groups * block_size > rows) values = ops::slice(values, {0, 0}, {rows, columns});
  return {values, ops::squeeze(scale, 1), ops::cast(ops::squeeze(zero, 1), DType::Int8)};
}

Tensor dequantize_with_sz_map(const Tensor& values, const Tensor& scale, const Tensor& zero,
                              const Tensor& g_idx, int group_axis) {
  const int axis = group_axis < 0 ? group_axis + scale.ndim() : group_axis;
  check(g_idx.ndim() == 1 && axis >= 0 && axis < scale.ndim() && zero.shape() == scale.shape(),
        "dequantize_with_sz_map: expected a 1-d g_idx and scale and zero of one shape with "
        "group_axis in range; got g_idx ", g_idx.shape(), ", scale ", scale.shape(), ", zero ",
        zero.shape(), ", group_axis ", group_axis, ".");
  Tensor groups = ops::cast(g_idx, DType::Int32);
  // Keras's take, with the range checked by a guard rather than a host read, so a compiled
  // predict of an int4 model replays (g_idx holds group numbers: never negative).
  const int64_t count = scale.shape()[static_cast<size_t>(axis)];
  if (groups.size() > 0)
    // By value: a compiled predict replays the guard after this function has returned.
    ops::detail::check_range_on_host(groups, [count, group_axis, scale_shape = scale.shape()](
                                                 int64_t lo, int64_t hi) {
      check<IndexError>(lo >= 0 && hi < count, "dequantize_with_sz_map: g_idx holds group ",
                        lo < 0 ? lo : hi, " but there are ", count, " groups along axis ",
                        group_axis, " of scale ", scale_shape, "; g_idx must be in [0, ",
                        count, ").");
    });
  Tensor scales = ops::detail::index_select(scale, groups, axis);
  Tensor zeros = ops::cast(ops::detail::index_select(zero, groups, axis), scale.dtype());
  return (ops::cast(values, scale.dtype()) - zeros) * scales;
}

Tensor group_index(int64_t n, int64_t block_size) {
  return ops::floor_divide(ops::arange(0, n, 1, DType::Float32), Tensor(block_size));
}

void validate_int4_config(const QuantizationConfig& config) {
  const std::optional<int64_t>& block = config.block_size;
  check(!block || *block == -1 || *block > 0,
        "block_size must be None, -1, or a positive integer. Received: block_size=",
        block.value_or(0));
  const bool sub_channel = block && *block > 0;
  check(!(sub_channel && (config.weight_quantizer || config.activation_quantizer)),
        "Int4 sub-channel quantization (block_size > 0) does not support custom quantizers. "
        "Either set block_size to None or -1 for per-channel quantization, or remove the "
        "custom quantizer arguments. Received: block_size=", block.value_or(-1));
  if (config.weight_quantizer) {
    const auto& range = config.weight_quantizer->value_range;
    check(range.first == -8 && range.second == 7,
          "Int4QuantizationConfig requires a weight_quantizer with value_range=(-8, 7). "
          "Received: value_range=(", range.first, ", ", range.second, ")");
  }
}

QuantizationConfigPtr Int4QuantizationConfig(Int4QuantizationConfigOptions options) {
  auto config = std::make_shared<QuantizationConfig>();
  config->mode = "int4";
  config->block_size = options.block_size;
  config->weight_quantizer = std::move(options.weight_quantizer);
  config->activation_quantizer = std::move(options.activation_quantizer);
  validate_int4_config(*config);
  return config;
}

}  // namespace keras::quantizers
