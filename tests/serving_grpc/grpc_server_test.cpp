// keras-cpp serve's gRPC API (serve/grpc_server.h) on small models: Predict's outputs are
// model.predict's bits however the inputs are encoded, requests are batched together, versions
// and labels resolve as TF Serving's, metadata and status describe the model, and every bad
// request ends with TF Serving's status code and a message that names the problem.

#include <thread>

#include "grpc_test_helpers.h"
#include "serving_models.h"
#include "tensorflow_serving/apis/get_model_metadata.pb.h"

namespace keras::grpc_test {
namespace {

using serving_test::small_model;  // input "x" (None, 4), output "y" (None, 2)

// "features" float32 (None, 3) and "ids" int32 (None, 2); outputs "score" (None, 2) and
// "rank" int32 (None,) (the argmax of score).
ModelPtr<Model> multi_model() {
  auto features = Input({3}, {.name = "features"});
  auto ids = Input({2}, {.dtype = int32, .name = "ids"});
  auto e = layers::Flatten()(layers::Embedding(10, 2)(ids));
  auto h = layers::concatenate({layers::Dense(4, {.activation = "relu"})(features), e});
  auto score = layers::Dense(2, {.name = "score"})(h);
  auto rank = layers::Lambda([](const Tensor& s) { return ops::argmax(s, -1).astype(int32); },
                             {.name = "rank"})(score);
  return Functional({features, ids}, {score, rank});
}

tfs::PredictRequest request_for(const std::string& model, const std::string& input,
                                const tensorflow::TensorProto& tensor) {
  tfs::PredictRequest r;
  r.mutable_model_spec()->set_name(model);
  (*r.mutable_inputs())[input] = tensor;
  return r;
}

// The status of a Predict that must fail, checked against `code` and a part of its message.
void expect_error(Served& served, const tfs::PredictRequest& request, grpc::StatusCode code,
                  const std::string& says) {
  tfs::PredictResponse response;
  grpc::Status status = served.predict(request, response);
  EXPECT_EQ(status.error_code(), code) << status.error_message();
  EXPECT_NE(status.error_message().find(says), std::string::npos) << status.error_message();
}

TEST(GrpcServer, PredictEncodingsGiveModelPredictBits) {
  Served served;
  ModelPtr<Model> model = small_model();
  served.models.add("small", model);
  served.start();
  Tensor x = random::normal({5, 4}, 0, 1, float32, 3);
  const std::vector<float> want = model->predict(x, {.verbose = 0}).single().to_vector<float>();
  std::vector<float> xs = x.to_vector<float>();
  auto check = [&](const tensorflow::TensorProto& tensor, const std::string& what) {
    SCOPED_TRACE(what);
    tfs::PredictResponse response;
    grpc::Status status = served.predict(request_for("small", "x", tensor), response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const tensorflow::TensorProto& y = response.outputs().at("y");
    EXPECT_EQ(shape_of(y), (std::vector<int64_t>{5, 2}));
    EXPECT_EQ(floats_of(y), want);
    EXPECT_EQ(response.model_spec().signature_name(), "serving_default");
  };
  check(float_tensor(x), "tensor_content");
  tensorflow::TensorProto list = float_tensor(x);
  list.clear_tensor_content();
  for (float v : xs) list.add_float_val(v);
  check(list, "float_val");
  tensorflow::TensorProto doubles = list;
  doubles.clear_float_val();
  doubles.set_dtype(tensorflow::DT_DOUBLE);
  for (float v : xs) doubles.add_double_val(v);
  check(doubles, "double_val (exact float32 values)");
  // One value fills the shape (TensorFlow repeats the last one).
  tensorflow::TensorProto fill = float_tensor(x);
  fill.clear_tensor_content();
  fill.add_float_val(0.5f);
  tfs::PredictResponse response;
  ASSERT_TRUE(served.predict(request_for("small", "x", fill), response).ok());
  EXPECT_EQ(floats_of(response.outputs().at("y")),
            model->predict(ops::full({5, 4}, 0.5f), {.verbose = 0}).single().to_vector<float>());
}

TEST(GrpcServer, TwoInputsIntegersAndAnOutputFilter) {
  Served served;
  ModelPtr<Model> model = multi_model();
  served.models.add("multi", model);
  served.start();
  Tensor features = random::normal({3, 3}, 0, 1, float32, 4);
  Tensor ids = Tensor::from_vector(std::vector<int32_t>{1, 2, 3, 4, 9, 0}, {3, 2});
  TensorList want = model->predict(TensorList{features, ids}, {.verbose = 0}).flat();
  tfs::PredictRequest request = request_for("multi", "features", float_tensor(features));
  tensorflow::TensorProto& id = (*request.mutable_inputs())["ids"];
  id.set_dtype(tensorflow::DT_INT64);
  for (int64_t d : {3, 2}) id.mutable_tensor_shape()->add_dim()->set_size(d);
  for (int v : {1, 2, 3, 4, 9, 0}) id.add_int64_val(v);
  tfs::PredictResponse response;
  ASSERT_TRUE(served.predict(request, response).ok());
  EXPECT_EQ(floats_of(response.outputs().at("score")), want[0].to_vector<float>());
  const tensorflow::TensorProto& rank = response.outputs().at("rank");
  EXPECT_EQ(rank.dtype(), tensorflow::DT_INT32);  // int32 on the wire, as the model's
  std::vector<int32_t> ranks(3);
  ASSERT_EQ(rank.tensor_content().size(), 3 * sizeof(int32_t));
  std::memcpy(ranks.data(), rank.tensor_content().data(), 3 * sizeof(int32_t));
  EXPECT_EQ(ranks, want[1].to_vector<int32_t>());
  request.add_output_filter("rank");
  response.Clear();
  ASSERT_TRUE(served.predict(request, response).ok());
  EXPECT_EQ(response.outputs().size(), 1u);
  EXPECT_TRUE(response.outputs().contains("rank"));
}

TEST(GrpcServer, ConcurrentCallsAreBatchedAndKeepTheirRows) {
  Served served({.max_batch = 16, .batch_timeout_us = 20000});
  ModelPtr<Model> model = small_model();
  served.models.add("small", model);
  served.start();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        Tensor x = random::normal({1 + (t + i) % 3, 4}, 0, 1, float32, 100 * t + i);
        tfs::PredictResponse response;
        if (!served.predict(request_for("small", "x", float_tensor(x)), response).ok() ||
            floats_of(response.outputs().at("y")) !=
                model->predict(x, {.verbose = 0}).single().to_vector<float>())
          ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(served.models.metrics().merged_batches(), 0);
}

TEST(GrpcServer, VersionsLabelsMetadataAndStatus) {
  Served served;
  served.models.add("multi", multi_model());
  served.start();
  tfs::PredictRequest request = request_for("multi", "features", float_tensor(ops::ones({1, 3})));
  tensorflow::TensorProto& id = (*request.mutable_inputs())["ids"];
  id.set_dtype(tensorflow::DT_INT32);
  for (int64_t d : {1, 2}) id.mutable_tensor_shape()->add_dim()->set_size(d);
  id.add_int_val(1);  // fills both
  request.mutable_model_spec()->mutable_version()->set_value(1);
  tfs::PredictResponse response;
  EXPECT_TRUE(served.predict(request, response).ok());
  request.mutable_model_spec()->mutable_version()->set_value(2);
  expect_error(served, request, grpc::StatusCode::NOT_FOUND, "Specific(multi, 2)");
  request.mutable_model_spec()->set_version_label("stable");
  expect_error(served, request, grpc::StatusCode::NOT_FOUND, "label 'stable'");

  grpc::ClientContext context;
  tfs::GetModelMetadataRequest meta_request;
  meta_request.mutable_model_spec()->set_name("multi");
  meta_request.add_metadata_field("signature_def");
  tfs::GetModelMetadataResponse meta;
  ASSERT_TRUE(served.predictions->GetModelMetadata(&context, meta_request, &meta).ok());
  tfs::SignatureDefMap map;
  ASSERT_TRUE(meta.metadata().at("signature_def").UnpackTo(&map));
  const tensorflow::SignatureDef& def = map.signature_def().at("serving_default");
  EXPECT_EQ(def.method_name(), "tensorflow/serving/predict");
  EXPECT_EQ(def.inputs().at("ids").dtype(), tensorflow::DT_INT32);
  EXPECT_EQ(def.inputs().at("features").dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(def.inputs().at("features").tensor_shape().dim(0).size(), -1);
  EXPECT_EQ(def.inputs().at("features").tensor_shape().dim(1).size(), 3);
  EXPECT_EQ(def.outputs().at("rank").dtype(), tensorflow::DT_INT32);
  grpc::ClientContext no_field_context;
  meta_request.clear_metadata_field();
  EXPECT_EQ(
      served.predictions->GetModelMetadata(&no_field_context, meta_request, &meta).error_code(),
      grpc::StatusCode::INVALID_ARGUMENT);

  grpc::ClientContext status_context;
  tfs::GetModelStatusRequest status_request;
  status_request.mutable_model_spec()->set_name("multi");
  tfs::GetModelStatusResponse status;
  ASSERT_TRUE(served.model_service->GetModelStatus(&status_context, status_request, &status).ok());
  ASSERT_EQ(status.model_version_status_size(), 1);
  EXPECT_EQ(status.model_version_status(0).version(), 1);
  EXPECT_EQ(status.model_version_status(0).state(), tfs::ModelVersionStatus::AVAILABLE);
  // Each call counted in /metrics by method and code.
  const serving::Metrics& metrics = served.models.metrics();
  EXPECT_EQ(metrics.grpc_calls("Predict", "OK"), 1u);
  EXPECT_EQ(metrics.grpc_calls("Predict", "NOT_FOUND"), 2u);
  EXPECT_EQ(metrics.grpc_calls("GetModelMetadata", "OK"), 1u);
  EXPECT_EQ(metrics.grpc_calls("GetModelMetadata", "INVALID_ARGUMENT"), 1u);
  EXPECT_EQ(metrics.grpc_calls("GetModelStatus", "OK"), 1u);
  EXPECT_NE(served.models.prometheus_text().find(
                "keras_serving_grpc_calls_total{method=\"Predict\",code=\"NOT_FOUND\"} 2\n"),
            std::string::npos)
      << served.models.prometheus_text();
}

TEST(GrpcServer, BadRequestsGetTfServingCodesAndSayWhy) {
  Served served;
  served.models.add("small", small_model());
  served.start();
  const tensorflow::TensorProto good = float_tensor(ops::ones({2, 4}));
  expect_error(served, request_for("nope", "x", good), grpc::StatusCode::NOT_FOUND,
               "Latest(nope) (served models: 'small')");
  expect_error(served, request_for("", "x", good), grpc::StatusCode::INVALID_ARGUMENT,
               "model_spec.name is empty");
  expect_error(served, request_for("small", "z", good), grpc::StatusCode::INVALID_ARGUMENT,
               "unknown input 'z': the model's inputs are 'x'");
  tfs::PredictRequest none;
  none.mutable_model_spec()->set_name("small");
  expect_error(served, none, grpc::StatusCode::INVALID_ARGUMENT, "input 'x' is missing");
  expect_error(served, request_for("small", "x", float_tensor(ops::ones({2, 5}))),
               grpc::StatusCode::INVALID_ARGUMENT, "has shape (2, 5); the input's shape is");
  expect_error(served, request_for("small", "x", float_tensor(ops::ones({4}))),
               grpc::StatusCode::INVALID_ARGUMENT, "has shape (4,)");
  tensorflow::TensorProto strings = good;
  strings.set_dtype(tensorflow::DT_STRING);
  expect_error(served, request_for("small", "x", strings), grpc::StatusCode::INVALID_ARGUMENT,
               "is DT_STRING; it takes a numeric dtype");
  tensorflow::TensorProto short_content = good;
  short_content.mutable_tensor_content()->resize(12);
  expect_error(served, request_for("small", "x", short_content), grpc::StatusCode::INVALID_ARGUMENT,
               "tensor_content holds 12 bytes");
  tensorflow::TensorProto many = good;
  many.clear_tensor_content();
  for (int i = 0; i < 9; ++i) many.add_float_val(1);
  expect_error(served, request_for("small", "x", many), grpc::StatusCode::INVALID_ARGUMENT,
               "holds 9 values");
  // A huge shape filled from one value is refused before anything is allocated.
  tensorflow::TensorProto huge = many;
  huge.clear_float_val();
  huge.add_float_val(1);
  huge.mutable_tensor_shape()->mutable_dim(0)->set_size(int64_t{1} << 40);
  expect_error(served, request_for("small", "x", huge), grpc::StatusCode::INVALID_ARGUMENT,
               "the most one request may hold");
  tfs::PredictRequest other_signature = request_for("small", "x", good);
  other_signature.mutable_model_spec()->set_signature_name("classify");
  expect_error(served, other_signature, grpc::StatusCode::INVALID_ARGUMENT,
               "\"classify\" not found");
  tfs::PredictRequest filter = request_for("small", "x", good);
  filter.add_output_filter("w");
  expect_error(served, filter, grpc::StatusCode::INVALID_ARGUMENT, "outputs are 'y'");
  // The client's deadline, already past.
  grpc::ClientContext late;
  late.set_deadline(std::chrono::system_clock::now() - std::chrono::seconds(1));
  tfs::PredictResponse response;
  EXPECT_EQ(
      served.predictions->Predict(&late, request_for("small", "x", good), &response).error_code(),
      grpc::StatusCode::DEADLINE_EXCEEDED);
  // tf.Example calls are not served; garbage bytes are not a request.
  EXPECT_EQ(served.raw_call("/tensorflow.serving.PredictionService/Classify", "").error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_FALSE(
      served.raw_call("/tensorflow.serving.PredictionService/Predict", "\xff\xff\xff").ok());
  // and the server goes on.
  EXPECT_TRUE(served.predict(request_for("small", "x", good), response).ok());
}

TEST(GrpcServer, ShutdownAnswersTheCallsInFlight) {
  // Each batch takes 300 ms more: the call is still running when shutdown starts.
  Served served({.before_batch = [](int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }});
  served.models.add("small", small_model());
  served.start();
  grpc::Status in_flight;
  std::thread caller([&] {
    tfs::PredictResponse response;
    in_flight =
        served.predict(request_for("small", "x", float_tensor(ops::ones({1, 4}))), response);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  served.server->shutdown();
  caller.join();
  EXPECT_TRUE(in_flight.ok()) << in_flight.error_message();
  tfs::PredictResponse response;
  EXPECT_FALSE(
      served.predict(request_for("small", "x", float_tensor(ops::ones({1, 4}))), response).ok());
}

TEST(GrpcServer, ABusyPortIsAClearError) {
  Served served;
  served.models.add("small", small_model());
  served.start();
  try {
    serving::GrpcServer second(served.models, {.host = "127.0.0.1", .port = served.server->port()});
    FAIL() << "a second server bound the same port";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("pick another --grpc-port"), std::string::npos);
  }
}

}  // namespace
}  // namespace keras::grpc_test
