#pragma once
// The C++ twin of tools/keras_oracle/models.py's subclassed model, registered as
// "oracle>TwoTower" there and here: head(concat(left(x), right(x))). Its sublayers are tracked
// under the Python attribute names, so the saved weight paths are Keras's ("head", and
// "layers/dense", "layers/dense_1" for left and right, which sort after "layers"). Used by
// interop_models (files keras-cpp writes for Keras) and tests/oracle/files_test.cpp (files
// Keras wrote).

#include <memory>
#include <string>
#include <utility>

#include "keras/keras.h"

namespace keras::interop {

class TwoTower : public Model {
 public:
  explicit TwoTower(int64_t units = 8, LayerOptions options = {})
      : Model(std::move(options), "two_tower"), units_(units) {
    left_ = track("left", layers::Dense(units, {.activation = "relu"}));
    right_ = track("right", layers::Dense(units, {.activation = "tanh"}));
    head_ = track("head", layers::Dense(3));
  }
  std::string class_name() const override { return "TwoTower"; }
  Tensor call(const Tensor& x, const CallContext&) override {
    return head_(ops::concatenate({left_(x), right_(x)}, -1));
  }
  Config get_config() const override {
    Config c = Model::get_config();
    c["units"] = units_;
    return c;
  }
  static std::shared_ptr<Layer> from_config(const Config& c) {
    return make_layer<TwoTower>(c.value("units", int64_t{8}),
                                LayerOptions{.name = c.at("name").get<std::string>(),
                                             .trainable = c.value("trainable", true)});
  }

 private:
  int64_t units_;
  LayerPtr<layers::DenseLayer> left_, right_, head_;
};

}  // namespace keras::interop
