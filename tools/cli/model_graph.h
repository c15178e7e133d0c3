#pragma once
// A model's layers and connections as Graphviz dot text (what Keras's plot_model draws): one
// box per layer ("name (Class)" and its output shape), one edge per connection.

#include <string>

#include "keras/models/model.h"

namespace keras::cli {

struct DotOptions {
  /// "TB" (top to bottom) or "LR" (left to right), as plot_model's rankdir.
  std::string rankdir = "TB";
  bool show_shapes = true;
};

/// The dot description of `model`; node ids are the layers' names.
std::string model_to_dot(const Model& model, const DotOptions& options = {});

}  // namespace keras::cli
