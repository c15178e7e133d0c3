// compile/fit/evaluate/predict against a NumPy transcription of Keras 3's training loop
// (tools/golden/trainer.py), plus the loop's rules: callbacks, history, validation, class and
// sample weights, multiple outputs, custom train_step, the stateless API and bad inputs.

#include <gtest/gtest.h>

#include <sstream>

#include "assertions.h"
#include "golden.h"
#include "keras/callbacks/history.h"
#include "keras/callbacks/progbar_logger.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

optimizers::OptimizerPtr sgd(double lr) {
  return optimizers::deserialize({{"class_name", "SGD"}, {"config", {{"learning_rate", lr}}}});
}

Tensor per_epoch(const std::vector<double>& v) {
  std::vector<float> f(v.begin(), v.end());
  return Tensor::from_vector(f, {static_cast<int64_t>(f.size())});
}

GoldenOps trainer_ops() {
  GoldenOps m;
  m["regression"] = [](const TensorList& in, const json&) {
    backend::clear_session();
    auto model = Sequential({Input({3}), layers::Dense(2)});
    model->set_weights({in[2], in[3]});
    model->compile({.optimizer = sgd(0.1), .loss = "mse"});
    auto history = model->fit(in[0], in[1],
                              {.batch_size = 4, .epochs = 2, .verbose = 0,
                               .validation_split = 0.2, .shuffle = false});
    auto w = model->get_weights();
    return TensorList{w[0], w[1], per_epoch(history->history.at("loss")),
                      per_epoch(history->history.at("val_loss")),
                      model->predict(in[0], {.verbose = 0}).single()};
  };
  m["classifier"] = [](const TensorList& in, const json&) {
    auto model = Sequential({Input({4}), layers::Dense(3, {.activation = "softmax"})});
    model->set_weights({in[3], in[4]});
    model->compile({.optimizer = sgd(0.5),
                    .loss = "sparse_categorical_crossentropy",
                    .metrics = {"accuracy"},
                    .weighted_metrics = {"accuracy"}});
    auto history = model->fit(in[0], in[1],
                              {.batch_size = 5, .epochs = 3, .verbose = 0, .shuffle = false,
                               .sample_weight = in[2]});
    auto w = model->get_weights();
    return TensorList{w[0], w[1], per_epoch(history->history.at("loss")),
                      per_epoch(history->history.at("accuracy")),
                      per_epoch(history->history.at("weighted_accuracy"))};
  };
  return m;
}

TEST(FitGolden, MatchesKerasLoopInNumPy) { run_golden("trainer", trainer_ops()); }

// Records the hook order, as a user callback sees it.
struct Recorder : callbacks::Callback {
  std::vector<std::string> events;
  void on_train_begin(const Logs&) override { events.push_back("train_begin"); }
  void on_epoch_begin(int e, const Logs&) override {
    events.push_back("epoch_begin " + std::to_string(e));
  }
  void on_train_batch_end(int64_t b, const Logs& logs) override {
    events.push_back("batch_end " + std::to_string(b) + (logs.count("loss") ? " loss" : ""));
  }
  void on_test_begin(const Logs&) override { events.push_back("test_begin"); }
  void on_test_end(const Logs&) override { events.push_back("test_end"); }
  void on_epoch_end(int e, const Logs& logs) override {
    std::string keys;
    for (const auto& [k, v] : logs) keys += " " + k;
    events.push_back("epoch_end " + std::to_string(e) + keys);
  }
  void on_train_end(const Logs&) override { events.push_back("train_end"); }
};

Tensor linear_data(int64_t n, Tensor* y) {
  Tensor x = random::normal({n, 3}, 0, 1, std::nullopt, 1);
  *y = ops::matmul(x, Tensor::from_vector<float>({1, -2, 0.5}, {3, 1})) + 0.3;
  return x;
}

