#pragma once
// keras::Model: a layer made of layers. Subclass it (override call(), track sublayers) for a
// custom model; keras::Functional and keras::Sequential build the other two kinds.
//
//   class Mlp : public keras::Model {
//    public:
//     Mlp() {
//       hidden_ = track("hidden", keras::layers::Dense(64, {.activation = "relu"}));
//       out_ = track("out", keras::layers::Dense(10));
//     }
//     keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
//       return out_(hidden_(x));
//     }
//    private:
//     keras::LayerPtr<keras::layers::DenseLayer> hidden_, out_;
//   };

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/layer.h"

namespace keras {

/// model.summary()'s keyword arguments.
struct SummaryOptions {
  /// Total width; 0 uses Keras's default (88 columns, or 108 with "Connected to"), capped by
  /// the terminal width minus 4.
  int line_length = 0;
  /// Also list the layers inside nested models.
  bool expand_nested = false;
  /// Adds a "Trainable" column.
  bool show_trainable = false;
};

/// The base of every model.
class Model : public Layer {
 public:
  explicit Model(LayerOptions options = {}, std::string default_name = {});

  /// The model's layers: the tracked sublayers of a subclassed model; the graph's layers for
  /// Functional (Input layers included) and Sequential (without them), as in Keras.
  virtual std::vector<std::shared_ptr<Layer>> layers() const;
  /// The layer called `name`; ValueError listing the names otherwise.
  std::shared_ptr<Layer> get_layer(const std::string& name) const;
  /// The layer at `index` of layers().
  std::shared_ptr<Layer> get_layer(int index) const;

  /// Prints the Keras summary table to stdout.
  void summary(const SummaryOptions& options = {}) const;
  /// The same text as a string.
  std::string summary_string(const SummaryOptions& options = {}) const;

  /// The output shape summary() shows for one of layers() ("?" when unknown).
  virtual std::string layer_output_shape(const Layer& layer) const;
  /// The "Connected to" entries of a layer (empty for sequential-like models).
  virtual std::string layer_connections(const Layer& layer) const;
  /// Whether summary() uses the three-column (sequential-like) table.
  virtual bool sequential_like() const { return true; }
};

/// A shared reference to a model, callable like one.
template <typename T = Model>
using ModelPtr = LayerPtr<T>;

}  // namespace keras
