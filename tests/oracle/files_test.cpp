// Model files written by real Keras 3.15 (tools/keras_oracle/models.py) and by tf_keras 2.21
// (tools/keras_oracle/legacy_h5.py) load in keras-cpp and predict what Keras predicted:
// - predict_keras:   load_model(<kind>.keras);
// - predict_weights: the same architecture with its weights zeroed, then load_weights of the
//                    separate <kind>.weights.h5;
// - train_resume:    a compiled model trained one epoch (Sequential "compiled", and the
//                    subclassed "subclassed_compiled") resumes training: after two
//                    train_on_batch steps, Keras's iteration count and predictions (they depend
//                    on the restored Adam state); train_resume_losses: the two losses the steps
//                    return (each batch's own: train_on_batch resets the metrics first);
// - predict_legacy:  load_model of a Keras 2 .h5 (with and without a training config).
// Tolerances are in each case's kwargs (float32: rtol 1e-5, atol 1e-6; training: 1e-4).

#include <gtest/gtest.h>

#include <mutex>

#include "../../tools/interop/scale_shift.h"
#include "../../tools/interop/two_tower.h"
#include "golden.h"
#include "resume_training.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "keras/saving/serialization.h"
#include "keras/saving/weights.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

using interop::ScaleShift;  // the twin of models.py's custom layer
using interop::TwoTower;    // the twin of models.py's subclassed model

void register_custom_classes() {
  static std::once_flag once;
  std::call_once(once, [] {
    saving::register_keras_serializable<ScaleShift>("oracle", "ScaleShift");
    saving::register_keras_serializable<TwoTower>("oracle", "TwoTower");
  });
}

std::string fixture_file(const std::string& relative) {
  return std::string(KERAS_ORACLE_DIR) + "/" + relative;
}

TensorStruct inputs_of(const TensorList& in, size_t count) {
  if (count == 1) return in[0];
  return TensorList(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(count));
}

TensorList predict(Model& model, const TensorList& in) {
  return model.predict(inputs_of(in, in.size()), {.verbose = 0}).flat();
}

GoldenOps model_ops() {
  GoldenOps ops;
  ops["predict_keras"] = [](const TensorList& in, const json& kw) {
    backend::clear_session();
    auto model = saving::load_model(fixture_file("models/" + kw["file"].get<std::string>() +
                                                 ".keras"));
    return predict(*model, in);
  };
  ops["predict_weights"] = [](const TensorList& in, const json& kw) {
    backend::clear_session();
    const std::string stem = fixture_file("models/" + kw["file"].get<std::string>());
    auto model = saving::load_model(stem + ".keras", {.compile = false});
    // Zero every weight first, so the predictions can only come from the .weights.h5 file.
    std::vector<Tensor> zeros;
    for (const Tensor& w : model->get_weights()) zeros.push_back(ops::zeros_like(w));
    model->set_weights(zeros);
    saving::load_weights(*model, stem + ".weights.h5");
    return predict(*model, in);
  };
  // The compiled model trained one epoch: two train_on_batch steps after loading.
  add_resume_training_ops(ops, [](const std::string& file) {
    return fixture_file("models/" + file + ".keras");
  });
  return ops;
}

TEST(KerasFiles, Keras3FilesLoadPredictAndResumeTraining) {
  register_custom_classes();
  auto exercised = run_oracle("models", model_ops());
  EXPECT_GE(exercised.size(), 3u);
}

TEST(KerasFiles, LegacyKeras2H5FilesLoadAndPredict) {
  GoldenOps ops;
  ops["predict_legacy"] = [](const TensorList& in, const json& kw) {
    backend::clear_session();
    auto model = saving::load_model(fixture_file("legacy/" + kw["file"].get<std::string>() +
                                                 ".h5"));
    EXPECT_EQ(model->compiled(), kw["compiled"].get<bool>()) << kw["file"];
    return predict(*model, in);
  };
  run_oracle("legacy", ops);
}

}  // namespace
}  // namespace keras
