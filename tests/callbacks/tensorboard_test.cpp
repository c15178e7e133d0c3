// keras.callbacks.TensorBoard against Keras 3.15 (tools/keras_oracle/tensorboard_events.py):
// the same fit writes the same summaries (directories, tags, steps, plugins, dtypes, shapes,
// values), and keras-cpp encodes TensorFlow's own event file byte for byte.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "callback_test_util.h"
#include "callbacks/tensorboard/event_file_writer.h"
#include "event_reader.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace fs = std::filesystem;
namespace tb = callbacks::tensorboard;
using nlohmann::json;

const json& fixture() {
  static const json j = [] {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/tensorboard_events.json");
    return json::parse(in);
  }();
  return j;
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

Tensor tensor_of(const json& rows) {
  std::vector<float> values;
  for (const auto& row : rows)
    for (const auto& v : row) values.push_back(v.get<float>());
  return Tensor::from_vector<float>(
      values, {static_cast<int64_t>(rows.size()), static_cast<int64_t>(rows[0].size())});
}

// CRC-32C's check value, and TFRecord's framing of TensorFlow's own file: keras-cpp's framing
// of each record TensorFlow wrote gives TensorFlow's bytes back.
TEST(TensorBoard, TFRecordFramingMatchesTensorFlow) {
  EXPECT_EQ(tb::crc32c("123456789"), 0xE3069283u);
  std::string file = from_hex(fixture()["train_file_hex"]);
  fs::path path = fs::temp_directory_path() / ("keras_tb_tf_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << file;
  std::vector<std::string> records = test::read_tfrecords(path.string());
  fs::remove(path);
  ASSERT_GE(records.size(), 10u);
  std::string framed;
  for (const auto& r : records) framed += tb::tfrecord(r);
  EXPECT_EQ(framed, file);
}

// Every Event in TensorFlow's file, decoded and written again by keras-cpp's encoder, is the
// same bytes: field order, proto3 defaults (step 0 left out), tensor encodings, metadata.
TEST(TensorBoard, EventEncodingMatchesTensorFlowByteForByte) {
  std::string file = from_hex(fixture()["train_file_hex"]);
  fs::path path = fs::temp_directory_path() / ("keras_tb_tf2_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << file;
  std::vector<std::string> records = test::read_tfrecords(path.string());
  std::vector<test::SummaryRecord> summaries = test::read_summaries(path.string());
  fs::remove(path);
  ASSERT_EQ(records.size(), summaries.size() + 1);
  auto wall_time = [](const std::string& event) {
    double w;
    std::memcpy(&w, event.data() + 1, 8);  // field 1, fixed64, first
    return w;
  };
  EXPECT_EQ(tb::event::file_version(wall_time(records[0])), records[0]);
  int scalars = 0, histograms = 0, texts = 0;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const test::SummaryRecord& s = summaries[i];
    const std::string& raw = records[i + 1];
    double w = wall_time(raw);
    std::string mine;
    if (s.plugin == "scalars") {
      mine = tb::event::scalar(w, s.step, s.tag, static_cast<float>(s.values.at(0)));
      ++scalars;
    } else if (s.plugin == "histograms") {
      mine = tb::event::float64_matrix(w, s.step, s.tag, s.values, s.shape.at(0), 3,
                                       {"histograms", ""});
      ++histograms;
    } else {
      mine = tb::event::text(w, s.step, s.tag, s.text, {s.plugin, s.content});
      ++texts;
    }
    EXPECT_EQ(mine, raw) << s.tag << " at step " << s.step;
  }
  EXPECT_EQ(texts, 1);
  EXPECT_EQ(scalars, 6);
  EXPECT_EQ(histograms, 8);
}

// TensorBoard's buckets of the weights Keras wrote (its histograms hold them): keras-cpp's
// bucketing of the same values the first epoch ends with is compared in the fit tests below;
// here the edge cases of summary_v2._buckets.
TEST(TensorBoard, HistogramBucketEdgeCases) {
  EXPECT_TRUE(tb::histogram_buckets({}).empty());
  EXPECT_EQ(tb::histogram_buckets({2.0, 2.0, 2.0}), (std::vector<double>{1.5, 2.5, 3.0}));
  std::vector<double> rows = tb::histogram_buckets({0.0, 1.0, 3.0}, 3);
  EXPECT_EQ(rows, (std::vector<double>{0, 1, 1, 1, 2, 1, 2, 3, 1}));  // the max in the last
}

// A key for matching summaries: directory, tag, step, and the occurrence (the "keras" summary
// is written once per writer).
using Key = std::tuple<std::string, std::string, int64_t, int>;

struct Written {
  std::map<Key, test::SummaryRecord> summaries;
  std::map<std::string, int> files;  // per directory
};

Written read_run(const fs::path& log_dir) {
  Written w;
  std::map<std::tuple<std::string, std::string, int64_t>, int> seen;
  for (const char* dir : {"train", "validation"}) {
    if (!fs::exists(log_dir / dir)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(log_dir / dir)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      EXPECT_EQ(f.filename().string().rfind("events.out.tfevents.", 0), 0u) << f;
      EXPECT_EQ(f.extension(), ".v2");
      ++w.files[dir];
      for (auto& s : test::read_summaries(f.string())) {
        int n = seen[{dir, s.tag, s.step}]++;
        w.summaries[{dir, s.tag, s.step, n}] = s;
      }
    }
  }
  return w;
}

Written expected_run(const json& run) {
  Written w;
  std::map<std::tuple<std::string, std::string, int64_t>, int> seen;
  for (const auto& e : run["events"]) {
    std::string dir = e["dir"];
    if (e.contains("file_version")) {
      ++w.files[dir];
      continue;
    }
    test::SummaryRecord s;
    s.tag = e["tag"];
    s.step = e["step"];
    s.plugin = e["plugin"];
    s.content = e["content"];
    s.dtype = e["dtype"];
    s.shape = e["shape"].get<std::vector<int64_t>>();
    if (e.contains("values")) s.values = e["values"].get<std::vector<double>>();
    if (e.contains("text")) s.text = e["text"];
    int n = seen[{dir, s.tag, s.step}]++;
    w.summaries[{dir, s.tag, s.step, n}] = s;
  }
  return w;
}

callbacks::TensorBoardOptions options_of(const json& o) {
  callbacks::TensorBoardOptions opts;
  if (o.contains("histogram_freq")) opts.histogram_freq = o["histogram_freq"];
  if (o.contains("write_graph")) opts.write_graph = o["write_graph"];
  if (o.contains("update_freq")) {
    if (o["update_freq"].is_string())
      opts.update_freq = o["update_freq"].get<std::string>();
    else
      opts.update_freq = o["update_freq"].get<int64_t>();
  }
  return opts;
}

class TensorBoardFit : public ::testing::TestWithParam<std::string> {};

// The fixture's fit (same weights, data, optimizer, batches) with keras-cpp's callback.
// KERAS_TB_KEEP=DIR keeps the event files (DIR/<run>) for tensorboard_events.py --check.
TEST_P(TensorBoardFit, WritesWhatKerasWrites) {
  const json& f = fixture();
  const json& run = f["runs"][GetParam()];
  test::TempDir dir("tb_" + GetParam());
  fs::path log_dir = dir.path() / GetParam();
  if (const char* keep = std::getenv("KERAS_TB_KEEP")) log_dir = fs::path(keep) / GetParam();
  fs::remove_all(log_dir);

  auto inputs = Input({3}, {.name = "x"});
  auto h = layers::Dense(4, {.activation = "relu", .name = "hidden"})(inputs);
  auto outputs = layers::Dense(1, {.name = "out"})(h);
  auto model = Functional(inputs, outputs, {.name = "tb_model"});
  std::vector<Tensor> weights;
  for (const auto& w : f["weights"]) {
    auto shape = w["shape"].get<std::vector<int64_t>>();
    weights.push_back(Tensor::from_vector<float>(w["values"].get<std::vector<float>>(), shape));
  }
  model->set_weights(weights);
  model->compile({.optimizer = optimizers::SGD(f["learning_rate"].get<double>()),
                  .loss = "mse",
                  .metrics = {"mae"}});
  auto cb = std::make_shared<callbacks::TensorBoard>(log_dir.string(), options_of(run["options"]));
  Tensor x = tensor_of(f["x"]), y = tensor_of(f["y"]);
  Tensor xv = tensor_of(f["x_val"]), yv = tensor_of(f["y_val"]);
  model->fit(x, y,
             {.batch_size = 4,
              .epochs = run["epochs"],
              .verbose = 0,
              .callbacks = {cb},
              .validation_data = ValidationData(xv, yv),
              .shuffle = false});
  if (run["evaluate"]) model->evaluate(xv, yv, {.batch_size = 4, .verbose = 0, .callbacks = {cb}});

  Written want = expected_run(run), got = read_run(log_dir);
  EXPECT_EQ(got.files, want.files);
  std::vector<Key> want_keys, got_keys;
  for (const auto& [k, _] : want.summaries) want_keys.push_back(k);
  for (const auto& [k, _] : got.summaries) got_keys.push_back(k);
  ASSERT_EQ(got_keys, want_keys);
  double worst = 0;
  for (const auto& [k, w] : want.summaries) {
    const test::SummaryRecord& g = got.summaries.at(k);
    SCOPED_TRACE(std::get<0>(k) + "/" + std::get<1>(k) + " step " + std::to_string(std::get<2>(k)));
    EXPECT_EQ(g.plugin, w.plugin);
    EXPECT_EQ(g.content, w.content);
    EXPECT_EQ(g.dtype, w.dtype);
    EXPECT_EQ(g.shape, w.shape);
    if (w.dtype == 7) {
      // The model's JSON: keras-cpp's to_json (same model, same class and layers).
      json a = json::parse(w.text), b = json::parse(g.text);
      EXPECT_EQ(b["class_name"], a["class_name"]);
      EXPECT_EQ(b["config"]["name"], a["config"]["name"]);
      EXPECT_EQ(b["config"]["layers"].size(), a["config"]["layers"].size());
      continue;
    }
    ASSERT_EQ(g.values.size(), w.values.size());
    for (size_t i = 0; i < w.values.size(); ++i) {
      double d = std::abs(g.values[i] - w.values[i]) / std::max(1.0, std::abs(w.values[i]));
      worst = std::max(worst, d);
      EXPECT_LE(d, 1e-5) << "value " << i << ": " << g.values[i] << " vs " << w.values[i];
    }
  }
  std::cout << "[ figures  ] " << GetParam() << ": " << got.summaries.size()
            << " summaries as Keras's; max relative difference " << worst << "\n";
}

INSTANTIATE_TEST_SUITE_P(Runs, TensorBoardFit,
                         ::testing::Values("epoch", "batch", "every3", "nograph"));

// write_steps_per_second: epoch_steps_per_second (train) and, with batch summaries,
// batch_steps_per_second at every recorded batch; positive rates.
TEST(TensorBoard, StepsPerSecond) {
  test::TempDir dir("tb_sps");
  Tensor y;
  Tensor x = test::linear_data(8, &y);
  auto model = Sequential({Input({3}), layers::Dense(1)});
  model->compile({.optimizer = optimizers::SGD(0.01), .loss = "mse"});
  auto cb = std::make_shared<callbacks::TensorBoard>(
      dir.file("logs"),
      callbacks::TensorBoardOptions{.write_steps_per_second = true, .update_freq = "batch"});
  model->fit(x, y,
             {.batch_size = 4, .epochs = 2, .verbose = 0, .callbacks = {cb}, .shuffle = false});
  Written got = read_run(dir.path() / "logs");
  for (int64_t step : {1, 2, 3, 4}) {
    ASSERT_TRUE(got.summaries.count({"train", "batch_steps_per_second", step, 0})) << step;
    EXPECT_GT(got.summaries.at({"train", "batch_steps_per_second", step, 0}).values[0], 0);
  }
  for (int64_t epoch : {0, 1}) {
    ASSERT_TRUE(got.summaries.count({"train", "epoch_steps_per_second", epoch, 0}));
    EXPECT_GT(got.summaries.at({"train", "epoch_steps_per_second", epoch, 0}).values[0], 0);
  }
  EXPECT_FALSE(fs::exists(dir.path() / "logs" / "validation"));
}

TEST(TensorBoard, UnavailableOptionsAreNotImplemented) {
  using callbacks::TensorBoard;
  using callbacks::TensorBoardOptions;
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.write_images = true}), NotImplementedError);
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.profile_batch = 2}), NotImplementedError);
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.embeddings_freq = 1}), NotImplementedError);
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.profile_batch = -1}), ValueError);
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.update_freq = "step"}), ValueError);
  EXPECT_THROW(TensorBoard("l", TensorBoardOptions{.update_freq = 0}), ValueError);
}

}  // namespace
}  // namespace keras
