#include "keras/layers/preprocessing/stft_spectrogram.h"

#include <algorithm>

#include "keras/core/config.h"
#include "keras/initializers/stft.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "ops/linalg/common.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

namespace {

constexpr const char* kModes[] = {"log", "magnitude", "psd", "real", "imag", "angle", "stft"};

int64_t next_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

STFTSpectrogramLayer::STFTSpectrogramLayer(STFTSpectrogramOptions options)
    : Layer(base_options(options), "stft_spectrogram"), options_(std::move(options)) {
  const auto& o = options_;
  check(o.frame_length >= 1, "STFTSpectrogram: frame_length must be >= 1; got ", o.frame_length,
        ".");
  check(!o.frame_step || (*o.frame_step >= 1 && *o.frame_step <= o.frame_length),
        "STFTSpectrogram: frame_step should be a positive integer not greater than frame_length;"
        " got frame_step=",
        o.frame_step.value_or(0), ", frame_length=", o.frame_length, ".");
  check(!o.fft_length || *o.fft_length >= o.frame_length,
        "STFTSpectrogram: fft_length should be not less than frame_length; got fft_length=",
        o.fft_length.value_or(0), ", frame_length=", o.frame_length, ".");
  check(std::find(std::begin(kModes), std::end(kModes), o.mode) != std::end(kModes),
        "STFTSpectrogram: mode must be one of log, magnitude, psd, real, imag, angle, stft; got \"",
        o.mode, "\".");
  check(o.padding == "valid" || o.padding == "same",
        "STFTSpectrogram: padding must be \"valid\" or \"same\"; got \"", o.padding, "\".");
  // The initializer checks the window and the scaling now, as Keras's constructor does.
  initializers::STFT("real", o.window, o.scaling, o.periodic);
  frame_step_ = o.frame_step.value_or(o.frame_length / 2);
  fft_length_ = o.fft_length.value_or(next_power_of_two(o.frame_length));
  options_.data_format = pd::standardize_data_format("STFTSpectrogram", o.data_format);
}

void STFTSpectrogramLayer::build(const Shape& input_shape) {
  check(input_shape.rank() == 3, "STFTSpectrogram '", name(),
        "': inputs must be 3-d (batch, time, channels) or (batch, channels, time); got shape ",
        input_shape, ".");
  const Shape shape{options_.frame_length, 1, fft_length_ / 2 + 1};
  auto kernel = [&](const char* side) {
    return add_weight({.shape = shape,
                       .initializer = std::make_shared<initializers::STFT>(
                           side, options_.window, options_.scaling, options_.periodic),
                       .name = std::string(side) + "_kernel"});
  };
  if (options_.mode != "imag") real_kernel_ = kernel("real");
  if (options_.mode != "real") imag_kernel_ = kernel("imag");
}

Tensor STFTSpectrogramLayer::apply_conv(const Tensor& inputs, const Variable& kernel) const {
  const bool last = options_.data_format == "channels_last";
  const int64_t channels = inputs.shape()[last ? 2 : 1], time = inputs.shape()[last ? 1 : 2];
  // Every channel is a separate signal of one channel.
  Tensor x = last ? ops::reshape(ops::transpose(inputs, {0, 2, 1}), {-1, time, 1})
                  : ops::reshape(inputs, {-1, 1, time});
  Tensor y = ops::conv(
      x, ops::cast(kernel.value(), inputs.dtype()),
      {.strides = frame_step_, .padding = options_.padding, .data_format = options_.data_format});
  if (last) y = ops::transpose(y, {0, 2, 1});
  return ops::reshape(y, {-1, channels, y.shape()[1], y.shape()[2]});
}

Tensor STFTSpectrogramLayer::adjust_shapes(const Tensor& outputs) const {
  const int64_t channels = outputs.shape()[1], bins = outputs.shape()[2],
                frames = outputs.shape()[3];
  if (options_.data_format == "channels_last") {
    if (options_.expand_dims) return ops::transpose(outputs, {0, 3, 2, 1});
    return ops::transpose(ops::reshape(outputs, {-1, channels * bins, frames}), {0, 2, 1});
  }
  if (options_.expand_dims) return ops::transpose(outputs, {0, 1, 3, 2});
  return ops::reshape(outputs, {-1, channels * bins, frames});
}

Tensor STFTSpectrogramLayer::call(const Tensor& inputs, const CallContext&) {
  const DType dtype = inputs.dtype();
  check<TypeError>(dtype == DType::Float16 || dtype == DType::Float32 || dtype == DType::Float64,
                   "STFTSpectrogram '", name(),
                   "': inputs must be float16, float32 or float64; got ", dtype_name(dtype), ".");
  const std::string& mode = options_.mode;
  Tensor real = mode != "imag" ? apply_conv(inputs, real_kernel_) : Tensor();
  Tensor imag = mode != "real" ? apply_conv(inputs, imag_kernel_) : Tensor();
  if (mode == "real") return adjust_shapes(real);
  if (mode == "imag") return adjust_shapes(imag);
  if (mode == "angle") return adjust_shapes(ops::arctan2(imag, real));
  if (mode == "stft") return adjust_shapes(ops::concatenate({real, imag}, 2));
  Tensor power = ops::add(ops::square(real), ops::square(imag));
  if (mode == "psd") {
    // One-sided density: every bin but the first and the last counts twice.
    Tensor inner = ops::linalg_detail::slice_axis(power, 2, 1, power.shape()[2] - 2);
    return adjust_shapes(ops::add(power, ops::pad(inner, {{0, 0}, {0, 0}, {1, 1}, {0, 0}})));
  }
  const Tensor eps(config::epsilon());
  Tensor linear = adjust_shapes(ops::sqrt(ops::maximum(power, eps)));
  if (mode == "magnitude") return linear;
  return ops::log(ops::maximum(linear, eps));
}

Config STFTSpectrogramLayer::get_config() const {
  Config c = Layer::get_config();
  const auto& o = options_;
  c["mode"] = o.mode;
  c["frame_length"] = o.frame_length;
  c["frame_step"] = o.frame_step ? Config(*o.frame_step) : Config(nullptr);
  c["fft_length"] = o.fft_length ? Config(*o.fft_length) : Config(nullptr);
  c["window"] = o.window;
  c["periodic"] = o.periodic;
  c["scaling"] = o.scaling ? Config(*o.scaling) : Config(nullptr);
  c["padding"] = o.padding;
  c["data_format"] = o.data_format;
  c["expand_dims"] = o.expand_dims;
  return c;
}

std::shared_ptr<Layer> STFTSpectrogramLayer::from_config(const Config& c) {
  STFTSpectrogramOptions o;
  read_base_config(c, o);
  auto optional_int = [&](const char* key) -> std::optional<int64_t> {
    if (!c.contains(key) || c[key].is_null()) return std::nullopt;
    return c[key].get<int64_t>();
  };
  o.mode = c.value("mode", o.mode);
  o.frame_length = c.value("frame_length", o.frame_length);
  o.frame_step = optional_int("frame_step");
  o.fft_length = optional_int("fft_length");
  if (c.contains("window")) o.window = c["window"];
  o.periodic = c.value("periodic", o.periodic);
  if (c.contains("scaling"))
    o.scaling = c["scaling"].is_null()
                    ? std::nullopt
                    : std::optional<std::string>(c["scaling"].get<std::string>());
  o.padding = c.value("padding", o.padding);
  o.expand_dims = c.value("expand_dims", o.expand_dims);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<STFTSpectrogramLayer>(std::move(o));
}

LayerPtr<STFTSpectrogramLayer> STFTSpectrogram(STFTSpectrogramOptions options) {
  return make_layer<STFTSpectrogramLayer>(std::move(options));
}

}  // namespace keras::layers
