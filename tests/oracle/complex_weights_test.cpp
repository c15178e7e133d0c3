// Complex weights against Keras 3.15's files (tools/keras_oracle/complex_weights.py): a model of
// custom layers with complex64 and complex128 weights ("oracle>ComplexScale", whose C++ twin is
// tools/interop/complex_scale.h), saved by Keras. keras-cpp loads the .keras file and the
// .weights.h5 file (h5py's complex compound type) to Keras's values and predictions, and writes
// complex weights with the very HDF5 type Keras's file holds. (Keras reading keras-cpp's files:
// scripts/interop.sh, kind complex_scale.)

#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <mutex>

#include "../../tools/interop/complex_scale.h"
#include "golden.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "keras/saving/save_weights.h"
#include "keras/saving/serialization.h"
#include "keras/saving/weights.h"

namespace keras {
namespace {

using interop::ComplexScale;
using interop::complex_scale_model;  // complex_scale.py's complex_scale(), initial weights
using test::GoldenOps;
using test::json;

std::string fixture_file(const std::string& relative) {
  return std::string(KERAS_ORACLE_DIR) + "/complex_weights/" + relative;
}

void register_complex_scale() {
  static std::once_flag once;
  std::call_once(
      once, [] { saving::register_keras_serializable<ComplexScale>("oracle", "ComplexScale"); });
}

// The case's outputs: the predictions, then every weight in model.weights order.
TensorList predictions_and_weights(Model& model, const TensorList& in) {
  TensorList out{model.predict(in[0], {.verbose = 0}).single()};
  for (const Variable& v : model.weights()) out.push_back(v.value());
  return out;
}

// Every case replayed with `load` making the model.
void expect_keras_values(const std::function<ModelPtr<Model>()>& load) {
  register_complex_scale();
  GoldenOps ops;
  ops["predict"] = [&](const TensorList& in, const json&) {
    backend::clear_session();
    return predictions_and_weights(*load(), in);
  };
  EXPECT_EQ(test::run_oracle("complex_weights", ops).size(), 1u);
}

TEST(ComplexWeights, DenseKeepsComplexInputsComplex) {
  GoldenOps ops;
  ops["dense_complex_input"] = [](const TensorList& in, const json&) {
    auto dense = layers::Dense(2);
    (*dense)(in[0]);  // builds it
    dense->set_weights({in[1], in[2]});
    return TensorList{(*dense)(in[0])};
  };
  EXPECT_EQ(test::run_oracle("complex_dense", ops).size(), 1u);
}

TEST(ComplexWeights, KerasFileLoadsWithItsComplexWeights) {
  expect_keras_values([] { return saving::load_model(fixture_file("model.keras")); });
}

TEST(ComplexWeights, KerasWeightsFileLoadsIntoTheTwin) {
  expect_keras_values([] {
    auto model = complex_scale_model();
    saving::load_weights(*model, fixture_file("model.weights.h5"));
    return model;
  });
}

// The HDF5 type of a dataset, as a handle the caller closes.
hid_t dataset_type(const std::string& file, const std::string& dataset) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << file;
  hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0) << file << ":" << dataset;
  hid_t t = H5Dget_type(d);
  H5Dclose(d);
  H5Fclose(f);
  return t;
}

TEST(ComplexWeights, KerasCppWritesKerasComplexType) {
  register_complex_scale();
  auto model = complex_scale_model();
  saving::load_weights(*model, fixture_file("model.weights.h5"));
  const auto dir = std::filesystem::temp_directory_path() / "keras_complex_weights";
  std::filesystem::create_directories(dir);
  const std::string written = (dir / "model.weights.h5").string();
  saving::save_weights(*model, written);
  // complex64 scales, the complex128 rotor, and a float32 bias: the types h5py wrote.
  for (const char* dataset : {"layers/complex_scale/vars/0", "layers/complex_scale_1/vars/2",
                              "layers/complex_scale_1/vars/1"}) {
    hid_t keras_type = dataset_type(fixture_file("model.weights.h5"), dataset);
    hid_t cpp_type = dataset_type(written, dataset);
    EXPECT_GT(H5Tequal(keras_type, cpp_type), 0) << dataset;
    H5Tclose(keras_type);
    H5Tclose(cpp_type);
  }
  // And the written values: Keras's predictions from a fresh twin that reads them.
  expect_keras_values([&] {
    auto fresh = complex_scale_model();
    saving::load_weights(*fresh, written);
    return fresh;
  });
  std::filesystem::remove_all(dir);
}

TEST(ComplexWeights, OptimizersRefuseComplexVariablesWithTheReason) {
  register_complex_scale();
  auto model = complex_scale_model();
  model->compile({.optimizer = "sgd", .loss = "mse"});
  try {
    model->train_on_batch(ops::ones({2, 4}), ops::zeros({2, 3}));
    ADD_FAILURE() << "training a complex variable did not throw";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("do not update complex variables"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace keras
