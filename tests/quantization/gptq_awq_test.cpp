// GPTQ and AWQ against Keras 3.15.1 (tools/keras_oracle/gptq_awq.py).
//
// Keras 3.15.1's model.quantize("gptq"/"awq") never sees its calibration data (its hooks wrap
// `call` while the quantized layers run `quantized_call`), so its Hessians and activation
// maxima stay zero: its GPTQ is round-to-nearest and its AWQ scales are ones. The oracle
// therefore records, beside Keras's own results ("<setting>.var.*"), Keras's code with the hook
// on the method that runs ("<setting>.hooked.*", the upstream fix): keras-cpp calibrates on
// the data and is checked against those; its round-to-nearest (what a never-calibrated layer is
// saved as) is checked against Keras's own results. The numerical pieces (zero-point
// parameters, gptq_quantize_matrix, the AWQ search, the Hessian) are checked against Keras's
// functions on fixed inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "assertions.h"
#include "keras/keras.h"
#include "keras_quantized_files.h"
#include "oracle_fixture.h"
#include "quantizers/awq.h"
#include "quantizers/calibrate.h"
#include "quantizers/gptq.h"
#include "quantizers/zero_point.h"

namespace keras {
namespace {

using json = nlohmann::json;
using quantizers::detail::HostMatrix;

const json& fixture() { return test::oracle_json("gptq_awq"); }

const test::KerasQuantizedFiles& files() {
  static const test::KerasQuantizedFiles f("gptq_awq");
  return f;
}

Tensor f32(const Tensor& t) { return ops::cast(t, DType::Float32); }

Tensor predict(Model& model, const Tensor& x) {
  return model.predict(TensorStruct(x), {.verbose = 0}).single();
}

// Integer levels equal except for at most `max_fraction` of them one step apart (float32
// summation order in the Hessian and its inverse may move a value across a rounding boundary).
void expect_levels(const Tensor& ours, const Tensor& keras, double max_fraction,
                   const std::string& what) {
  ASSERT_EQ(ours.shape(), keras.shape()) << what;
  const std::vector<int64_t> a = ops::cast(ours, DType::Int64).to_vector<int64_t>();
  const std::vector<int64_t> b = ops::cast(keras, DType::Int64).to_vector<int64_t>();
  size_t off_by_one = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_LE(std::llabs(a[i] - b[i]), 1) << what << " at " << i;
    off_by_one += a[i] != b[i];
  }
  EXPECT_LE(static_cast<double>(off_by_one), max_fraction * static_cast<double>(a.size()))
      << what << ": " << off_by_one << " of " << a.size() << " levels differ by one";
}

// ---- the numerical pieces, on fixed inputs ----------------------------------------------------

TEST(GptqAwqNumerics, ComputeQuantizationParametersMatchKeras) {
  int cases = 0;
  for (const auto& [id, c] : fixture().at("cqp").items()) {
    const std::string key = "cqp." + id;
    const auto p = quantizers::detail::compute_quantization_parameters(
        HostMatrix::of(files().at(key + ".x")), c.at("bits").get<int>(),
        c.at("symmetric").get<bool>(), c.at("per_channel").get<bool>(),
        c.at("group_size").get<int64_t>());
    EXPECT_TENSOR_NEAR(p.scale.to_tensor(), f32(files().at(key + ".scale")), 1e-6, 0) << key;
    EXPECT_TENSOR_EQ(ops::cast(p.zero.to_tensor(), DType::UInt8), files().at(key + ".zero"))
        << key;
    EXPECT_EQ(p.maxq, ops::cast(files().at(key + ".maxq"), DType::Float32).item<float>()) << key;
    ++cases;
  }
  EXPECT_EQ(cases, 48);
}

TEST(GptqAwqNumerics, GptqQuantizeMatrixMatchesKeras) {
  int exact = 0;
  for (const auto& [id, c] : fixture().at("gqm").items()) {
    const std::string key = "gqm." + id;
    const int64_t group = c.at("group_size").get<int64_t>();
    const auto q = quantizers::detail::gptq_quantize_matrix(
        HostMatrix::of(files().at(key + ".w")), HostMatrix::of(files().at(key + ".inv_hessian")),
        {.weight_bits = c.at("weight_bits").get<int>(),
         .symmetric = c.at("symmetric").get<bool>(),
         .group_size = group,
         .activation_order = c.at("activation_order").get<bool>(),
         .blocksize = c.at("blocksize").get<int64_t>()});
    const Tensor keras_q = files().at(key + ".quantized"), keras_g = files().at(key + ".g_idx");
    EXPECT_TENSOR_EQ(q.g_idx, keras_g) << key;
    if (group > 0) {
      const bool same = test::tensors_near(ops::cast(q.quantized, DType::Int32), keras_q, 0, 0) &&
                        test::tensors_near(q.scale, files().at(key + ".scale"), 1e-6, 0) &&
                        test::tensors_near(q.zero, files().at(key + ".zero"), 0, 0);
      exact += same;
      if (!same) {
        // A level at a rounding boundary may land on the other side under another float32
        // order (Keras's own NumPy backend differs from its JAX backend in 12-18 levels on
        // these cases); the error feedback then carries the difference on.
        expect_levels(q.quantized, keras_q, 0.05, key);
        EXPECT_TENSOR_NEAR(q.scale, files().at(key + ".scale"), 0.03, 0) << key;
      }
      continue;
    }
    // One group: Keras 3.15 recomputes its scale at every block of columns and keeps them all
    // (3 here), though g_idx sends every column to the first; keras-cpp computes it once. The
    // first scale and the columns quantized in the first block (position < blocksize, read
    // from g_idx = position / columns) are the same.
    const int64_t rows = keras_q.shape()[0], cols = keras_q.shape()[1];
    EXPECT_TENSOR_NEAR(q.scale, ops::slice(files().at(key + ".scale"), {0, 0}, {rows, 1}), 1e-6, 0)
        << key;
    EXPECT_TENSOR_EQ(q.zero, ops::slice(files().at(key + ".zero"), {0, 0}, {rows, 1})) << key;
    const std::vector<float> g = keras_g.to_vector<float>();
    const std::vector<int32_t> ours = ops::cast(q.quantized, DType::Int32).to_vector<int32_t>();
    const std::vector<int32_t> theirs = keras_q.to_vector<int32_t>();
    int first_block = 0;
    for (int64_t col = 0; col < cols; ++col) {
      if (std::lround(g[static_cast<size_t>(col)] * static_cast<float>(cols)) >=
          c.at("blocksize").get<int64_t>())
        continue;
      ++first_block;
      for (int64_t r = 0; r < rows; ++r)
        EXPECT_EQ(ours[static_cast<size_t>(r * cols + col)], theirs[static_cast<size_t>(r * cols + col)])
            << key << " row " << r << " column " << col;
    }
    EXPECT_EQ(first_block, c.at("blocksize").get<int>()) << key;
  }
  EXPECT_GE(exact, 3) << "of the 4 grouped cases, bit for bit";
}

TEST(GptqAwqNumerics, AwqSearchAndQuantizationMatchKeras) {
  for (const auto& [id, c] : fixture().at("awq").items()) {
    const std::string key = "awq." + id;
    const HostMatrix w = HostMatrix::of(files().at(key + ".w"));
    const std::vector<float> magnitudes = f32(files().at(key + ".magnitudes")).to_vector<float>();
    const int64_t grid = c.at("num_grid_points").get<int64_t>(), group = c.at("group_size");
    const std::vector<float> scales =
        quantizers::detail::awq_search_optimal_scales(w, magnitudes, grid, group);
    EXPECT_TENSOR_NEAR(Tensor::from_vector(scales, Shape{w.cols}),
                       files().at(key + ".search_scales"), 1e-6, 0) << key;
    const auto q = quantizers::detail::awq_quantize_matrix(w, magnitudes, grid, group);
    EXPECT_TENSOR_EQ(f32(q.quantized), files().at(key + ".quantized")) << key;
    EXPECT_TENSOR_NEAR(q.scale, files().at(key + ".scale"), 1e-6, 0) << key;
    EXPECT_TENSOR_EQ(q.zero, files().at(key + ".zero")) << key;
    EXPECT_TENSOR_NEAR(q.awq_scales, files().at(key + ".awq_scales"), 1e-6, 0) << key;
    EXPECT_TENSOR_EQ(q.g_idx, files().at(key + ".g_idx")) << key;
  }
}

TEST(GptqAwqNumerics, HessianUpdatesMatchKeras) {
  quantizers::detail::GptqLayerState state(10);
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    state.update(files().at("hessian.batch" + n));
    EXPECT_TENSOR_NEAR(state.hessian().to_tensor(), files().at("hessian.after" + n), 1e-5, 1e-6)
        << "after batch " << i;
  }
}

