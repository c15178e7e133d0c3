#include "quantized_files.h"

#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

#include <utility>

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
  // int4 (tools/keras_oracle/quantize_int4.py): per channel, and blocks that do not divide
  // every input dimension.
  auto int4_arrays = keras::utils::load_npz(fixtures_dir + "/quantize_int4.npz");
  const std::pair<const char*, int64_t> int4_cases[] = {
      {"dense_mlp", -1}, {"dense_mlp", 5},         {"dense_rank3", 3},     {"einsum_dense", 4},
      {"einsum_heads", 3}, {"einsum_transposed", -1}, {"embedding", -1}, {"embedding", 3}};
  for (const auto& [name, block_size] : int4_cases) {
    keras::backend::clear_session();
    auto model = keras::saving::load_model(fixtures_dir + "/quantize_int4/" + name +
                                           "_float.keras");
    model->quantize("int4", keras::quantizers::Int4QuantizationConfig({.block_size = block_size}));
    const std::string setting = block_size > 0 ? "b" + std::to_string(block_size) : "per_channel";
    add("cpp_int4_" + std::string(name) + "_" + setting,
        "quantize_int4:" + std::string(name) + "_" + setting, *model,
        {int4_arrays.at(std::string(name) + ".x")});
  }
}
