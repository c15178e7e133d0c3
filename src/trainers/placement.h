#pragma once
// Where a model computes: the backend of its weights, and batches moved there.

#include <optional>

#include "keras/backend/registry.h"
#include "keras/models/model.h"

namespace keras::trainers {

/// `data` with every tensor on the backend of the model's weights (unchanged when they are
/// already there, when the model has no weights, or when the weights are symbolic).
StepData on_weights_backend(const Model& model, StepData data);

/// While alive, new tensors go to the backend of the model's weights (a model moved with
/// Model::to computes there, whatever the default backend is); nothing when the model has no
/// weights yet or they are symbolic.
class WeightsBackendScope {
 public:
  explicit WeightsBackendScope(const Model& model);

 private:
  std::optional<backend::BackendScope> scope_;
};

}  // namespace keras::trainers
