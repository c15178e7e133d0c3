// keras-cpp serve's gRPC API against TF Serving's own client: PredictRequest bytes serialized by
// tensorflow-serving-api (tools/keras_oracle/grpc_serving.py: tf.make_tensor_proto's
// tensor_content, typed lists, a one-value fill, DT_DOUBLE and DT_INT64 inputs, two inputs by
// name, a version and an output filter) sent to GrpcServer, whose outputs must be Keras 3.15's
// predictions for them. (grpc_serving.py also runs tensorflow-serving-api's stubs against
// `keras-cpp serve --grpc-port`, which checks the replies' side of the wire.)

#include <nlohmann/json.hpp>

#include <filesystem>

#include "grpc_test_helpers.h"
#include "keras/utils/npy.h"

namespace keras::grpc_test {
namespace {

std::string fixture(const std::string& name) {
  return std::string(keras::test::paths::oracle_dir) + "/grpc_serving/" + name;
}

TEST(GrpcOfficialClient, PredictGivesKerasOutputs) {
  const std::string cnn =
      std::string(keras::test::paths::shared_dir) + "/models/fashion_mnist_cnn.keras";
  if (!std::filesystem::exists(cnn)) GTEST_SKIP() << cnn << " is not here";
  Served served;
  served.models.add("fashion", saving::load_model(cnn, {.compile = false}));
  served.models.add("two", saving::load_model(fixture("two_inputs.keras"), {.compile = false}));
  served.start();
  const auto cases = nlohmann::json::parse(read_file(fixture("cases.json")));
  const std::map<std::string, Tensor> expected = utils::load_npz(fixture("expected.npz"));
  ASSERT_EQ(cases.size(), 5u);
  for (const auto& [name, c] : cases.items()) {
    SCOPED_TRACE(name);
    tfs::PredictRequest request;
    ASSERT_TRUE(request.ParseFromString(read_file(fixture(name + ".bin"))));
    tfs::PredictResponse response;
    grpc::Status status = served.predict(request, response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.model_spec().name(), c["model"].get<std::string>());
    EXPECT_EQ(response.model_spec().version().value(), 1);
    ASSERT_EQ(response.outputs().size(), c["outputs"].size());
    for (const std::string out : c["outputs"]) {
      const Tensor& want = expected.at(name + "." + out);
      ASSERT_TRUE(response.outputs().contains(out)) << out;
      const tensorflow::TensorProto& got = response.outputs().at(out);
      EXPECT_EQ(shape_of(got), std::vector<int64_t>(want.shape().begin(), want.shape().end()));
      std::vector<float> g = floats_of(got), w = want.astype(float32).to_vector<float>();
      ASSERT_EQ(g.size(), w.size());
      for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], 1e-5f + 1e-5f * std::abs(w[i]));
    }
  }
}

}  // namespace
}  // namespace keras::grpc_test
