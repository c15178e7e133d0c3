// keras.layers.STFTSpectrogram and MelSpectrogram against Keras 3.15 itself
// (tools/keras_oracle/fft.py -> tests/oracle/fixtures/fft_layers.npz): each layer is rebuilt from
// the config Keras wrote (through the layer registry), called on the same input, and its output,
// kernels (keras.initializers.STFT) and config compared with Keras's.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/initializers/stft.h"
#include "keras/keras.h"
#include "keras/layers/preprocessing/mel_spectrogram.h"
#include "keras/layers/preprocessing/stft_spectrogram.h"
#include "keras/layers/registry.h"
#include "keras/ops/math/fourier.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

TensorList rebuild_and_call(const std::string& class_name, const TensorList& in, const json& kw) {
  auto layer = layers::from_config(class_name, kw["config"]);
  TensorList out{(*layer)(in[0])};
  for (const Variable& w : layer->weights()) out.push_back(w.value());
  Config written = layer->get_config();
  for (const auto& key : kw["keys"])
    EXPECT_EQ(written[key.get<std::string>()], kw["config"][key.get<std::string>()])
        << class_name << " config key " << key;
  return out;
}

TEST(Spectrogram, MatchesKeras) {
  GoldenOps ops;
  for (const char* name : {"STFTSpectrogram", "MelSpectrogram"})
    ops[name] = [name](const TensorList& in, const json& kw) {
      return rebuild_and_call(name, in, kw);
    };
  auto exercised = test::run_oracle("fft_layers", ops);
  EXPECT_EQ(exercised.size(), 2u);
}

TEST(Spectrogram, StftModeMatchesOpsStft) {
  // The layer's "stft" mode (a strided convolution with STFT kernels) against ops::stft (KISS
  // FFT): same frames without centring, no scaling, symmetric vs periodic windows made equal.
  Tensor x = ops::reshape(ops::sin(ops::arange(0, 96, 1, DType::Float64)), {1, 96, 1});
  auto layer = layers::STFTSpectrogram({.mode = "stft",
                                        .frame_length = 16,
                                        .frame_step = 8,
                                        .periodic = true,
                                        .scaling = std::nullopt,
                                        .dtype = "float64"});
  Tensor y = (*layer)(x);  // (1, frames, 2 * bins): real bins then imaginary bins
  auto [re, im] = ops::stft(ops::reshape(x, {96}), 16, 8, 16, "hann", false);
  Tensor expected = ops::concatenate({re, im}, -1);
  EXPECT_TRUE(ops::allclose(ops::squeeze(y), expected, 1e-9, 1e-9).item<bool>());
}

TEST(Spectrogram, BadArgumentsNameTheFix) {
  EXPECT_THROW(layers::STFTSpectrogram({.mode = "power"}), ValueError);
  EXPECT_THROW(layers::STFTSpectrogram({.frame_length = 8, .frame_step = 9}), ValueError);
  EXPECT_THROW(layers::STFTSpectrogram({.frame_length = 8, .fft_length = 4}), ValueError);
  EXPECT_THROW(layers::STFTSpectrogram({.window = "kaiser"}), ValueError);
  EXPECT_THROW(layers::STFTSpectrogram({.padding = "causal"}), ValueError);
  EXPECT_THROW(layers::MelSpectrogram({.fft_length = 128, .sequence_length = 256}), ValueError);
  EXPECT_THROW(initializers::STFT("both"), ValueError);
  auto spec = layers::STFTSpectrogram({.frame_length = 8});
  EXPECT_THROW((*spec)(ops::zeros({2, 32})), ValueError);  // not 3-d
  auto stft = initializers::get("STFTInitializer");
  EXPECT_EQ(stft->class_name(), "STFT");
  EXPECT_EQ(initializers::serialize(*stft)["config"]["window"], "hann");
}

}  // namespace
}  // namespace keras
