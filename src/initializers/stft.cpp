// keras.initializers.STFT, computed as Keras computes it (the same ops in the same dtype, so
// float32 kernels round as Keras's do).

#include "keras/initializers/stft.h"

#include "keras/ops/ops.h"
#include "ops/math/fourier_common.h"

namespace keras::initializers {

STFT::STFT(std::string side, Config window, std::optional<std::string> scaling, bool periodic)
    : side_(std::move(side)),
      window_(std::move(window)),
      scaling_(std::move(scaling)),
      periodic_(periodic) {
  check(side_ == "real" || side_ == "imag",
        "STFT initializer: side must be \"real\" or \"imag\"; got \"", side_, "\".");
  check(!scaling_ || *scaling_ == "density" || *scaling_ == "spectrum",
        "STFT initializer: scaling must be \"density\", \"spectrum\" or none; got \"",
        scaling_.value_or(""), "\".");
  check(window_.is_null() || window_.is_string() || window_.is_array(),
        "STFT initializer: window must be a name (\"hann\", \"hamming\"), an array or null; got ",
        window_.dump(), ".");
  if (window_.is_string())  // fails now, as Keras's get_window(window, 1) does
    ops::fourier_detail::named_window("STFT initializer", window_.get<std::string>(), 1, true,
                                      DType::Float64, {});
}

Tensor STFT::window_values(int64_t length, DType dtype) const {
  if (window_.is_null()) return {};
  Tensor w = window_.is_string()
                 ? ops::fourier_detail::named_window("STFT initializer", window_.get<std::string>(),
                                                     length, periodic_, dtype, {})
                 : ops::convert_to_tensor(window_.get<std::vector<double>>(),
                                          Shape{static_cast<int64_t>(window_.size())})
                       .astype(dtype);
  check(w.ndim() == 1 && w.shape()[0] == length,
        "STFT initializer: the window must have shape (frame_length,) = (", length, ",); got ",
        w.shape(), ".");
  return w;
}

Tensor STFT::operator()(const Shape& shape, DType dtype) const {
  check(shape.rank() == 3 && shape[2] >= 2,
        "STFT initializer: the shape must be (frame_length, input_channels, bins) with bins >= "
        "2; got ",
        shape, ".");
  const int64_t length = shape[0], bins = shape[2];
  const double fft_length = static_cast<double>((bins - 1) * 2);
  Tensor freq =
      ops::divide(ops::reshape(ops::arange(0, bins, 1, dtype), {1, 1, bins}), Tensor(fft_length));
  Tensor time = ops::reshape(ops::arange(0, length, 1, dtype), {length, 1, 1});
  Tensor args = ops::multiply(ops::multiply(ops::multiply(Tensor(-2), time), freq),
                              ops::arccos(ops::convert_to_tensor(Tensor(-1.0), dtype)));
  Tensor kernel = side_ == "real" ? ops::cos(args) : ops::sin(args);
  Tensor win = window_values(length, dtype);
  if (!win.defined()) return kernel;
  win = ops::reshape(win, {length, 1, 1});
  Tensor scaling = Tensor(1);
  if (scaling_ == "density") scaling = ops::sqrt(ops::sum(ops::square(win)));
  if (scaling_ == "spectrum") scaling = ops::sum(ops::absolute(win));
  return ops::divide(ops::multiply(kernel, win), scaling);
}

Config STFT::get_config() const {
  return {{"side", side_},
          {"window", window_},
          {"periodic", periodic_},
          {"scaling", scaling_ ? Config(*scaling_) : Config(nullptr)}};
}

std::shared_ptr<STFT> STFT::from_config(const Config& c) {
  std::optional<std::string> scaling = "density";
  if (c.contains("scaling"))
    scaling = c["scaling"].is_null() ? std::nullopt
                                     : std::optional<std::string>(c["scaling"].get<std::string>());
  return std::make_shared<STFT>(c.value("side", std::string("real")),
                                c.contains("window") ? c["window"] : Config("hann"), scaling,
                                c.value("periodic", false));
}

}  // namespace keras::initializers