TEST(Fit, CallbackOrderHistoryAndValidationLogs) {
  Tensor y;
  Tensor x = linear_data(10, &y);
  auto model = Sequential({Input({3}), layers::Dense(1)});
  model->compile({.optimizer = "sgd", .loss = "mse", .metrics = {"mae"}});
  auto rec = std::make_shared<Recorder>();
  auto history = model->fit(x, y, {.batch_size = 4, .epochs = 2, .verbose = 0,
                                   .callbacks = {rec}, .validation_split = 0.2});
  std::vector<std::string> expected = {
      "train_begin", "epoch_begin 0", "batch_end 0 loss", "batch_end 1 loss", "test_begin",
      "test_end", "epoch_end 0 loss mae val_loss val_mae", "epoch_begin 1", "batch_end 0 loss",
      "batch_end 1 loss", "test_begin", "test_end", "epoch_end 1 loss mae val_loss val_mae",
      "train_end"};
  EXPECT_EQ(rec->events, expected);
  EXPECT_EQ(history->epoch, (std::vector<int>{0, 1}));
  EXPECT_EQ(history->history.at("val_mae").size(), 2u);
  EXPECT_EQ(model->history(), history);
}

TEST(Fit, LearnsAndEvaluatesAndPredictsInBatches) {
  utils::set_random_seed(3);
  Tensor y;
  Tensor x = linear_data(256, &y);
  auto model = Sequential({Input({3}), layers::Dense(1)});
  model->compile({.optimizer = sgd(0.1), .loss = "mse"});
  auto history = model->fit(x, y, {.batch_size = 32, .epochs = 20, .verbose = 0});
  EXPECT_LT(history->history.at("loss").back(), 1e-3);
  Logs scores = model->evaluate(x, y, {.batch_size = 50, .verbose = 0});
  EXPECT_LT(scores.at("loss"), 1e-3);
  Tensor p = model->predict(x, {.batch_size = 100, .verbose = 0}).single();
  EXPECT_EQ(p.shape(), Shape({256, 1}));
  EXPECT_TRUE(tensors_near(p, model->predict_on_batch(x).single(), 1e-6, 1e-6));
}

TEST(Fit, SameSeedGivesBitIdenticalRuns) {
  auto run = [] {
    utils::set_random_seed(42);
    backend::clear_session();
    Tensor y;
    Tensor x = linear_data(64, &y);
    auto model = Sequential({Input({3}), layers::Dense(4, {.activation = "relu"}),
                             layers::Dense(1)});
    model->compile({.optimizer = "adam", .loss = "mse"});
    model->fit(x, y, {.batch_size = 8, .epochs = 3, .verbose = 0});  // shuffled
    return model->get_weights();
  };
  auto a = run(), b = run();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(tensors_near(a[i], b[i], 0, 0)) << i;
}

TEST(Fit, ClassWeightEqualsTheSameSampleWeights) {
  Tensor x = random::normal({12, 4}, 0, 1, std::nullopt, 7);
  Tensor labels = Tensor::from_vector<int32_t>({0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}, {12});
  auto train = [&](const FitOptions& o) {
    backend::clear_session();
    utils::set_random_seed(1);
    auto model = Sequential({Input({4}), layers::Dense(3, {.activation = "softmax"})});
    model->compile({.optimizer = sgd(0.3), .loss = "sparse_categorical_crossentropy"});
    model->fit(x, labels, o);
    return model->get_weights();
  };
  auto a = train({.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false,
                  .class_weight = {{0, 1.0}, {1, 3.0}, {2, 0.5}}});
  std::vector<float> w;
  for (int i = 0; i < 12; ++i) w.push_back(std::vector<float>{1.0f, 3.0f, 0.5f}[i % 3]);
  auto b = train({.batch_size = 4, .epochs = 2, .verbose = 0, .shuffle = false,
                  .sample_weight = Tensor::from_vector(w, {12})});
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(tensors_near(a[i], b[i], 1e-6, 1e-7));
}