TEST(GptqAwqNumerics, StridedWindowsFollowKerasStride) {
  // Keras's stride for 600 tokens, 16 windows of 12 (its offset comes from Python's salted
  // hash; keras-cpp starts at 0).
  const json& cal = fixture().at("calibration");
  const Tensor tokens = files().at("calib.dataset");
  const int64_t length = cal.at("sequence_length"), n = cal.at("num_samples"),
                stride = cal.at("stride");
  const Tensor windows = quantizers::detail::calibration_windows(tokens, {}, length, n);
  ASSERT_EQ(windows.shape(), (Shape{n, length}));
  for (int64_t i = 0; i < n; ++i)
    EXPECT_TENSOR_EQ(ops::slice(windows, {i, 0}, {1, length}),
                     ops::reshape(ops::slice(tokens, {i * stride}, {length}), {1, length}))
        << "window " << i;
  // Too few tokens are repeated (np.tile); too few for one window is an error.
  const Tensor few = quantizers::detail::calibration_windows(
      Tensor::from_vector(std::vector<int32_t>{1, 2, 3, 4, 5}, Shape{5}), {}, 4, 3);
  EXPECT_EQ(few.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2}));
}

TEST(GptqAwqNumerics, TextsGoThroughTheTokenizer) {
  // Keras's get_dataloader: each text tokenized and the tokens joined in order.
  quantizers::Tokenizer tokenizer = [](const std::string& text) {
    std::vector<int32_t> ids;
    for (char c : text) ids.push_back(c - 'a');
    return Tensor::from_vector(ids, Shape{static_cast<int64_t>(ids.size())});
  };
  const Tensor windows = quantizers::detail::calibration_windows(
      std::vector<std::string>{"abc", "de", "fgh"}, tokenizer, 4, 2);
  // 8 tokens, windows of 4: max_start 4, stride (4 + 1) / 2 = 2.
  EXPECT_EQ(windows.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 2, 3, 2, 3, 4, 5}));
  // Texts need a tokenizer.
  quantizers::QuantizationLayerStructure structure{{}, {layers::Dense(2)}};
  EXPECT_THROW(quantizers::detail::check_calibration_config(
                   "gptq", quantizers::GPTQConfig({.dataset = std::vector<std::string>{"abc"},
                                                   .quantization_layer_structure = structure})),
               ValueError);
}

