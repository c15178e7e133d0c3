// DataParallel across processes: jobs of 2 and 4 processes (this binary, started by
// `keras-cpp launch`) train to the weights one process reaches with the same global batch
// (float32 within 1e-5, float64 within 1e-12: the processes sum partial gradients, so the
// reduction order differs), evaluate and predict agree with it, the replicas stay identical
// with shuffling and dropout, only process 0 writes files, and mismatched programs, a process
// that dies and one that hangs give errors on the others.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "job_runner.h"
#include "keras/callbacks/csv_logger.h"
#include "keras/callbacks/lambda_callback.h"
#include "keras/callbacks/model_checkpoint.h"
#include "keras/saving/save_model.h"
#include "keras/distribution/distribution.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace dist = keras::distribution;

// ---- data and models: the same on every process, from no random state ----------------------

// x: n rows of smooth, varied values; y: the class of a fixed linear score (3 classes).
std::pair<Tensor, Tensor> classification(const Shape& x_shape) {
  const int64_t n = x_shape[0], f = x_shape.numel() / n;
  Tensor x = ops::sin(ops::multiply(ops::arange(0, n * f, 1, DType::Float32), 0.37));
  Tensor w = ops::cos(ops::multiply(ops::arange(0, f * 3, 1, DType::Float32), 1.3));
  Tensor y = ops::argmax(ops::matmul(ops::reshape(x, {n, f}), ops::reshape(w, {f, 3})), -1);
  x = ops::cast(ops::reshape(x, x_shape), config::floatx());
  return {x, ops::cast(y, DType::Int32)};
}

ModelPtr<> make_model(const std::string& kind) {
  utils::set_random_seed(7);
  ModelPtr<> model;
  if (kind == "mlp") {
    model = Sequential({Input({8}), layers::Dense(16, {.activation = "relu"}),
                        layers::Dense(3, {.activation = "softmax"})});
  } else if (kind == "wide") {  // a different model, for the mismatch test
    model = Sequential({Input({8}), layers::Dense(17, {.activation = "relu"}),
                        layers::Dense(3, {.activation = "softmax"})});
  } else if (kind == "cnn") {
    model = Sequential({Input({8, 8, 1}), layers::Conv2D(4, 3, {.activation = "relu"}),
                        layers::MaxPooling2D(2), layers::Flatten(),
                        layers::Dense(3, {.activation = "softmax"})});
  } else if (kind == "bn") {
    // No bias before the normalization: its gradient is zero but for rounding, which Adam
    // would scale up to full steps, differently in each reduction order.
    model = Sequential({Input({8}), layers::Dense(8, {.use_bias = false}),
                        layers::BatchNormalization({.synchronized = true}),
                        layers::Dense(3, {.activation = "softmax"})});
  } else {  // "dropout"
    model = Sequential({Input({8}), layers::Dense(16, {.activation = "relu"}), layers::Dropout(0.5),
                        layers::Dense(3, {.activation = "softmax"})});
  }
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy",
                  .metrics = {"accuracy"}});
  return model;
}

double max_difference(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    std::vector<double> x = ops::cast(a[i], DType::Float64).to_vector<double>();
    std::vector<double> y = ops::cast(b[i], DType::Float64).to_vector<double>();
    EXPECT_EQ(x.size(), y.size());
    for (size_t k = 0; k < x.size() && k < y.size(); ++k) worst = std::max(worst, std::abs(x[k] - y[k]));
  }
  return worst;
}

Shape input_shape(const std::string& kind, int64_t n) {
  return kind == "cnn" ? Shape{n, 8, 8, 1} : Shape{n, 8};
}

// ---- the processes' bodies (run only inside a job) -------------------------------------------