TEST(Fit, MultipleOutputsNameLossesAndMetricsAsKeras) {
  backend::clear_session();
  auto in = Input({3}, {.name = "features"});
  auto h = layers::Dense(4, {.activation = "relu"})(in);
  auto score = layers::Dense(1, {.name = "score"})(h);
  auto klass = layers::Dense(2, {.activation = "softmax", .name = "klass"})(h);
  auto model = Functional({in}, {score, klass});
  model->compile({.optimizer = "adam",
                  .loss = std::map<std::string, losses::LossArg>{
                      {"score", "mse"}, {"klass", "sparse_categorical_crossentropy"}},
                  .loss_weights = std::map<std::string, double>{{"score", 0.5}},
                  .metrics = std::map<std::string, std::vector<metrics::MetricArg>>{
                      {"klass", {"accuracy"}}}});
  Tensor x = random::normal({8, 3}, 0, 1, std::nullopt, 2);
  Tensor y_score = random::normal({8, 1}, 0, 1, std::nullopt, 3);
  Tensor y_klass = Tensor::from_vector<int32_t>({0, 1, 1, 0, 1, 0, 0, 1}, {8});
  Logs logs = model->evaluate(std::map<std::string, Tensor>{{"features", x}},
                              std::map<std::string, Tensor>{{"score", y_score}, {"klass", y_klass}},
                              {.verbose = 0});
  std::vector<std::string> keys;
  for (const auto& [k, v] : logs) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"klass_accuracy", "klass_loss", "loss", "score_loss"}));
  EXPECT_NEAR(logs.at("loss"), 0.5 * logs.at("score_loss") + logs.at("klass_loss"), 1e-5);
  auto preds = model->predict(x, {.verbose = 0});
  EXPECT_EQ(preds.kind(), TensorStruct::Kind::List);
  EXPECT_EQ(preds.list()[1].shape(), Shape({8, 2}));
}

// A custom step written once on keras::ops and the tape: fit runs it with all its features.
class HalvedLossModel : public Model {
 public:
  HalvedLossModel() { dense_ = track("dense", layers::Dense(1)); }
  Tensor call(const Tensor& x, const CallContext&) override { return dense_(x); }
  Logs train_step(const StepData& data) override {
    Tensor loss;
    std::vector<Tensor> grads;
    {
      GradientTape tape;
      Tensor pred = call_struct(data.x, true).single();
      loss = ops::mean(ops::square(pred - data.y.single())) * 0.5;
      grads = tape.gradient(loss, trainable_weights());
    }
    optimizer()->apply(grads, trainable_weights());
    loss_tracker().update_state(loss);
    ++steps;
    return get_metrics_result();
  }
  int steps = 0;

 private:
  LayerPtr<layers::DenseLayer> dense_;
};

TEST(Fit, CustomTrainStepRunsInFit) {
  Tensor y;
  Tensor x = linear_data(20, &y);
  auto model = make_layer<HalvedLossModel>();
  model->compile({.optimizer = sgd(0.05)});
  auto history = model->fit(x, y, {.batch_size = 5, .epochs = 3, .verbose = 0});
  EXPECT_EQ(model->steps, 12);
  auto& losses = history->history.at("loss");
  EXPECT_LT(losses.back(), losses.front());
}

TEST(Fit, StatelessLoopMatchesFit) {
  Tensor y;
  Tensor x = linear_data(16, &y);
  auto make = [] {
    backend::clear_session();
    auto m = Sequential({Input({3}), layers::Dense(2, {.activation = "tanh"}), layers::Dense(1)});
    m->set_weights({Tensor::from_vector<float>({0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f}, {3, 2}),
                    Tensor::from_vector<float>({0.01f, -0.02f}, {2}),
                    Tensor::from_vector<float>({0.7f, -0.8f}, {2, 1}),
                    Tensor::from_vector<float>({0.05f}, {1})});
    return m;
  };
  auto fitted = make();
  fitted->compile({.optimizer = sgd(0.1), .loss = "mse"});
  fitted->fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0, .shuffle = false});

  auto model = make();
  auto opt = sgd(0.1);
  opt->build(model->trainable_weights());
  TensorList trainable = model->get_weights();
  TensorList opt_vars;
  for (const Variable& v : opt->variables()) opt_vars.push_back(v.value());
  losses::MeanSquaredError mse;
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (int64_t s = 0; s < 16; s += 8) {
      Tensor xb = x.slice({{s, s + 8}}), yb = y.slice({{s, s + 8}});
      auto [loss, grads] = value_and_grad(
          [&](const std::vector<Tensor>& tv) {
            return mse(yb, model->stateless_call(tv, {}, {xb}).outputs[0]);
          },
          trainable);
      std::tie(trainable, opt_vars) = opt->stateless_apply(opt_vars, grads, trainable);
    }
  }
  auto expected = fitted->get_weights();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(tensors_near(trainable[i], expected[i], 1e-6, 1e-7)) << i;
  // The stateless loop never touched the model's own variables.
  EXPECT_TRUE(tensors_near(model->get_weights()[0], make()->get_weights()[0], 0, 0));
}

