#include "lora_files.h"

#include <keras/saving/save_model.h>

#include <filesystem>
#include <keras/utils/npy.h>

namespace layers = keras::layers;
using keras::Tensor;
using keras::TensorList;

namespace {

using ModelPtr = keras::ModelPtr<keras::Model>;

// lora.py's lora_mlp: LoRA on both Dense layers.
ModelPtr lora_mlp() {
  auto hidden = layers::Dense(8, {.activation = "relu", .name = "hidden"});
  auto head = layers::Dense(3, {.name = "head"});
  auto model = keras::Sequential({keras::Input({6}), hidden, head}, {.name = "lora_mlp"});
  hidden->enable_lora(2);
  head->enable_lora(2, {.lora_alpha = 4});
  return model;
}

// lora.py's lora_mixed: Embedding -> Conv1D -> EinsumDense, each with LoRA.
ModelPtr lora_mixed() {
  auto ids = keras::Input({5}, {.dtype = keras::DType::Int32});
  auto embed = layers::Embedding(12, 4, {.name = "embed"});
  auto conv = layers::Conv1D(3, 2, {.name = "conv"});
  auto proj = layers::EinsumDense("abc,cd->abd", {layers::kNone, 2},
                                  {.bias_axes = "d", .name = "proj"});
  auto model = keras::Functional(ids, proj(conv(embed(ids))), {.name = "lora_mixed"});
  embed->enable_lora(2);
  conv->enable_lora(1, {.lora_alpha = 2.5});
  proj->enable_lora(2);
  return model;
}

}  // namespace

void write_lora_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const TensorList& inputs)>& add,
    const std::function<void(const std::string& name, keras::Model& model,
                             const TensorList& data)>& resume) {
  // Fine-tuned here: a few Adam steps move the adapters (B starts at zero) and the bias only.
  keras::backend::clear_session();
  keras::utils::set_random_seed(300);
  auto mlp = lora_mlp();
  mlp->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 0.05}), .loss = "mse"});
  mlp->fit(keras::random::normal({32, 6}), keras::random::normal({32, 3}),
           {.batch_size = 8, .epochs = 2, .verbose = 0, .shuffle = false});
  add("cpp_lora_mlp", "lora_mlp", *mlp, {keras::random::normal({5, 6})});
  // Training resumed from the file: Keras's load zeroes the adapters (their gradients are then
  // zero; Adam's restored moments still move them), so keras-cpp resumes from its own reload.
  const std::string copy =
      (std::filesystem::temp_directory_path() / "interop_cpp_lora_mlp.keras").string();
  mlp->save(copy);
  auto reloaded = keras::saving::load_model(copy);
  std::filesystem::remove(copy);
  resume("cpp_lora_mlp", *reloaded,
         {keras::random::normal({8, 6}), keras::random::normal({8, 3}),
          keras::random::normal({8, 6}), keras::random::normal({8, 3}),
          keras::random::normal({4, 6})});

  // Adapters set to random values directly (as lora.py does).
  keras::backend::clear_session();
  keras::utils::set_random_seed(301);
  auto mixed = lora_mixed();
  std::vector<Tensor> values;
  for (const keras::Variable& w : mixed->weights())
    values.push_back(keras::random::normal(w.shape(), 0.0, 0.5));
  mixed->set_weights(values);
  add("cpp_lora_mixed", "lora_mixed", *mixed, {keras::random::randint({3, 5}, 0, 12)});

  // Keras's files (merged kernels, LoRA enabled by the configs) saved again.
  auto arrays = keras::utils::load_npz(fixtures_dir + "/lora.npz");
  for (const std::string kind : {"lora_mlp", "lora_mixed"}) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures_dir + "/lora/" + kind + ".keras");
    add("py_" + kind, kind, *model, {arrays.at(kind + ".x")});
  }
}