// ---- whole models ---------------------------------------------------------------------------

struct LoadedModel {
  ModelPtr<Model> model;
  quantizers::QuantizationLayerStructure structure;
};

LoadedModel float_model(const std::string& stem, int blocks) {
  LoadedModel m{saving::load_model(files().file(stem)), {}};
  m.structure.pre_block_layers = {m.model->get_layer("embedding")};
  for (int b = 0; b < blocks; ++b)
    m.structure.sequential_blocks.push_back(m.model->get_layer("block_" + std::to_string(b)));
  return m;
}

quantizers::QuantizationConfigPtr config_of(const json& setting, const Tensor& windows,
                                            const quantizers::QuantizationLayerStructure& s) {
  const json& k = setting.at("kwargs");
  const json& cal = fixture().at("calibration");
  auto data = quantizers::CalibrationDataset::from_windows(windows);
  if (setting.at("mode") == "gptq") {
    quantizers::GPTQConfigOptions o{.dataset = data,
                                    .num_samples = cal.at("num_samples"),
                                    .sequence_length = cal.at("sequence_length"),
                                    .quantization_layer_structure = s};
    o.weight_bits = k.value("weight_bits", o.weight_bits);
    o.group_size = k.value("group_size", o.group_size);
    o.symmetric = k.value("symmetric", o.symmetric);
    o.activation_order = k.value("activation_order", o.activation_order);
    o.hessian_damping = k.value("hessian_damping", o.hessian_damping);
    return quantizers::GPTQConfig(o);
  }
  quantizers::AWQConfigOptions o{.dataset = data,
                                 .num_samples = cal.at("num_samples"),
                                 .sequence_length = cal.at("sequence_length"),
                                 .quantization_layer_structure = s};
  o.group_size = k.value("group_size", o.group_size);
  o.num_grid_points = k.value("num_grid_points", o.num_grid_points);
  return quantizers::AWQConfig(o);
}

