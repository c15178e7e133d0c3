#pragma once
// keras.layers.RepeatVector: (batch, features) -> (batch, n, features).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct RepeatVectorOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The RepeatVector layer (Keras's "RepeatVector").
class RepeatVectorLayer : public Layer {
 public:
  explicit RepeatVectorLayer(int64_t n, RepeatVectorOptions options = {});
  std::string class_name() const override { return "RepeatVector"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int64_t n() const { return n_; }

 private:
  int64_t n_;
};

/// A RepeatVector layer repeating its 2-d input `n` times along a new axis 1.
LayerPtr<RepeatVectorLayer> RepeatVector(int64_t n, RepeatVectorOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
