#pragma once
// The "train_resume" and "train_resume_losses" cases of the model-file fixtures
// (tools/keras_oracle/models.py, graphs.py): a compiled model Keras trained one epoch and saved
// is loaded, takes two train_on_batch steps on (x1, y1) then (x2, y2), and must give Keras's
// iteration count, predictions on a probe batch (they depend on the restored optimizer state)
// and the two losses. kwargs: "file" (the fixture's model file), "iterations" (Keras's count
// after the steps).

#include <functional>
#include <string>

#include "golden.h"

namespace keras::test {

/// Adds both ops to `ops`; `path_of(file)` locates a case's model file.
void add_resume_training_ops(GoldenOps& ops, std::function<std::string(const std::string&)> path_of);

}  // namespace keras::test