// The calibrated layers' variables against Keras's (hooked) ones, in Keras's layout.
template <typename L>
void expect_calibrated_layer(const L& layer, const std::string& prefix, int bits,
                             const std::string& zero_name) {
  const std::string p = prefix + ".var." + layer.name() + "/";
  SCOPED_TRACE(p);
  ASSERT_TRUE(layer.is_calibrated());
  Tensor keras_levels = files().at(p + "kernel");
  if (bits == 4)
    keras_levels = quantizers::unpack_int4(keras_levels, layer.kernel().shape()[0], 0, DType::UInt8);
  // Every level and zero point is Keras's here (the tolerance is for another float32 order).
  expect_levels(layer.kernel(), keras_levels, 0.002, p + "kernel");
  EXPECT_TENSOR_NEAR(layer.kernel_scale().value(), files().at(p + "kernel_scale"), 1e-5, 0);
  expect_levels(layer.kernel_zero().value(), files().at(p + zero_name), 0.002, p + zero_name);
  EXPECT_TENSOR_EQ(layer.g_idx().value(), files().at(p + "g_idx"));
  if (layer.quantization_mode() == "awq") {
    EXPECT_TENSOR_NEAR(layer.awq_scales().value(), files().at(p + "awq_scales"), 1e-5, 0);
  }
}

double max_abs(const Tensor& t) { return ops::max(ops::abs(f32(t))).template item<float>(); }

// A calibrated model is freed with its last handle: its layers keep the config's settings, not
// the layer structure that holds them (that reference cycle leaked every GPTQ/AWQ model).
TEST(GptqAwqModels, ACalibratedModelIsFreedWithItsLastHandle) {
  for (const auto& [name, setting] : fixture().at("settings").items()) {
    SCOPED_TRACE(name);
    std::weak_ptr<Layer> model, block;
    {
      LoadedModel m = float_model("lm_float", 2);
      m.model->quantize(setting.at("mode"),
                        config_of(setting, files().at(name + ".windows"), m.structure));
      model = m.model;
      block = m.model->get_layer("block_0");  // its Dense layers hold the config
    }
    EXPECT_TRUE(model.expired());
    EXPECT_TRUE(block.expired());
  }
}

TEST(GptqAwqModels, CalibratedDenseModelsMatchKerasWithWorkingHooks) {
  const Tensor x = files().at("float.x");
  for (const auto& [name, setting] : fixture().at("settings").items()) {
    SCOPED_TRACE(name);
    LoadedModel m = float_model("lm_float", 2);
    m.model->quantize(setting.at("mode"),
                      config_of(setting, files().at(name + ".windows"), m.structure));
    const int bits = setting.at("kwargs").value("weight_bits", 4);
    for (const char* layer : {"b0_up", "b0_down", "b1_up", "b1_down"}) {
      auto block = std::dynamic_pointer_cast<Model>(m.model->get_layer(std::string("block_") + layer[1]));
      auto dense = std::dynamic_pointer_cast<layers::DenseLayer>(block->get_layer(layer));
      ASSERT_TRUE(dense);
      expect_calibrated_layer(*dense, name + ".hooked", bits, "kernel_zero");
      // Keras's policy and config objects, as its quantized layers serialize them.
      const json& keras_layer = setting.at("layers").at(layer);
      EXPECT_EQ(dense->dtype_policy().serialize(), keras_layer.at("dtype_policy"));
      EXPECT_EQ(dense->get_config().at("quantization_config"),
                keras_layer.at("quantization_config"));
    }
    // The head is in no block: in the mode, never calibrated, its float kernel serving.
    auto head = std::dynamic_pointer_cast<layers::DenseLayer>(m.model->get_layer("head"));
    EXPECT_EQ(head->dtype_policy().name, setting.at("layers").at("head").at("dtype_policy")
                                             .at("config").at("mode").get<std::string>() +
                                             "_from_float32");
    EXPECT_FALSE(head->is_calibrated());
    EXPECT_TENSOR_EQ(head->kernel(), files().at(name + ".var.head/kernel[_kernel]"));
    const Tensor y = predict(*m.model, x), keras_y = files().at(name + ".hooked.y");
    EXPECT_TENSOR_NEAR(y, keras_y, 0, 1e-5 * max_abs(keras_y) + 1e-5);
  }
}