// DataParallel, or with KERAS_JOB_MODEL_PARALLEL=b a ModelParallel on a (b, P/b) mesh of
// ("batch", "model") whose layout map splits the MLP's Dense kernels over "model".
void join_job() {
  dist::initialize();
  if (const char* batch_shards = std::getenv("KERAS_JOB_MODEL_PARALLEL")) {
    const int64_t b = std::atoi(batch_shards), p = dist::num_processes();
    auto mesh = std::make_shared<dist::DeviceMesh>(std::vector<int64_t>{b, p / b},
                                                   std::vector<std::string>{"batch", "model"});
    dist::LayoutMap layouts(mesh);
    // The first kernel (8, 16) by its columns, the second (16, 3) by its rows.
    layouts.set("dense/kernel", std::vector<std::optional<std::string>>{std::nullopt, "model"});
    layouts.set("dense_1/kernel", std::vector<std::optional<std::string>>{"model", std::nullopt});
    dist::set_distribution(std::make_shared<dist::ModelParallel>(layouts, "batch"));
  } else {
    dist::set_distribution(std::make_shared<dist::DataParallel>());
  }
}

// Trains `kind` data-parallel on 200 samples (batches of 32, the last of 8) and compares with
// one process training the same model on the same global batches.
TEST(DISABLED_Job, MatchesOneProcess) {
  join_job();
  const std::string kind = std::getenv("KERAS_JOB_MODEL");
  const bool f64 = std::getenv("KERAS_JOB_FLOAT64") != nullptr;
  if (f64) config::set_floatx(DType::Float64);
  const double tolerance = f64 ? 1e-12 : 1e-5;
  auto [x, y] = classification(input_shape(kind, 200));
  const FitOptions fit{.batch_size = 32, .epochs = 2, .verbose = 0, .shuffle = false};

  auto model = make_model(kind);
  // Under ModelParallel: the shapes the first kernel and its Adam slots have during fit, and a
  // checkpoint written meanwhile (whole: gathered by every process, written by process 0).
  const bool model_parallel = std::getenv("KERAS_JOB_MODEL_PARALLEL") != nullptr;
  const std::string checkpoint = (std::filesystem::temp_directory_path() /
                                  ("keras_job_" + std::to_string(::getppid()) + "_mp.keras")).string();
  Shape kernel_in_fit, slot_in_fit;
  FitOptions with_probes = fit;
  if (model_parallel) {
    with_probes.callbacks.push_back(std::make_shared<callbacks::LambdaCallback>(
        callbacks::LambdaCallbackOptions{.on_train_batch_end = [&](int64_t, const Logs&) {
          kernel_in_fit = model->trainable_weights()[0].shape();
          for (const Variable& v : model->optimizer()->variables())
            if (v.path().find("kernel_momentum") != std::string::npos && slot_in_fit.rank() == 0)
              slot_in_fit = v.shape();
        }}));
    with_probes.callbacks.push_back(std::make_shared<callbacks::ModelCheckpoint>(checkpoint));
  }
  auto history = model->fit(x, y, with_probes);
  Logs evaluated = model->evaluate(x, y, {.batch_size = 48, .verbose = 0});
  Tensor predicted = model->predict(x, {.batch_size = 48, .verbose = 0}).flat()[0];

  dist::set_distribution(nullptr);
  auto reference = make_model(kind);
  auto reference_history = reference->fit(x, y, fit);
  Logs reference_evaluated = reference->evaluate(x, y, {.batch_size = 48, .verbose = 0});
  Tensor reference_predicted = reference->predict(x, {.batch_size = 48, .verbose = 0}).flat()[0];

  const double weights = max_difference(model->get_weights(), reference->get_weights());
  std::cout << "max |weights - one process's| = " << weights << "\n";
  EXPECT_LE(weights, tolerance);
  for (const char* key : {"loss", "accuracy"})
    for (size_t e = 0; e < 2; ++e)
      EXPECT_NEAR(history->history.at(key)[e], reference_history->history.at(key)[e], tolerance)
          << key << " epoch " << e;
  for (const auto& [key, value] : reference_evaluated)
    EXPECT_NEAR(evaluated.at(key), value, tolerance) << key;
  ASSERT_EQ(predicted.shape(), reference_predicted.shape());
  EXPECT_LE(max_difference({predicted}, {reference_predicted}), tolerance);
  if (model_parallel) {
    const int64_t model_shards = dist::num_processes() / std::atoi(std::getenv("KERAS_JOB_MODEL_PARALLEL"));
    const Shape whole = model->trainable_weights()[0].shape();
    EXPECT_EQ(kernel_in_fit, Shape({whole[0], whole[1] / model_shards}));
    EXPECT_EQ(slot_in_fit, Shape({whole[0], whole[1] / model_shards}));
    dist::collectives().barrier("the checkpoint is written");
    auto loaded = saving::load_model(checkpoint);  // on its own: an ordinary file
    EXPECT_EQ(max_difference(loaded->get_weights(), model->get_weights()), 0.0);
    dist::collectives().barrier("the checkpoint is read");
    if (dist::process_id() == 0) std::filesystem::remove(checkpoint);
  }
}

