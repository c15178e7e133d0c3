#pragma once
// keras.layers.UpSampling1D: each step of (batch, steps, features) repeated `size` times.

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct UpSampling1DOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The UpSampling1D layer (Keras's "UpSampling1D").
class UpSampling1DLayer : public Layer {
 public:
  explicit UpSampling1DLayer(int64_t size = 2, UpSampling1DOptions options = {});
  std::string class_name() const override { return "UpSampling1D"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t size() const { return size_; }

 private:
  int64_t size_;
};

/// An UpSampling1D layer.
LayerPtr<UpSampling1DLayer> UpSampling1D(int64_t size = 2, UpSampling1DOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
