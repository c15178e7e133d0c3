#include "quantized_files.h"

#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

#include <filesystem>
#include <utility>

namespace {

struct CalibratedCase {
  const char* setting;  // tools/keras_oracle/gptq_awq.py's setting
  const char* model;    // its float model: "lm" (Dense blocks) or "einsum"
  int blocks;
  keras::quantizers::QuantizationConfigPtr (*config)(keras::quantizers::CalibrationDataset,
                                                     keras::quantizers::QuantizationLayerStructure);
};

keras::quantizers::QuantizationConfigPtr gptq(keras::quantizers::CalibrationDataset data,
                                              keras::quantizers::QuantizationLayerStructure s,
                                              int bits, int64_t group, bool symmetric,
                                              bool activation_order) {
  return keras::quantizers::GPTQConfig({.dataset = std::move(data),
                                        .weight_bits = bits,
                                        .num_samples = 16,
                                        .sequence_length = 12,
                                        .group_size = group,
                                        .symmetric = symmetric,
                                        .activation_order = activation_order,
                                        .quantization_layer_structure = std::move(s)});
}

const CalibratedCase kCalibratedCases[] = {
    {"g4_g8_sym_act", "lm", 2,
     [](auto d, auto s) { return gptq(std::move(d), std::move(s), 4, 8, true, true); }},
    {"g3_pc", "lm", 2,
     [](auto d, auto s) { return gptq(std::move(d), std::move(s), 3, -1, false, false); }},
    {"a_g8", "lm", 2,
     [](auto d, auto s) {
       return keras::quantizers::AWQConfig({.dataset = std::move(d),
                                            .num_samples = 16,
                                            .sequence_length = 12,
                                            .group_size = 8,
                                            .num_grid_points = 5,
                                            .quantization_layer_structure = std::move(s)});
     }},
    {"g4_g16", "einsum", 3,
     [](auto d, auto s) { return gptq(std::move(d), std::move(s), 4, 16, false, false); }},
};

}  // namespace

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
  // GPTQ and AWQ (tools/keras_oracle/gptq_awq.py): calibrated by keras-cpp on Keras's windows,
  // saved, and read back first, so that the head (never calibrated, kept in float in memory)
  // predicts from the rounded kernel its file holds, as it will in Keras.
  auto calibrated_arrays = keras::utils::load_npz(fixtures_dir + "/gptq_awq.npz");
  for (const CalibratedCase& c : kCalibratedCases) {
    keras::backend::clear_session();
    const std::string folder = fixtures_dir + "/gptq_awq/";
    auto model = keras::saving::load_model(folder + c.model + "_float.keras");
    keras::quantizers::QuantizationLayerStructure structure{{model->get_layer("embedding")}, {}};
    for (int b = 0; b < c.blocks; ++b)
      structure.sequential_blocks.push_back(model->get_layer("block_" + std::to_string(b)));
    const std::string prefix =
        std::string(c.model) == "lm" ? c.setting : std::string("einsum.") + c.setting;
    const std::string mode = c.setting[0] == 'a' ? "awq" : "gptq";
    model->quantize(mode, c.config(keras::quantizers::CalibrationDataset::from_windows(
                                       calibrated_arrays.at(prefix + ".windows")),
                                   structure));
    const std::string saved =
        (std::filesystem::temp_directory_path() / ("keras_cpp_interop_" + prefix + ".keras"))
            .string();
    model->save(saved);
    auto reloaded = keras::saving::load_model(saved);
    std::filesystem::remove(saved);
    add("cpp_" + mode + "_" + c.model + "_" + c.setting,
        "gptq_awq:" + std::string(c.model == std::string("lm") ? "" : "einsum_") + c.setting,
        *reloaded, {calibrated_arrays.at("float.x")});
  }
}
