#include "layers/convolutional/layer_args.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/layers/keras_tensor.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string values_string(const ops::IntOrTuple& v) {
  if (v.is_scalar()) return std::to_string(v.values()[0]);
  Tuple t(v.values().begin(), v.values().end());
  return tuple_string(t);
}

}  // namespace

Tuple standardize_tuple(const std::string& layer, const ops::IntOrTuple& value, int n,
                        const std::string& arg, bool allow_zero) {
  Tuple out;
  if (value.is_scalar())
    out.assign(static_cast<size_t>(n), value.values()[0]);
  else
    out.assign(value.values().begin(), value.values().end());
  check(static_cast<int>(out.size()) == n, layer, ": the `", arg,
        "` argument must be an int or a tuple of ", n, " integers; got ", arg, "=",
        values_string(value), ".");
  for (int64_t v : out)
    check(allow_zero ? v >= 0 : v > 0, layer, ": the `", arg, "` argument must have values ",
          allow_zero ? ">= 0" : "> 0", "; got ", arg, "=", values_string(value), ".");
  return out;
}

std::string standardize_padding(const std::string& layer, const std::string& padding,
                                bool allow_causal) {
  std::string p = lower(padding);
  const bool ok = p == "valid" || p == "same" || (allow_causal && p == "causal");
  check(ok, layer, ": the `padding` argument must be one of ",
        allow_causal ? "\"valid\", \"same\" or \"causal\"" : "\"valid\" or \"same\"", "; got \"",
        padding, "\".");
  return p;
}

std::string standardize_data_format(const std::string& layer, const std::string& data_format) {
  if (data_format.empty()) return config::image_data_format();
  std::string f = lower(data_format);
  check(f == "channels_last" || f == "channels_first", layer,
        ": the `data_format` argument must be \"channels_last\" or \"channels_first\"; got \"",
        data_format, "\".");
  return f;
}

int64_t conv_output_length(int64_t length, int64_t kernel, int64_t stride, int64_t dilation,
                           const std::string& padding) {
  if (length < 0) return -1;
  if (padding == "valid") {
    const int64_t span = length - dilation * (kernel - 1) - 1;
    // floor division for a negative span (the window does not fit)
    return (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  }
  return (length - 1) / stride + 1;  // "same" and "causal": ceil(length / stride)
}

int64_t conv_transpose_output_length(int64_t length, int64_t kernel, int64_t stride,
                                     int64_t dilation, const std::string& padding,
                                     std::optional<int64_t> output_padding) {
  if (length < 0) return -1;
  const int64_t window = (kernel - 1) * dilation + 1;
  if (padding == "valid")
    return (length - 1) * stride + window +
           output_padding.value_or(std::max(window, stride) - window);
  if (!output_padding) return length * stride;
  return (length - 1) * stride + window % 2 + *output_padding;
}

Tuple spatial_dims(const Shape& shape, bool channels_last) {
  const int r = shape.rank();
  Tuple out;
  for (int i = channels_last ? 1 : 2; i < (channels_last ? r - 1 : r); ++i) out.push_back(shape[i]);
  return out;
}

int64_t channel_dim(const Shape& shape, bool channels_last) {
  return channels_last ? shape[shape.rank() - 1] : shape[1];
}

void check_input_rank(const std::string& cls, const std::string& layer, const Shape& shape,
                      int spatial_rank) {
  check(shape.rank() == spatial_rank + 2, cls, " '", layer, "': expected inputs of rank ",
        spatial_rank + 2, " (batch, ", spatial_rank, " spatial ",
        spatial_rank == 1 ? "dimension" : "dimensions", " and channels); got shape ",
        shape_string(shape), ".");
}

std::string tuple_string(const Tuple& values) {
  std::ostringstream out;
  out << "(";
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  if (values.size() == 1) out << ",";
  out << ")";
  return out.str();
}

Config tuple_config(const Tuple& values) {
  Config c = Config::array();
  for (int64_t v : values) c.push_back(v);
  return c;
}

ops::IntOrTuple int_or_tuple(const Config& value) {
  if (value.is_number_integer()) return ops::IntOrTuple(value.get<int64_t>());
  check(value.is_array(), "Expected an int or a list of ints in the layer config; got ",
        value.dump(), ".");
  std::vector<int64_t> v;
  for (const Config& x : value) {
    check(x.is_number_integer(), "Expected an int or a list of ints in the layer config; got ",
          value.dump(), ".");
    v.push_back(x.get<int64_t>());
  }
  return ops::IntOrTuple(v);
}

Tensor autocast(const Tensor& x, DType dtype) {
  return is_floating(x.dtype()) && x.dtype() != dtype ? ops::cast(x, dtype) : x;
}

}  // namespace keras::layers::detail
