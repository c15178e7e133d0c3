#pragma once
// The adaptive pooling layers (Keras 3.12+'s BaseAdaptivePooling): AdaptiveAveragePooling1D/2D/3D
// and AdaptiveMaxPooling1D/2D/3D pool each spatial dimension down to a fixed output_size with
// PyTorch's windows (window i of n over L spans [floor(i L / n), ceil((i + 1) L / n))).

#include "keras/layers/options.h"
#include "keras/ops/nn/spatial.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of the adaptive pooling layers after output_size.
struct BaseAdaptivePoolingOptions {
  /// "channels_last" or "channels_first"; empty for keras::config::image_data_format().
  std::string data_format;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// Mean or maximum over adaptive windows of 1, 2 or 3 spatial dimensions.
class BaseAdaptivePoolingLayer : public Layer {
 public:
  /// `pool_mode` is "max" or "average".
  BaseAdaptivePoolingLayer(int rank, const std::string& pool_mode,
                           const ops::IntOrTuple& output_size, BaseAdaptivePoolingOptions options,
                           const std::string& class_name);
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  int rank() const { return rank_; }
  const std::string& pool_mode() const { return pool_mode_; }
  const std::vector<int64_t>& output_size() const { return output_size_; }
  const std::string& data_format() const { return data_format_; }

 protected:
  static std::tuple<ops::IntOrTuple, BaseAdaptivePoolingOptions> parse_config(const Config& config);

 private:
  std::string class_;
  int rank_;
  std::string pool_mode_;
  std::vector<int64_t> output_size_;
  std::string data_format_;
  BaseAdaptivePoolingOptions options_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
