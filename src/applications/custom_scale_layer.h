#pragma once
// keras.src.applications.inception_resnet_v2.CustomScaleLayer: inputs[0] + inputs[1] * scale,
// the residual scaling of InceptionResNetV2's blocks. Keras does not export the class; its
// records name it by its source module ("keras.src.applications.inception_resnet_v2") and
// registered name "CustomScaleLayer", and keras-cpp reads and writes it the same way (it is a
// built-in layer here, so Keras's .keras files of InceptionResNetV2 load).

#include "keras/layers/options.h"

namespace keras::applications {

struct CustomScaleLayerOptions {
  std::string name;
  bool trainable = true;
  std::string dtype;
};

class CustomScaleLayer : public Layer {
 public:
  explicit CustomScaleLayer(double scale, CustomScaleLayerOptions options = {});
  std::string class_name() const override { return "CustomScaleLayer"; }
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  double scale() const { return scale_; }

 private:
  double scale_;
};

}  // namespace keras::applications
