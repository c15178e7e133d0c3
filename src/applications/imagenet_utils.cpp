// Facts from keras/src/applications/imagenet_utils.py (preprocess_input's three modes,
// decode_predictions' class index file).

#include "keras/applications/imagenet_utils.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "keras/saving/safe_json.h"

namespace keras::applications::imagenet_utils {
namespace {

// A per-channel constant shaped to broadcast against `x` along its channel axis.
Tensor per_channel(const std::vector<float>& values, const Tensor& x, bool channels_first) {
  Shape shape;
  shape.resize(static_cast<size_t>(x.ndim()), 1);
  if (channels_first) {
    shape[x.ndim() == 3 ? 0 : 1] = 3;
  } else {
    shape[x.ndim() - 1] = 3;
  }
  return ops::cast(ops::convert_to_tensor(values, shape), x.dtype());
}

Tensor scalar_like(float v, const Tensor& x) {
  return ops::cast(ops::convert_to_tensor(std::vector<float>{v}, Shape{}), x.dtype());
}

}  // namespace

Tensor preprocess_input(const Tensor& input, const std::string& data_format,
                        const std::string& mode) {
  check<ValueError>(mode == "caffe" || mode == "tf" || mode == "torch",
                    "Expected mode to be one of \"caffe\", \"tf\" or \"torch\". Received: mode=\"",
                    mode, "\".");
  const std::string format = data_format.empty() ? config::image_data_format() : data_format;
  check<ValueError>(format == "channels_first" || format == "channels_last",
                    "Expected data_format to be one of \"channels_first\" or \"channels_last\". "
                    "Received: data_format=\"", data_format, "\".");
  check<ValueError>(input.ndim() == 3 || input.ndim() == 4,
                    "preprocess_input expects one image (3-D) or a batch (4-D); received shape ",
                    input.shape().to_string(), ".");
  const bool first = format == "channels_first";
  const int channel_axis = first ? (input.ndim() == 3 ? 0 : 1) : input.ndim() - 1;
  check<ValueError>(input.shape()[channel_axis] == 3, "preprocess_input expects 3 colour "
                    "channels on axis ", channel_axis, " (", format, "); received shape ",
                    input.shape().to_string(), ".");
  Tensor x = is_floating(input.dtype()) ? input : ops::cast(input, config::floatx());
  if (mode == "tf") return x / scalar_like(127.5f, x) - scalar_like(1.0f, x);
  std::vector<float> mean;
  if (mode == "torch") {
    x = x / scalar_like(255.0f, x);
    mean = {0.485f, 0.456f, 0.406f};
  } else {
    x = ops::flip(x, {channel_axis});  // RGB -> BGR
    mean = {103.939f, 116.779f, 123.68f};
  }
  x = x - per_channel(mean, x, first);
  if (mode == "torch") x = x / per_channel({0.229f, 0.224f, 0.225f}, x, first);
  return x;
}

std::vector<std::vector<DecodedPrediction>> decode_predictions(
    const Tensor& preds, int top, const std::string& class_index_path) {
  check<ValueError>(preds.ndim() == 2 && preds.shape()[1] == 1000,
                    "`decode_predictions` expects a batch of predictions (i.e. a 2D array of "
                    "shape (samples, 1000)). Received array with shape: ",
                    preds.shape().to_string(), ".");
  check<ValueError>(top >= 1 && top <= 1000, "decode_predictions: top must be in [1, 1000]; "
                    "received ", top, ".");
  const std::string path =
      class_index_path.empty()
          ? (std::filesystem::path(config::keras_home()) / "models" / "imagenet_class_index.json")
                .string()
          : class_index_path;
  std::ifstream in(path);
  check<IOError>(static_cast<bool>(in), "decode_predictions: cannot read the ImageNet class "
                 "index ", path, ". keras-cpp never downloads: copy Keras's "
                 "imagenet_class_index.json there or pass its path.");
  std::stringstream text;
  text << in.rdbuf();
  const Config index = saving::parse_json(text.str(), path);
  const std::vector<float> scores = ops::cast(preds, DType::Float32).to_vector<float>();
  const int64_t rows = preds.shape()[0];
  std::vector<std::vector<DecodedPrediction>> out(static_cast<size_t>(rows));
  std::vector<int> order(1000);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = scores.data() + r * 1000;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row[a] > row[b]; });
    for (int k = 0; k < top; ++k) {
      const std::string key = std::to_string(order[k]);
      check<ValueError>(index.contains(key) && index[key].is_array() && index[key].size() == 2,
                        "decode_predictions: ", path, " has no class ", key,
                        " (expected {\"0\": [\"n01440764\", \"tench\"], ...}).");
      out[r].push_back({index[key][0].get<std::string>(), index[key][1].get<std::string>(),
                        row[order[k]]});
    }
  }
  return out;
}

}  // namespace keras::applications::imagenet_utils
