#pragma once
// The C++ twin of tools/keras_oracle/complex_scale.py's custom layer, registered as
// "oracle>ComplexScale" there and here: y = real(x * scale) + imag(x * rotor) + bias, with a
// complex64 `scale`, a non-trainable `rotor` of the complex dtype `rotor_dtype` and a float32
// `bias`, one per feature. Used by interop_models (files keras-cpp writes for Keras) and
// tests/oracle/complex_weights_test.cpp (files Keras wrote).

#include <memory>
#include <string>
#include <utility>

#include "keras/keras.h"

namespace keras::interop {

class ComplexScale : public Layer {
 public:
  explicit ComplexScale(DType rotor_dtype = DType::Complex64, LayerOptions options = {})
      : Layer(std::move(options), "complex_scale"), rotor_dtype_(rotor_dtype) {}
  std::string class_name() const override { return "ComplexScale"; }
  void build(const Shape& input_shape) override {
    const Shape features{input_shape.back()};
    scale_ = add_weight(
        {.shape = features, .initializer = "ones", .dtype = DType::Complex64, .name = "scale"});
    rotor_ = add_weight({.shape = features,
                         .initializer = "zeros",
                         .trainable = false,
                         .dtype = rotor_dtype_,
                         .name = "rotor"});
    bias_ = add_weight({.shape = features, .initializer = "zeros", .name = "bias"});
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    Tensor scaled = ops::real(ops::multiply(ops::cast(x, DType::Complex64), scale_));
    Tensor turned = ops::imag(ops::multiply(ops::cast(x, rotor_dtype_), rotor_));
    return ops::add(ops::add(scaled, ops::cast(turned, DType::Float32)), bias_);
  }
  Config get_config() const override {
    Config c = Layer::get_config();
    c["rotor_dtype"] = std::string(dtype_name(rotor_dtype_));
    return c;
  }
  static std::shared_ptr<Layer> from_config(const Config& c) {
    return make_layer<ComplexScale>(dtype_from_string(c.value("rotor_dtype", "complex64")),
                                    LayerOptions{.name = c.at("name").get<std::string>(),
                                                 .trainable = c.value("trainable", true)});
  }

 private:
  DType rotor_dtype_;
  Variable scale_, rotor_, bias_;
};

/// complex_scale.py's complex_scale(): a ComplexScale with complex64 weights, one with a
/// complex128 rotor, then a Dense layer (initial weights).
inline ModelPtr<Model> complex_scale_model() {
  return Sequential({Input({4}),
                     make_layer<ComplexScale>(DType::Complex64, LayerOptions{.name = "cs64"}),
                     make_layer<ComplexScale>(DType::Complex128, LayerOptions{.name = "cs128"}),
                     layers::Dense(3, {.name = "dense"})});
}

}  // namespace keras::interop
