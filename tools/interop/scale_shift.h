#pragma once
// The C++ twin of tools/keras_oracle/models.py's custom layer, registered as "oracle>ScaleShift"
// there and here: y = factor * (x * scale + shift), one scale and shift per feature. Used by
// interop_models (files keras-cpp writes for Keras) and tests/oracle/files_test.cpp (files Keras
// wrote).

#include <memory>
#include <string>
#include <utility>

#include "keras/keras.h"

namespace keras::interop {

class ScaleShift : public Layer {
 public:
  explicit ScaleShift(double factor, LayerOptions options = {})
      : Layer(std::move(options), "scale_shift"), factor_(factor) {}
  std::string class_name() const override { return "ScaleShift"; }
  void build(const Shape& input_shape) override {
    scale_ = add_weight({.shape = {input_shape.back()}, .initializer = "ones", .name = "scale"});
    shift_ = add_weight({.shape = {input_shape.back()}, .initializer = "zeros", .name = "shift"});
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    return ops::multiply(ops::add(ops::multiply(x, scale_), shift_), factor_);
  }
  Config get_config() const override {
    Config c = Layer::get_config();
    c["factor"] = factor_;
    return c;
  }
  static std::shared_ptr<Layer> from_config(const Config& c) {
    return make_layer<ScaleShift>(c.at("factor").get<double>(),
                                  LayerOptions{.name = c.at("name").get<std::string>(),
                                               .trainable = c.value("trainable", true)});
  }

 private:
  double factor_;
  Variable scale_, shift_;
};

}  // namespace keras::interop