TEST(GptqAwqModels, CalibratedEinsumDenseModelsMatchKerasWithWorkingHooks) {
  const Tensor x = files().at("float.x");
  for (const auto& [name, setting] : fixture().at("einsum").at("settings").items()) {
    SCOPED_TRACE(name);
    LoadedModel m = float_model("einsum_float", 3);
    const std::string prefix = "einsum." + name;
    m.model->quantize(setting.at("mode"),
                      config_of(setting, files().at(prefix + ".windows"), m.structure));
    for (const auto& [block, layer] : std::vector<std::pair<std::string, std::string>>{
             {"block_0", "b0_qkv"}, {"block_0", "b0_proj"}, {"block_1", "b1_up"},
             {"block_1", "b1_down"}, {"block_2", "b2_qkv"}, {"block_2", "b2_out"}}) {
      auto b = std::dynamic_pointer_cast<Model>(m.model->get_layer(block));
      auto e = std::dynamic_pointer_cast<layers::EinsumDenseLayer>(b->get_layer(layer));
      ASSERT_TRUE(e) << layer;
      expect_calibrated_layer(*e, prefix + ".hooked", 4, "zero_point");
    }
    const Tensor y = predict(*m.model, x), keras_y = files().at(prefix + ".hooked.y");
    EXPECT_TENSOR_NEAR(y, keras_y, 0, 1e-5 * max_abs(keras_y) + 1e-5);
  }
}

TEST(GptqAwqModels, RoundToNearestMatchesKeras315sOwnResults) {
  // Keras 3.15.1's own results are round-to-nearest (its calibration sees no data): what
  // keras-cpp writes for a layer that was never calibrated.
  LoadedModel m = float_model("lm_float", 2);
  for (const auto& [name, setting] : fixture().at("settings").items()) {
    const int bits = setting.at("kwargs").value("weight_bits", 4);
    for (const char* layer : {"b0_up", "b1_down"}) {
      SCOPED_TRACE(name + " " + layer);
      auto block = std::dynamic_pointer_cast<Model>(m.model->get_layer(std::string("block_") + layer[1]));
      auto dense = std::dynamic_pointer_cast<layers::DenseLayer>(block->get_layer(layer));
      const Tensor kernel = dense->kernel();
      const auto q = quantizers::detail::round_to_nearest(
          HostMatrix::of(kernel).transposed(),
          config_of(setting, files().at(name + ".windows"), m.structure));
      const std::string p = name + ".var." + layer + "/";
      Tensor levels = files().at(p + "kernel");
      if (bits == 4) levels = quantizers::unpack_int4(levels, kernel.shape()[1], 0, DType::UInt8);
      EXPECT_TENSOR_EQ(q.quantized, levels);
      EXPECT_TENSOR_NEAR(q.scale, files().at(p + "kernel_scale"), 1e-6, 0);
      EXPECT_TENSOR_EQ(q.zero, files().at(p + "kernel_zero"));
      EXPECT_TENSOR_EQ(q.g_idx, files().at(p + "g_idx"));
    }
  }
}