TEST(Progbar, MatchesKerasOutputOnATerminal) {
  std::ostringstream out;
  double now = 0;
  utils::Progbar bar(469, {.out = &out, .dynamic_display = true, .clock = [&] { return now; }});
  now = 0.006;
  bar.update(1, {{"accuracy", 0.5}, {"loss", 1.2}});
  out.str("");
  now = 2.82;
  bar.update(469, {{"accuracy", 0.8123}, {"loss", 0.5312}}, true);
  // Keras 3 prints exactly this line (then a newline) at the end of an epoch.
  std::string bars;
  for (int i = 0; i < 20; ++i) bars += "\xe2\x94\x81";
  std::string line = out.str();
  std::string tail = "\r\x1b[1m469/469\x1b[0m \x1b[32m" + bars +
                     "\x1b[0m\x1b[37m\x1b[0m \x1b[1m3s\x1b[0m 6ms/step - accuracy: 0.8123 - "
                     "loss: 0.5312\n";
  ASSERT_GE(line.size(), tail.size());
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail);
}

TEST(Progbar, PlainOutputWhenNotATerminalAndVerboseTwo) {
  std::ostringstream out;
  double now = 0;
  utils::Progbar bar(50, {.out = &out, .dynamic_display = false, .clock = [&] { return now; }});
  for (int i = 1; i <= 50; ++i) {
    now = 0.02 * i;
    bar.update(i, {{"loss", 0.25}});
  }
  std::string bars;
  for (int i = 0; i < 20; ++i) bars += "\xe2\x94\x81";
  EXPECT_EQ(out.str(), "50/50 " + bars + " 1s 20ms/step - loss: 0.2500\n");
  std::ostringstream out2;
  now = 0;
  utils::Progbar two(50, {.verbose = 2, .out = &out2, .clock = [&] { return now; }});
  now = 1.0;
  two.update(50, {{"loss", 0.0001}});
  EXPECT_EQ(out2.str(), "50/50 - 1s - 20ms/step - loss: 1.0000e-04\n");
}

TEST(Fit, ProgbarLoggerPrintsEpochLines) {
  Tensor y;
  Tensor x = linear_data(8, &y);
  auto model = Sequential({Input({3}), layers::Dense(1)});
  model->compile({.optimizer = "sgd", .loss = "mse"});
  std::ostringstream out;
  auto logger = std::make_shared<callbacks::ProgbarLogger>(&out, false);
  model->fit(x, y, {.batch_size = 4, .epochs = 2, .callbacks = {logger}});
  std::string text = out.str();
  EXPECT_EQ(text.rfind("Epoch 1/2\n2/2 ", 0), 0u) << text;
  EXPECT_NE(text.find("\nEpoch 2/2\n2/2 "), std::string::npos) << text;
  EXPECT_NE(text.find("step - loss: "), std::string::npos) << text;
}

TEST(Fit, BadArgumentsGiveClearErrors) {
  Tensor y;
  Tensor x = linear_data(8, &y);
  auto model = Sequential({Input({3}), layers::Dense(1)});
  EXPECT_THROW(model->fit(x, y), ValueError);  // not compiled
  model->compile({.optimizer = "sgd", .loss = "mse"});
  EXPECT_THROW(model->fit(x, y.slice({{0, 5}}), {.verbose = 0}), ValueError);
  EXPECT_THROW(model->fit(x, y, {.batch_size = 0, .verbose = 0}), ValueError);
  EXPECT_THROW(model->fit(x, y, {.verbose = 3}), ValueError);
  EXPECT_THROW(model->fit(x, y, {.verbose = 0, .validation_split = 1.0}), ValueError);
  EXPECT_THROW(model->fit(x, Tensor(), {.verbose = 0}), ValueError);
  EXPECT_THROW(model->compile({.loss = "mean_sqared_error"}), ValueError);
  EXPECT_THROW(model->compile({.optimizer = "adamm"}), ValueError);
  model->compile({.optimizer = "sgd", .loss = "mse", .metrics = {"acuracy"}});
  EXPECT_THROW(model->evaluate(x, y, {.verbose = 0}), ValueError);
}

}  // namespace
}  // namespace keras
