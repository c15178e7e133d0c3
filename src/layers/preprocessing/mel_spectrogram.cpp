#include "keras/layers/preprocessing/mel_spectrogram.h"

#include "keras/ops/math/fourier.h"
#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::layers {
namespace {

// The HTK mel scale: 1127 ln(1 + f / 700).
Tensor hertz_to_mel(const Tensor& hertz) {
  return ops::multiply(Tensor(1127.0),
                       ops::log(ops::add(Tensor(1.0), ops::divide(hertz, Tensor(700.0)))));
}

ops::StftWindow stft_window(const Config& window) {
  if (window.is_null()) return nullptr;
  check(window.is_string(), "MelSpectrogram: window must be \"hann\", \"hamming\" or null; got ",
        window.dump(), ".");
  return window.get<std::string>();
}

}  // namespace

MelSpectrogramLayer::MelSpectrogramLayer(MelSpectrogramOptions options)
    : Layer(base_options(options), "mel_spectrogram"), options_(std::move(options)) {
  auto& o = options_;
  if (!o.sequence_length) o.sequence_length = o.fft_length;
  check(o.fft_length >= *o.sequence_length,
        "MelSpectrogram: fft_length must be greater than or equal to sequence_length; got "
        "sequence_length=",
        *o.sequence_length, ", fft_length=", o.fft_length, ".");
  check(o.num_mel_bins >= 1 && o.sequence_stride >= 1,
        "MelSpectrogram: num_mel_bins and sequence_stride must be >= 1; got ", o.num_mel_bins,
        " and ", o.sequence_stride, ".");
  // Keras: max_freq or int(sampling_rate / 2).
  if (!o.max_freq || *o.max_freq == 0)
    o.max_freq = static_cast<double>(static_cast<int64_t>(o.sampling_rate / 2.0));
  stft_window(o.window);
}

Tensor MelSpectrogramLayer::linear_to_mel_weight_matrix(int64_t num_spectrogram_bins) const {
  // Computed in float32 as Keras does, whatever the layer's dtype.
  const DType f32 = DType::Float32;
  const int64_t mels = options_.num_mel_bins;
  auto scalar = [&](double v) { return ops::convert_to_tensor(Tensor(v), f32); };
  Tensor nyquist = ops::divide(scalar(static_cast<double>(options_.sampling_rate)), Tensor(2.0));
  Tensor linear = ops::linspace(scalar(0.0), nyquist, num_spectrogram_bins);
  Tensor bins_mel = ops::expand_dims(
      hertz_to_mel(ops::linalg_detail::slice_axis(linear, 0, 1, num_spectrogram_bins - 1)), 1);
  Tensor edges =
      ops::extract_sequences(ops::linspace(hertz_to_mel(scalar(options_.min_freq)),
                                           hertz_to_mel(scalar(*options_.max_freq)), mels + 2),
                             3, 1);
  auto column = [&](int64_t j) {
    return ops::reshape(ops::linalg_detail::slice_axis(edges, 1, j, 1), {1, mels});
  };
  Tensor lower = column(0), center = column(1), upper = column(2);
  Tensor lower_slopes = ops::divide(ops::subtract(bins_mel, lower), ops::subtract(center, lower));
  Tensor upper_slopes = ops::divide(ops::subtract(upper, bins_mel), ops::subtract(upper, center));
  Tensor weights = ops::maximum(scalar(0.0), ops::minimum(lower_slopes, upper_slopes));
  return ops::pad(weights, {{1, 0}, {0, 0}});
}

Tensor MelSpectrogramLayer::call(const Tensor& inputs, const CallContext&) {
  const auto& o = options_;
  const DType compute = compute_dtype();
  // Keras's stft takes float32 and float64 only.
  const DType dtype = compute == DType::Float64 ? compute : DType::Float32;
  Tensor x = ops::cast(inputs, dtype);
  auto [re, im] = ops::stft(x, *o.sequence_length, o.sequence_stride, o.fft_length,
                            stft_window(o.window), /*center=*/true);
  Tensor spec =
      ops::power(ops::sqrt(ops::add(ops::square(re), ops::square(im))), Tensor(o.mag_exp));
  Tensor mel = ops::tensordot(spec, linear_to_mel_weight_matrix(spec.shape().back()), 1);
  if (o.power_to_db) {
    const double ref = std::abs(o.ref_power);
    Tensor db = ops::multiply(Tensor(10.0), ops::log10(ops::maximum(mel, Tensor(o.min_power))));
    db = ops::subtract(db, Tensor(10.0 * std::log10(std::max(ref, o.min_power))));
    // The floor is top_db below the loudest value of the whole batch, as in Keras.
    mel = ops::maximum(db, ops::subtract(ops::max(db), Tensor(o.top_db)));
  }
  return ops::cast(ops::swapaxes(mel, -1, -2), compute);
}

Config MelSpectrogramLayer::get_config() const {
  Config c = Layer::get_config();
  const auto& o = options_;
  c["fft_length"] = o.fft_length;
  c["sequence_stride"] = o.sequence_stride;
  c["sequence_length"] = *o.sequence_length;
  c["window"] = o.window;
  c["sampling_rate"] = o.sampling_rate;
  c["num_mel_bins"] = o.num_mel_bins;
  c["min_freq"] = o.min_freq;
  c["max_freq"] = *o.max_freq;
  c["power_to_db"] = o.power_to_db;
  c["top_db"] = o.top_db;
  c["mag_exp"] = o.mag_exp;
  c["min_power"] = o.min_power;
  c["ref_power"] = o.ref_power;
  return c;
}

std::shared_ptr<Layer> MelSpectrogramLayer::from_config(const Config& c) {
  MelSpectrogramOptions o;
  read_base_config(c, o);
  o.fft_length = c.value("fft_length", o.fft_length);
  o.sequence_stride = c.value("sequence_stride", o.sequence_stride);
  if (c.contains("sequence_length") && !c["sequence_length"].is_null())
    o.sequence_length = c["sequence_length"].get<int64_t>();
  if (c.contains("window")) o.window = c["window"];
  o.sampling_rate = c.value("sampling_rate", o.sampling_rate);
  o.num_mel_bins = c.value("num_mel_bins", o.num_mel_bins);
  o.min_freq = c.value("min_freq", o.min_freq);
  if (c.contains("max_freq") && !c["max_freq"].is_null()) o.max_freq = c["max_freq"].get<double>();
  o.power_to_db = c.value("power_to_db", o.power_to_db);
  o.top_db = c.value("top_db", o.top_db);
  o.mag_exp = c.value("mag_exp", o.mag_exp);
  o.min_power = c.value("min_power", o.min_power);
  o.ref_power = c.value("ref_power", o.ref_power);
  return std::make_shared<MelSpectrogramLayer>(std::move(o));
}

LayerPtr<MelSpectrogramLayer> MelSpectrogram(MelSpectrogramOptions options) {
  return make_layer<MelSpectrogramLayer>(std::move(options));
}

}  // namespace keras::layers