TEST(GptqAwqModels, SavedFilesHoldKerasLoadersLayoutAndLoadBack) {
  const json& setting = fixture().at("settings").at("g4_g8_sym_act");
  LoadedModel m = float_model("lm_float", 2);
  m.model->quantize("gptq", config_of(setting, files().at("g4_g8_sym_act.windows"), m.structure));
  const Tensor x = files().at("float.x");
  const Tensor y = predict(*m.model, x);
  const std::string path =
      (std::filesystem::temp_directory_path() / "keras_cpp_gptq_saved.keras").string();
  m.model->save(path);
  // Keras's layer configs (policy, quantization_config) and, per Dense, the datasets its
  // loader reads: bias, kernel, kernel_scale, kernel_zero, g_idx (Keras 3.15's own writer
  // leaves kernel_zero out and cannot read its files back).
  auto configs = test::layer_configs(path);
  auto block_layers = configs.at("block_0").at("layers");
  for (const auto& l : block_layers) {
    if (l.at("class_name") != "Dense") continue;
    const json& keras_layer = setting.at("layers").at(l.at("config").at("name").get<std::string>());
    EXPECT_EQ(l.at("config").at("dtype"), keras_layer.at("dtype_policy"));
  }
  auto reloaded = saving::load_model(path);
  auto b0_up = std::dynamic_pointer_cast<layers::DenseLayer>(
      std::dynamic_pointer_cast<Model>(reloaded->get_layer("block_0"))->get_layer("b0_up"));
  ASSERT_TRUE(b0_up && b0_up->is_calibrated());
  EXPECT_EQ(b0_up->variables_to_load().size(), 5u);
  // The blocks come back exactly; the head (never calibrated) comes back rounded to the
  // nearest level, so the outputs move by its rounding only.
  auto reloaded_head =
      std::dynamic_pointer_cast<layers::DenseLayer>(reloaded->get_layer("head"));
  EXPECT_TRUE(reloaded_head->is_calibrated());
  const Tensor y2 = predict(*reloaded, x);
  EXPECT_TENSOR_NEAR(y2, y, 0, 0.15 * max_abs(y));
  std::filesystem::remove(path);
}

TEST(GptqAwqModels, KerasWrittenAsymmetricFilesAreRefusedWithTheReason) {
  // Keras 3.15.1 writes 4 datasets per GPTQ Dense (no kernel_zero) and its loader wants 5; with
  // an asymmetric config (and every AWQ one) the zero points are lost.
  for (const char* stem : {"g4_pc_asym", "a_g8"}) {
    try {
      saving::load_model(files().file(stem));
      ADD_FAILURE() << stem << ": expected an error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("kernel_zero"), std::string::npos) << e.what();
    }
  }
}

TEST(GptqAwqModels, KerasWrittenSymmetricFilesLoadWithTheirZeroPoints) {
  // A symmetric config's zero points are all 2^(bits - 1): the file Keras cannot read back
  // loads here with the zero points Keras had in memory and left out.
  auto model = saving::load_model(files().file("g4_g8_sym_act"));
  for (const char* layer : {"b0_up", "b0_down", "b1_up", "b1_down"}) {
    SCOPED_TRACE(layer);
    auto block = std::dynamic_pointer_cast<Model>(model->get_layer(std::string("block_") + layer[1]));
    auto dense = std::dynamic_pointer_cast<layers::DenseLayer>(block->get_layer(layer));
    ASSERT_TRUE(dense && dense->is_calibrated());
    const std::string p = std::string("g4_g8_sym_act.var.") + layer + "/";
    EXPECT_TENSOR_EQ(dense->kernel_zero().value(), files().at(p + "kernel_zero"));
    EXPECT_TENSOR_EQ(dense->kernel_variable().value(), files().at(p + "kernel"));
    EXPECT_TENSOR_EQ(dense->kernel_scale().value(), files().at(p + "kernel_scale"));
    EXPECT_TENSOR_EQ(dense->g_idx().value(), files().at(p + "g_idx"));
  }
}

// ---- configs, policies, errors ------------------------------------------------------------------

