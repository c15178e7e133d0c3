#include "resume_training.h"

#include <gtest/gtest.h>

#include "keras/keras.h"
#include "keras/saving/save_model.h"

namespace keras::test {
namespace {

Tensor scalar32(double value) {
  return Tensor::from_vector(std::vector<float>{static_cast<float>(value)}, Shape{});
}

// Loads the model, checks the iteration counts around two steps; the losses and the
// predictions on the probe after them.
std::pair<TensorList, Tensor> resume(const std::string& path, const TensorList& in,
                                     const json& kw) {
  backend::clear_session();
  auto model = saving::load_model(path);
  EXPECT_TRUE(model->compiled()) << path;
  // The file holds Keras's count before the two steps; kwargs "iterations" the count after.
  const auto iterations = kw["iterations"].get<int64_t>();
  EXPECT_EQ(model->optimizer()->iterations().value().item<int64_t>(), iterations - 2) << path;
  TensorList losses = {scalar32(model->train_on_batch(in[0], in[1]).at("loss")),
                       scalar32(model->train_on_batch(in[2], in[3]).at("loss"))};
  EXPECT_EQ(model->optimizer()->iterations().value().item<int64_t>(), iterations) << path;
  return {losses, model->predict(in[4], {.verbose = 0}).single()};
}

}  // namespace

void add_resume_training_ops(GoldenOps& ops,
                             std::function<std::string(const std::string&)> path_of) {
  ops["train_resume"] = [path_of](const TensorList& in, const json& kw) {
    return TensorList{resume(path_of(kw["file"].get<std::string>()), in, kw).second};
  };
  ops["train_resume_losses"] = [path_of](const TensorList& in, const json& kw) {
    return resume(path_of(kw["file"].get<std::string>()), in, kw).first;
  };
}

}  // namespace keras::test