// With shuffling and dropout (each process its own masks) the replicas stay bit-identical, and
// only process 0 writes the CSV log.
TEST(DISABLED_Job, ReplicasStayEqual) {
  join_job();
  const int rank = dist::process_id();
  auto [x, y] = classification({96, 8});
  auto model = make_model("dropout");
  const std::string csv = (std::filesystem::temp_directory_path() /
                           ("keras_job_" + std::string(std::getenv("KERAS_JOB_TAG")) + "_" +
                            std::to_string(rank) + ".csv")).string();
  model->fit(x, y, {.batch_size = 16, .epochs = 2, .verbose = 0,
                    .callbacks = {std::make_shared<callbacks::CSVLogger>(csv)}, .shuffle = true});
  std::vector<Tensor> flat;
  for (const Tensor& w : model->get_weights()) flat.push_back(ops::reshape(w, {-1}));
  Tensor mine = ops::concatenate(flat, 0);
  Tensor all = dist::all_gather(mine, 0, "the test's gather of the weights");
  const int64_t n = mine.shape()[0];
  std::vector<float> values = all.to_vector<float>();
  for (int r = 1; r < dist::num_processes(); ++r)
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(values[static_cast<size_t>(r * n + i)], values[static_cast<size_t>(i)])
          << "process " << r << " weight " << i;
  EXPECT_EQ(std::filesystem::exists(csv), rank == 0) << csv;
  dist::collectives().barrier("the test's end");
  std::filesystem::remove(csv);
}

// Process 1 builds another model: every process fails with an error naming process 1.
TEST(DISABLED_Job, MismatchedModels) {
  join_job();
  auto [x, y] = classification({64, 8});
  auto model = make_model(dist::process_id() == 1 ? "wide" : "mlp");
  try {
    model->fit(x, y, {.batch_size = 16, .epochs = 1, .verbose = 0});
    ADD_FAILURE() << "fit ran with different models on the processes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("differs between process 0 and process(es) 1"),
              std::string::npos)
        << e.what();
  }
}

// Process 1 leaves in the middle of an epoch (KERAS_JOB_FAULT=exit) or stops answering for
// longer than the timeout (=hang): process 0's fit fails, naming it or saying none has exited.
TEST(DISABLED_Job, FaultIsReported) {
  join_job();
  const std::string fault = std::getenv("KERAS_JOB_FAULT");
  auto [x, y] = classification({256, 8});
  auto model = make_model("mlp");
  auto stop = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_train_batch_end = [&](int64_t batch, const Logs&) {
        if (dist::process_id() != 1 || batch != 3) return;
        if (fault == "exit") std::_Exit(0);
        std::this_thread::sleep_for(std::chrono::seconds(6));
        std::_Exit(0);
      }});
  const auto start = std::chrono::steady_clock::now();
  try {
    model->fit(x, y, {.batch_size = 16, .epochs = 3, .verbose = 0, .callbacks = {stop}});
    ADD_FAILURE() << "fit went on without process 1";
  } catch (const RuntimeError& e) {
    const std::string expected =
        fault == "exit" ? "process 1 exited or crashed" : "no process has exited: one hangs";
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    std::cout << "process 0 stopped after "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
              << " s: " << e.what() << "\n";
  }
}

