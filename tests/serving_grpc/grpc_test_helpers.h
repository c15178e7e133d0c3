#pragma once
// What the gRPC serving tests share: a registry served by GrpcServer on a free port, TF
// Serving's stubs on a channel to it, raw calls by method name, outputs as float vectors, and a
// Predict over TLS.

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "serve/grpc_server.h"
#include "serve/model_registry.h"
#include "tensorflow_serving/apis/model_service.grpc.pb.h"
#include "tensorflow_serving/apis/prediction_service.grpc.pb.h"

namespace keras::grpc_test {

namespace tfs = tensorflow::serving;

/// A registry and its gRPC server on 127.0.0.1, a free port; stubs connected to it.
struct Served {
  explicit Served(serving::BatchingOptions batching = {}) : models(batching) {}
  /// Starts the server (after the models are added).
  void start() {
    server = std::make_unique<serving::GrpcServer>(
        models, serving::GrpcOptions{.host = "127.0.0.1", .port = 0});
    channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port()),
                                  grpc::InsecureChannelCredentials());
    predictions = tfs::PredictionService::NewStub(channel);
    model_service = tfs::ModelService::NewStub(channel);
  }
  /// Calls Predict (a deadline of 60 s).
  grpc::Status predict(const tfs::PredictRequest& request, tfs::PredictResponse& response) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    return predictions->Predict(&context, request, &response);
  }
  /// Calls `method` ("/package.Service/Method") with raw bytes; the status.
  grpc::Status raw_call(const std::string& method, const std::string& bytes) {
    grpc::GenericStub generic(channel);
    grpc::ClientContext context;
    grpc::Slice slice(bytes);
    grpc::ByteBuffer request(&slice, 1), response;
    std::promise<grpc::Status> done;
    generic.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                      [&done](grpc::Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }

  serving::ModelRegistry models;
  std::unique_ptr<serving::GrpcServer> server;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<tfs::PredictionService::Stub> predictions;
  std::unique_ptr<tfs::ModelService::Stub> model_service;
};

/// The bytes of a file (a fixture, a certificate).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A TensorProto of float32 values in tensor_content.
inline tensorflow::TensorProto float_tensor(const Tensor& x) {
  tensorflow::TensorProto t;
  t.set_dtype(tensorflow::DT_FLOAT);
  for (int64_t d : x.shape()) t.mutable_tensor_shape()->add_dim()->set_size(d);
  std::vector<float> v = x.astype(float32).to_vector<float>();
  t.set_tensor_content(v.data(), v.size() * sizeof(float));
  return t;
}

/// The shape of a TensorProto.
inline std::vector<int64_t> shape_of(const tensorflow::TensorProto& t) {
  std::vector<int64_t> dims;
  for (const auto& d : t.tensor_shape().dim()) dims.push_back(d.size());
  return dims;
}

/// The float32 values of a DT_FLOAT TensorProto in tensor_content.
inline std::vector<float> floats_of(const tensorflow::TensorProto& t) {
  EXPECT_EQ(t.dtype(), tensorflow::DT_FLOAT);
  std::vector<float> v(t.tensor_content().size() / sizeof(float));
  std::memcpy(v.data(), t.tensor_content().data(), v.size() * sizeof(float));
  return v;
}

/// A file of the test-only certificates (tests/serving_grpc/tls/README.md).
inline std::string tls_file(const std::string& name) {
  return std::string(PROJECT_TESTS_DIR) + "/serving_grpc/tls/" + name;
}

/// Predict of one row of ones on `model` (input "x" (None, 4), output "y" (None, 2)) through
/// `credentials` to 127.0.0.1:`port`; the status.
inline grpc::Status predict_through(std::shared_ptr<grpc::ChannelCredentials> credentials, int port,
                                    const std::string& model) {
  // By address, checking the certificate's name "localhost" (a name to resolve would bring in
  // gRPC's DNS resolver, c-ares, whose allocations LeakSanitizer reports at exit).
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port), credentials, args);
  auto stub = tfs::PredictionService::NewStub(channel);
  tfs::PredictRequest request;
  request.mutable_model_spec()->set_name(model);
  (*request.mutable_inputs())["x"] = float_tensor(ops::ones({1, 4}));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  tfs::PredictResponse response;
  grpc::Status status = stub->Predict(&context, request, &response);
  if (status.ok()) {
    EXPECT_EQ(shape_of(response.outputs().at("y")), (std::vector<int64_t>{1, 2}));
  }
  return status;
}

}  // namespace keras::grpc_test