TEST(GptqAwqApi, ConfigsAndPoliciesSerializeAsKeras) {
  const json& configs = fixture().at("configs");
  EXPECT_EQ(quantizers::GPTQConfig({})->serialize(), configs.at("gptq_default_serialized"));
  EXPECT_EQ(quantizers::AWQConfig({})->serialize(), configs.at("awq_default_serialized"));
  for (const char* which : {"gptq_default_serialized", "awq_default_serialized"}) {
    auto back = quantizers::QuantizationConfig::deserialize(configs.at(which));
    EXPECT_EQ(back->serialize(), configs.at(which)) << which;
  }
  for (const auto& [name, p] : fixture().at("policies").items()) {
    const DTypePolicy policy = DTypePolicy::from_name(name);
    EXPECT_EQ(policy.serialize(), p.at("serialized")) << name;
    EXPECT_EQ(policy.quantization_mode, p.at("quantization_mode")) << name;
    EXPECT_EQ(policy.block_size, p.at("group_size")) << name;
    EXPECT_EQ(dtype_name(policy.compute_dtype), p.at("compute_dtype").get<std::string>()) << name;
    EXPECT_EQ(DTypePolicy::deserialize(p.at("serialized")).name, name);
  }
}

void expect_keras_error(const std::function<void()>& f, const std::string& keras_case) {
  const json& e = fixture().at("errors").at(keras_case);
  try {
    f();
    ADD_FAILURE() << keras_case << ": no error";
  } catch (const ValueError& err) {
    EXPECT_EQ(e.at("class"), "ValueError") << keras_case;
    EXPECT_NE(std::string(err.what()).find(e.at("message").get<std::string>()), std::string::npos)
        << keras_case << ": " << err.what();
  }
}

TEST(GptqAwqApi, ArgumentErrorsAreKeras) {
  using quantizers::AWQConfig;
  using quantizers::GPTQConfig;
  expect_keras_error([] { GPTQConfig({.weight_bits = 5}); }, "gptq_weight_bits_5");
  expect_keras_error([] { GPTQConfig({.num_samples = 0}); }, "gptq_num_samples_0");
  expect_keras_error([] { GPTQConfig({.sequence_length = 0}); }, "gptq_sequence_length_0");
  expect_keras_error([] { GPTQConfig({.hessian_damping = 1.5}); }, "gptq_hessian_damping_1.5");
  expect_keras_error([] { GPTQConfig({.group_size = 0}); }, "gptq_group_size_0");
  expect_keras_error([] { GPTQConfig({.group_size = -2}); }, "gptq_group_size_-2");
  expect_keras_error([] { AWQConfig({.weight_bits = 8}); }, "awq_weight_bits_8");
  expect_keras_error([] { AWQConfig({.group_size = -2}); }, "awq_group_size_-2");
  expect_keras_error([] { AWQConfig({.num_grid_points = 0}); }, "awq_num_grid_points_0");
  expect_keras_error([] { DTypePolicy::from_name("gptq/5/128_from_float32"); }, "policy_gptq_5");
  expect_keras_error([] { DTypePolicy::from_name("awq/8/128_from_float32"); }, "policy_awq_8");
}

TEST(GptqAwqApi, MissingStructureOrDataLeavesTheModelUnchanged) {
  // Keras raises these after switching every Dense to the mode; keras-cpp checks first.
  LoadedModel m = float_model("lm_float", 2);
  const Tensor windows = files().at("g4_pc_asym.windows");
  const Tensor before = predict(*m.model, files().at("float.x"));
  EXPECT_TENSOR_NEAR(before, files().at("float.y"), 1e-5, 1e-5);
  try {
    m.model->quantize("gptq", quantizers::GPTQConfig({.dataset = quantizers::CalibrationDataset::from_windows(windows)}));
    ADD_FAILURE() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("quantization structure"), std::string::npos) << e.what();
  }
  try {
    m.model->quantize("awq", quantizers::AWQConfig({.quantization_layer_structure = m.structure}));
    ADD_FAILURE() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("requires a dataset"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.model->quantize("gptq"), ValueError);
  EXPECT_TRUE(m.model->get_layer("head")->quantization_mode().empty());
  EXPECT_TENSOR_EQ(predict(*m.model, files().at("float.x")), before);
}

}  // namespace
}  // namespace keras
