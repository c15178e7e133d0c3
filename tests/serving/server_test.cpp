// keras-cpp serve's server (tools/serve: keras::serving::ModelServer and HttpServer) in
// process, on a free port, through httplib::Client: TensorFlow Serving's predict formats
// (row "instances" and columnar "inputs") against model.predict bit for bit, model status and
// metadata, every error with its status code and message, dynamic batching across concurrent
// clients, the full-queue 503 and the graceful stop.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <thread>

#include "blas_invariance.h"
#include "serving_helpers.h"

namespace keras {
namespace {

using namespace serving_test;

// ---- predict ---------------------------------------------------------------------------------

TEST(Serving, PredictRowAndColumnarMatchPredict) {
  auto model = small_model();
  Tensor x = random::normal({3, 4});
  std::vector<float> want = model->predict(x, {.verbose = 0}).single().to_vector<float>();
  Tensor x1 = x.slice({Slice(0, 1)});
  std::vector<float> want1 = model->predict(x1, {.verbose = 0}).single().to_vector<float>();
  Served s(model, "small");

  Reply r = post(s, "/v1/models/small:predict", json{{"instances", rows_json(x)}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json preds = r.doc().at("predictions");
  ASSERT_EQ(preds.size(), 3u);
  ASSERT_EQ(preds[0].size(), 2u);
  EXPECT_TRUE(same_bits(flat(preds), want));

  r = post(s, "/v1/models/small:predict", json{{"inputs", rows_json(x)}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(same_bits(flat(r.doc().at("outputs")), want));

  // One row; the input named; the version and signature given as TF Serving allows.
  r = post(s, "/v1/models/small/versions/1:predict",
           json{{"signature_name", "serving_default"},
                {"instances", json::array({{{"x", rows_json(x1)[0]}}})}}
               .dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(same_bits(flat(r.doc().at("predictions")), want1));
  r = post(s, "/v1/models/small:predict", json{{"inputs", {{"x", rows_json(x1)}}}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(same_bits(flat(r.doc().at("outputs")), want1));

  // What `curl -d` sends: Content-Type application/x-www-form-urlencoded, here over 8 KiB
  // (httplib would parse such a body as a form and refuse it over 8 KiB).
  auto c = s.client();
  std::string body = json{{"inputs", rows_json(x)}}.dump() + std::string(10000, ' ');
  r = reply_of(c.Post("/v1/models/small:predict", body, "application/x-www-form-urlencoded"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(same_bits(flat(r.doc().at("outputs")), want));
}

TEST(Serving, MultiInputMultiOutputByName) {
  auto model = multi_model();
  Tensor features = random::normal({3, 3});
  Tensor ids = Tensor::from_vector<int32_t>({1, 2, 3, 4, 9, 0}, {3, 2});
  TensorList want = model->predict(TensorList{features, ids}, {.verbose = 0}).flat();
  ASSERT_EQ(want.size(), 2u);
  std::vector<float> score = want[0].to_vector<float>(), prob = want[1].to_vector<float>();
  Served s(model, "multi");

  json f = rows_json(features);
  json i = json::array({{1, 2}, {3, 4}, {9, 0}});
  json instances = json::array();
  for (int r = 0; r < 3; ++r) instances.push_back({{"features", f[r]}, {"ids", i[r]}});
  Reply r = post(s, "/v1/models/multi:predict", json{{"instances", instances}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json preds = r.doc().at("predictions");
  ASSERT_EQ(preds.size(), 3u);
  std::vector<float> got_score, got_prob;
  for (const json& p : preds) {
    ASSERT_TRUE(p.is_object()) << p;
    flatten_into(p.at("score"), got_score);
    flatten_into(p.at("prob"), got_prob);
  }
  EXPECT_TRUE(same_bits(got_score, score));
  EXPECT_TRUE(same_bits(got_prob, prob));

  r = post(s, "/v1/models/multi:predict", json{{"inputs", {{"features", f}, {"ids", i}}}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json outputs = r.doc().at("outputs");
  EXPECT_TRUE(same_bits(flat(outputs.at("score")), score));
  EXPECT_TRUE(same_bits(flat(outputs.at("prob")), prob));
  EXPECT_EQ(outputs.at("prob").size(), 3u);
}

TEST(Serving, StatusAndMetadata) {
  Served s(multi_model(), "multi");
  Reply r = get(s, "/v1/models/multi");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.doc(), json::parse(R"({"model_version_status": [{"version": "1",
      "state": "AVAILABLE", "status": {"error_code": "OK", "error_message": ""}}]})"));
  EXPECT_EQ(get(s, "/v1/models/multi/versions/1").status, 200);

  r = get(s, "/v1/models/multi/metadata");
  ASSERT_EQ(r.status, 200) << r.body;
  json doc = r.doc();
  EXPECT_EQ(doc.at("model_spec"),
            json::parse(R"({"name": "multi", "signature_name": "", "version": "1"})"));
  json def = doc.at("metadata").at("signature_def").at("signature_def").at("serving_default");
  EXPECT_EQ(def.at("method_name"), "tensorflow/serving/predict");
  EXPECT_EQ(def.at("inputs").at("features"),
            json::parse(R"({"dtype": "DT_FLOAT", "name": "features",
      "tensor_shape": {"dim": [{"size": "-1", "name": ""}, {"size": "3", "name": ""}],
                       "unknown_rank": false}})"));
  EXPECT_EQ(def.at("inputs").at("ids").at("dtype"), "DT_INT32");
  EXPECT_EQ(def.at("outputs").at("prob").at("tensor_shape").at("dim"),
            json::parse(R"([{"size": "-1", "name": ""}, {"size": "1", "name": ""}])"));
  EXPECT_EQ(def.at("outputs").at("score").at("dtype"), "DT_FLOAT");
}

// A subclassed model: two Dense layers and keras.ops in call().
class TwoLayerNet : public Model {
 public:
  TwoLayerNet() : Model({.name = "two_layer_net"}, "two_layer_net") {
    hidden_ = track("hidden", layers::Dense(5, {.activation = "tanh"}));
    head_ = track("head", layers::Dense(2));
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    return head_(ops::add(hidden_(x), ops::multiply(x, 0.0)));
  }

 private:
  LayerPtr<layers::DenseLayer> hidden_, head_;
};

// A subclassed model serves once built: its signature from the shapes it was built with
// ("inputs", float32) and one row through it ("outputs"); the rows are model.predict's.
TEST(Serving, BuiltSubclassedModelsServe) {
  ModelPtr<Model> unbuilt = make_layer<TwoLayerNet>();
  try {
    serving::ModelServer server(unbuilt);
    FAIL() << "an unbuilt subclassed model was accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("has not been built"), std::string::npos) << e.what();
  }
  ModelPtr<Model> model = make_layer<TwoLayerNet>();
  Tensor x = random::normal({3, 5});
  const Tensor want = model->predict(x, {.verbose = 0}).single();  // builds it
  Served s(model, "net");
  const json metadata = get(s, "/v1/models/net/metadata").doc();
  const json& def = metadata.at("metadata").at("signature_def").at("signature_def").at(
      "serving_default");
  EXPECT_EQ(def.at("inputs").at("inputs").at("dtype"), "DT_FLOAT") << metadata.dump();
  EXPECT_EQ(def.at("outputs").at("outputs").at("tensor_shape").at("dim").size(), 2u)
      << metadata.dump();
  Reply r = post(s, "/v1/models/net:predict", json{{"instances", rows_json(x)}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(close_to(flat(r.doc().at("predictions")), want.to_vector<float>()));
}

// ---- errors ----------------------------------------------------------------------------------

TEST(Serving, ModelsWithoutASignatureAreRefused) {
  auto no_input = Sequential({layers::Dense(2)});
  try {
    serving::ModelServer server(no_input);
    FAIL() << "a Sequential model without an Input was accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("has no known input signature"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(serving::ModelServer(small_model(), {.max_batch = 0}), ValueError);
}

// A model whose output is complex: TF Serving's JSON has no complex numbers.
class ComplexNet : public Model {
 public:
  ComplexNet() : Model({.name = "complex_net"}, "complex_net") {}
  Tensor call(const Tensor& x, const CallContext&) override {
    return ops::view_as_complex(ops::stack({x, x}, -1));
  }
};

TEST(Serving, ComplexOutputsAreRefusedAtLoad) {
  ModelPtr<Model> model = make_layer<ComplexNet>();
  model->predict(random::normal({2, 3}), {.verbose = 0});  // builds it
  try {
    serving::ModelServer server(model);
    FAIL() << "a model with a complex output was accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("complex64"), std::string::npos) << e.what();
  }
}

struct ErrorCase {
  const char* body;
  const char* message;  // a part of the error message
};

TEST(Serving, BadRequestsGet400WithTheReason) {
  Served s(multi_model(), "multi");
  const ErrorCase cases[] = {
      {"{\"instances\": [", "malformed JSON"},
      {"[1, 2]", "must be a JSON object"},
      {"{}", "neither \"instances\""},
      {R"({"instances": [], "inputs": {}})", "both \"instances\""},
      {R"({"instances": []})", "'instances' is empty"},
      {R"({"instances": 3})", "must be a list of instances"},
      {R"({"instances": [[1, 2, 3]]})", "must be an object keyed by input name"},
      {R"({"instances": [{"features": [1, 2, 3]}]})", "lacks input 'ids'"},
      {R"({"instances": [{"features": [1, 2, 3], "ids": [1, 2], "x": 1}]})", "unknown input 'x'"},
      {R"({"instances": [{"features": [1, 2], "ids": [1, 2]}]})",
       "input 'features' takes instances of shape (3,)"},
      {R"({"instances": [{"features": [1, 2, 3], "ids": [1, 2]},
                         {"features": [1, 2, 3, 4], "ids": [1, 2]}]})",
       "instances[1][\"features\"] has shape (4,) but instances[0] has (3,)"},
      {R"({"instances": [{"features": [1, "a", 3], "ids": [1, 2]}]})",
       "input 'features' has dtype float32: expected a number at instances[0][\"features\"][1], "
       "got the string \"a\""},
      {R"({"instances": [{"features": [1, 2, 3], "ids": [1, 2.5]}]})",
       "input 'ids' has dtype int32: expected an integer at instances[0][\"ids\"][1], got 2.5"},
      {R"({"instances": [{"features": [1, 2, 3], "ids": [1, 3000000000]}]})",
       "3000000000 at instances[0][\"ids\"][1] is out of its range"},
      {R"({"instances": [{"features": [1, 2, 3], "ids": [1, null]}]})", "got null"},
      {R"({"inputs": {"features": [[1, 2, 3], [4, 5, 6]], "ids": [[1, 2]]}})",
       "different batch sizes"},
      {R"({"inputs": {"features": [[1, 2, 3], [4, 5]], "ids": [[1, 2], [3, 4]]}})",
       "ragged list at inputs[\"features\"][1]"},
      {R"({"inputs": {"features": [1, 2, 3], "ids": [[1, 2]]}})",
       "input 'features' takes a batch of shape (None, 3), but inputs[\"features\"] has shape "
       "(3,)"},
      {R"({"inputs": [[1, 2, 3]]})", "'inputs' must be an object keyed by input name"},
      {R"({"signature_name": "other", "instances": [1]})",
       "signature_name \"other\" is not served"},
  };
  for (const ErrorCase& c : cases) {
    Reply r = post(s, "/v1/models/multi:predict", c.body);
    EXPECT_EQ(r.status, 400) << c.body << " -> " << r.body;
    ASSERT_NO_THROW(r.error()) << r.body;
    EXPECT_NE(r.error().find(c.message), std::string::npos)
        << c.body << "\n  message: " << r.error() << "\n  expected to contain: " << c.message;
  }
  // Nesting far deeper than any input: a 400, not a crash.
  std::string deep = "{\"inputs\": {\"features\": " + std::string(100000, '[') +
                     std::string(100000, ']') + ", \"ids\": [[1, 2]]}}";
  Reply r = post(s, "/v1/models/multi:predict", deep);
  EXPECT_EQ(r.status, 400) << r.body.substr(0, 200);
  // The server still answers.
  r = post(s, "/v1/models/multi:predict",
           R"({"instances": [{"features": [1, 2, 3], "ids": [1, 2]}]})");
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST(Serving, UnknownPathsMethodsAndLargeBodies) {
  Served s(small_model(), "small", {}, {.max_body_bytes = 1000});
  const std::string ok = R"({"instances": [[1, 2, 3, 4]]})";
  Reply r = post(s, "/v1/models/other:predict", ok);
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.error().find("Servable not found for request: Latest(other)"), std::string::npos)
      << r.body;
  r = post(s, "/v1/models/small/versions/2:predict", ok);
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.error().find("Specific(small, 2)"), std::string::npos) << r.body;
  r = get(s, "/v1/models/small/labels/stable");
  EXPECT_EQ(r.status, 400);  // TF Serving's InvalidArgument
  EXPECT_NE(r.error().find("Unrecognized servable version label: stable"), std::string::npos)
      << r.body;
  r = get(s, "/v1/models/small/versions/x1");
  EXPECT_EQ(r.status, 400);
  r = get(s, "/v2/other");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.error().find("unknown path /v2/other"), std::string::npos) << r.body;
  r = post(s, "/v1/models/small:explain", ok);
  EXPECT_EQ(r.status, 404);
  r = post(s, "/v1/models/small:classify", ok);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error().find(":predict only"), std::string::npos) << r.body;

  r = get(s, "/v1/models/small:predict");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.allow, "POST");
  EXPECT_NE(r.error().find("method GET is not allowed on /v1/models/small:predict"),
            std::string::npos)
      << r.body;
  r = post(s, "/v1/models/small", ok);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.allow, "GET");
  auto c = s.client();
  r = reply_of(c.Delete("/metrics"));
  EXPECT_EQ(r.status, 405);
  r = reply_of(c.Put("/v1/models/small/metadata", "{}", "application/json"));
  EXPECT_EQ(r.status, 405);

  r = post(s, "/v1/models/small:predict",
           "{\"instances\": [[" + std::string(2000, ' ') + "1, 2, 3, 4]]}");
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.error().find("larger than the limit of 1000 bytes"), std::string::npos) << r.body;

  r = post(s, "/v1/models/small:predict", ok);
  EXPECT_EQ(r.status, 200) << r.body;
  // Every answer counted by status code. A reply is counted once it has been sent (httplib's
  // logger), so the last count may lag the client by a moment on a loaded machine.
  // Each poll of /metrics is itself a 200 counted after it is sent.
  std::string metrics;
  auto count = [&](const char* code) {
    return metric(metrics, "keras_serving_requests_total{code=\"" + std::string(code) + "\"}");
  };
  int polls = 0;
  for (; polls < 200; ++polls) {
    metrics = get(s, "/metrics").body;
    if (count("404") >= 4u && count("405") >= 4u && count("413") >= 1u && count("200") >= 1u)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(count("404"), 4u) << metrics;  // an unknown label is a 400, as in TF Serving
  EXPECT_EQ(count("405"), 4u) << metrics;
  EXPECT_EQ(count("413"), 1u) << metrics;
  EXPECT_GE(count("200"), 1u) << metrics;
  EXPECT_LE(count("200"), 1u + polls) << metrics;
}

// ---- batching, the queue, stopping ---------------------------------------------------------

// Holds the worker in before_batch until release() (for the queue and stop tests).
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
  std::atomic<int> entered{0};
  BatchingOptions options(size_t max_queue) {
    return {.max_batch = 1,
            .batch_timeout_us = 0,
            .max_queue = max_queue,
            .before_batch = [this](int64_t) {
              ++entered;
              opened.wait();
            }};
  }
  void wait_entered(int n) {
    while (entered < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

void wait_queue(const Served& s, size_t n) {
  while (s.model->queue_size() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(Serving, FullQueueGets503WithRetryAfter) {
  Gate gate;
  Served s(small_model(), "small", gate.options(1));
  const std::string body = R"({"instances": [[1, 2, 3, 4]]})";
  auto a =
      std::async(std::launch::async, [&] { return post(s, "/v1/models/small:predict", body); });
  gate.wait_entered(1);  // a runs (held)
  auto b =
      std::async(std::launch::async, [&] { return post(s, "/v1/models/small:predict", body); });
  wait_queue(s, 1);  // b waits in the queue, which is full
  Reply c = post(s, "/v1/models/small:predict", body);
  EXPECT_EQ(c.status, 503) << c.body;
  EXPECT_EQ(c.retry_after, "1");
  EXPECT_NE(c.error().find("queue is full"), std::string::npos) << c.body;
  gate.open.set_value();
  EXPECT_EQ(a.get().status, 200);
  EXPECT_EQ(b.get().status, 200);
  EXPECT_EQ(post(s, "/v1/models/small:predict", body).status, 200);
  // Counted once the reply has been sent (httplib's logger): it may lag the client a moment.
  for (int i = 0; i < 200 && s.model->metrics().requests(503) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(s.model->metrics().requests(503), 1u);
}

TEST(Serving, StopFinishesQueuedRequestsAndRefusesNewOnes) {
  Gate gate;
  Served s(small_model(), "small", gate.options(8));
  const std::string body = R"({"instances": [[1, 2, 3, 4]]})";
  auto a =
      std::async(std::launch::async, [&] { return post(s, "/v1/models/small:predict", body); });
  gate.wait_entered(1);
  auto b =
      std::async(std::launch::async, [&] { return post(s, "/v1/models/small:predict", body); });
  wait_queue(s, 1);
  auto stopped = std::async(std::launch::async, [&] { s.http->stop(); });
  // New connections are refused once stop() began.
  Reply refused;
  for (int i = 0; i < 2000; ++i) {
    refused = get(s, "/v1/models/small");
    if (refused.status == -1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(refused.status, -1) << "still accepting after stop(): " << refused.body;
  EXPECT_EQ(stopped.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout)
      << "stop() returned with requests in flight";
  gate.open.set_value();
  Reply ra = a.get(), rb = b.get();
  EXPECT_EQ(ra.status, 200) << ra.body;
  EXPECT_EQ(rb.status, 200) << rb.body;
  stopped.get();
  s.model->stop();
  EXPECT_THROW(s.model->submit({}), serving::ShuttingDownError);
}

// The worker waits for companions only while requests are on their way: a lone request runs at
// once whatever batch_timeout_us says; one announced with an Arriving token is waited for and
// joins the batch.
TEST(Serving, BatchingWaitsOnlyForRequestsOnTheirWay) {
  serving::ModelServer server(small_model(), {.max_batch = 8, .batch_timeout_us = 10'000'000});
  auto row = [] {
    serving::HostArray a;
    a.shape = Shape({1, 4});
    a.data.assign(a.row_bytes(), 0);
    return std::vector<serving::HostArray>{a};
  };
  const auto start = std::chrono::steady_clock::now();
  auto lone = server.submit(row());
  ASSERT_EQ(lone.wait_for(std::chrono::seconds(5)), std::future_status::ready)
      << "a lone request waited for companions";
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(server.metrics().batches(), 1u);

  std::future<std::vector<serving::HostArray>> first, second;
  {
    serving::ModelServer::Arriving on_its_way(server);
    first = server.submit(row());
    EXPECT_EQ(first.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "the worker did not wait for the request on its way";
    second = server.submit(row());
  }
  ASSERT_EQ(first.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  ASSERT_EQ(second.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(server.metrics().batches(), 2u);  // both rows in one batch
  EXPECT_EQ(server.metrics().merged_batches(), 1u);
}

// A retired version's last handle may be held by its last request's completion, released on
// its own worker thread: the worker then runs out the queue and ends, releasing the model
// (it used to deadlock there, relocking its queue's mutex, and keep the model for good).
TEST(Serving, AServerReleasedByItsOwnWorkerEnds) {
  ModelPtr<Model> model = small_model();
  std::weak_ptr<Model> watch = model;
  auto server = std::make_shared<serving::ModelServer>(std::move(model));
  model = nullptr;
  serving::HostArray row;
  row.shape = Shape({1, 4});
  row.data.assign(row.row_bytes(), 0);
  std::promise<bool> answered;
  std::weak_ptr<serving::ModelServer> server_watch = server;
  server->submit({row}, serving::ModelServer::Clock::time_point::max(),
                 [&answered, keep = server](std::vector<serving::HostArray> out,
                                            std::exception_ptr error) {
                   answered.set_value(!error && out.size() == 1);
                 });
  server = nullptr;  // the completion holds the last handle
  auto done = answered.get_future();
  ASSERT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_TRUE(done.get());
  for (int i = 0; i < 3000 && !watch.expired(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(server_watch.expired());
  EXPECT_TRUE(watch.expired()) << "the worker did not end and release the model";
}

// The trained CNN of ../shared/models: rows from 8 concurrent clients are batched together,
// and every client gets the bits model.predict gives for its row. (On the cpu backend a row's
// result does not depend on the rows it is batched with where the BLAS rounds a row the same in
// any product (blas_invariance.h); LibTorch's convolutions choose their algorithm by batch size,
// so on torch, and with other BLAS kernels, the rows agree to 1e-5.)
TEST(Serving, FashionMnistConcurrentClientsAreBatched) {
  const bool exact = backend::backend() == "cpu" && test::matmul_rows_are_invariant();
  const std::string path = model_path("fashion_mnist_cnn.keras");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
  auto model = saving::load_model(path, {.compile = false});
  constexpr int kThreads = 8, kPerThread = 12, kRows = kThreads * kPerThread;
  Tensor x = random::uniform({kRows, 28, 28, 1});
  std::vector<float> want =
      model->predict(x, {.batch_size = 32, .verbose = 0}).single().to_vector<float>();
  json rows = rows_json(x);
  std::vector<std::string> bodies;
  for (int i = 0; i < kRows; ++i)
    bodies.push_back(json{{"instances", json::array({rows[static_cast<size_t>(i)]})}}.dump());

  auto run_clients = [&](Served& s) -> double {
    std::vector<std::vector<float>> got(kRows);
    std::vector<int> status(kRows, 0);
    std::vector<std::thread> threads;
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        auto c = s.client();
        c.set_keep_alive(true);
        for (int k = 0; k < kPerThread; ++k) {
          const int i = t * kPerThread + k;
          auto r = c.Post("/v1/models/fashion:predict", bodies[static_cast<size_t>(i)],
                          "application/json");
          status[static_cast<size_t>(i)] = r ? r->status : -1;
          if (r && r->status == 200)
            got[static_cast<size_t>(i)] = flat(json::parse(r->body).at("predictions"));
        }
      });
    for (auto& th : threads) th.join();
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    for (int i = 0; i < kRows; ++i) {
      if (status[static_cast<size_t>(i)] != 200) {
        ADD_FAILURE() << "row " << i << ": status " << status[static_cast<size_t>(i)];
        continue;
      }
      std::vector<float> row(want.begin() + i * 10, want.begin() + (i + 1) * 10);
      EXPECT_TRUE(exact ? same_bits(got[static_cast<size_t>(i)], row)
                        : close_to(got[static_cast<size_t>(i)], row))
          << "row " << i;
    }
    return kRows / took.count();
  };

  double batched_rps = 0, unbatched_rps = 0;
  uint64_t merged = 0;
  {
    Served s(model, "fashion", {.max_batch = 32, .batch_timeout_us = 2000});
    batched_rps = run_clients(s);
    std::string metrics = get(s, "/metrics").body;
    merged = metric(metrics, "keras_serving_merged_batches_total");
    EXPECT_GT(merged, 0u) << metrics;
    EXPECT_LT(metric(metrics, "keras_serving_batch_size_count"), static_cast<uint64_t>(kRows))
        << metrics;
    EXPECT_EQ(metric(metrics, "keras_serving_request_duration_seconds_count"),
              static_cast<uint64_t>(kRows))
        << metrics;
  }
  {
    Served s(model, "fashion", {.max_batch = 1, .batch_timeout_us = 0});
    unbatched_rps = run_clients(s);
  }
  std::cout << "[ serving  ] fashion_mnist_cnn, " << kThreads
            << " clients, 1 row a request: " << static_cast<int>(batched_rps)
            << " requests/s batched (max_batch 32, " << merged << " merged batches), "
            << static_cast<int>(unbatched_rps) << " requests/s with max_batch 1" << std::endl;
}

}  // namespace
}  // namespace keras
