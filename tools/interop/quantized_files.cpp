#include "quantized_files.h"

#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

void write_quantized_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add) {
  auto arrays = keras::utils::load_npz(fixtures_dir + "/quantize.npz");
  for (const std::string name :
       {"dense_mlp", "dense_rank3", "einsum_dense", "einsum_heads", "embedding"}) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures_dir + "/quantize/" + name + "_float.keras");
    model->quantize("int8");
    add("cpp_quantized_" + name, "quantize:" + name, *model, {arrays.at(name + ".x")});
  }
}
