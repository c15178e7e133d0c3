#include "layers/preprocessing/colour_utils.h"

#include <algorithm>

#include "keras/ops/ops.h"

namespace keras::layers::preprocessing_detail {
namespace {

int channel_axis(const std::string& data_format) {
  return data_format == "channels_last" ? 3 : 1;
}

}  // namespace

Tensor image_channel(const Tensor& images, int64_t k, const std::string& data_format) {
  return ops::take(images, Tensor(k), channel_axis(data_format));
}

Tensor replace_channel(const Tensor& images, int64_t k, const Tensor& channel,
                       const std::string& data_format) {
  std::vector<Tensor> planes;
  for (int64_t c = 0; c < 3; ++c)
    planes.push_back(c == k ? channel : image_channel(images, c, data_format));
  return ops::stack(planes, channel_axis(data_format));
}

std::pair<double, double> sorted_pair(const std::pair<double, double>& p) {
  return {std::min(p.first, p.second), std::max(p.first, p.second)};
}

}  // namespace keras::layers::preprocessing_detail