// ---- the tests: each starts a job -------------------------------------------------------------

void expect_job_passes(int processes, const std::string& body,
                       const std::map<std::string, std::string>& env) {
  test::JobResult job = test::run_job(processes, body, env);
  EXPECT_EQ(job.code, 0) << job.output;
  EXPECT_NE(job.output.find("[rank 0]"), std::string::npos) << job.output;
  if (::testing::Test::HasFailure()) return;
  // What the processes measured, for the log.
  std::istringstream lines(job.output);
  for (std::string line; std::getline(lines, line);)
    if (line.find("max |") != std::string::npos || line.find("stopped after") != std::string::npos)
      std::cout << line << "\n";
}

TEST(DataParallelJob, MlpOnTwoProcessesMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess", {{"KERAS_JOB_MODEL", "mlp"}});
}

TEST(DataParallelJob, MlpOnFourProcessesMatchesOneProcess) {
  expect_job_passes(4, "MatchesOneProcess", {{"KERAS_JOB_MODEL", "mlp"}});
}

// Buckets of 256 bytes: every gradient starts its own all-reduce in the middle of the backward
// pass (the overlap path, in the compiled step's replays too); and the path without overlap.
TEST(DataParallelJob, CnnWithSmallBucketsStartedDuringTheBackwardPassMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess",
                    {{"KERAS_JOB_MODEL", "cnn"}, {"KERAS_DISTRIBUTION_BUCKET_BYTES", "256"}});
}

TEST(DataParallelJob, MlpWithoutOverlapMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess",
                    {{"KERAS_JOB_MODEL", "mlp"}, {"KERAS_DISTRIBUTION_OVERLAP", "0"}});
}

TEST(DataParallelJob, MlpInFloat64MatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess", {{"KERAS_JOB_MODEL", "mlp"}, {"KERAS_JOB_FLOAT64", "1"}});
}

TEST(DataParallelJob, CnnOnTwoProcessesMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess", {{"KERAS_JOB_MODEL", "cnn"}});
}

TEST(DataParallelJob, SynchronizedBatchNormalizationMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess", {{"KERAS_JOB_MODEL", "bn"}});
}

// ModelParallel: the Dense kernels split over "model" (each process holds its columns and their
// Adam slots during fit), the data over "batch" (the processes of one batch shard see the same
// rows).
TEST(DataParallelJob, ModelParallelOnTwoProcessesMatchesOneProcess) {
  expect_job_passes(2, "MatchesOneProcess",
                    {{"KERAS_JOB_MODEL", "mlp"}, {"KERAS_JOB_MODEL_PARALLEL", "1"}});
}

TEST(DataParallelJob, ModelParallelOnATwoByTwoMeshMatchesOneProcess) {
  expect_job_passes(4, "MatchesOneProcess",
                    {{"KERAS_JOB_MODEL", "mlp"}, {"KERAS_JOB_MODEL_PARALLEL", "2"}});
}

TEST(DataParallelJob, ReplicasStayEqualWithShufflingAndDropout) {
  expect_job_passes(3, "ReplicasStayEqual", {{"KERAS_JOB_TAG", std::to_string(::getpid())}});
}

TEST(DataParallelJob, MismatchedModelsFailOnEveryProcess) {
  expect_job_passes(2, "MismatchedModels", {});
}

TEST(DataParallelJob, AProcessThatExitsIsNamed) {
  expect_job_passes(2, "FaultIsReported", {{"KERAS_JOB_FAULT", "exit"}});
}

TEST(DataParallelJob, AProcessThatHangsTimesOut) {
  expect_job_passes(2, "FaultIsReported",
                    {{"KERAS_JOB_FAULT", "hang"}, {"KERAS_DISTRIBUTION_TIMEOUT", "2"}});
}

}  // namespace
}  // namespace keras
