// keras.callbacks.RemoteMonitor against Keras 3.15 (tools/keras_oracle/remote_monitor.py): the
// same logs give the same requests, byte for byte (path, content type, headers, body as
// requests.post encodes them), received by a local cpp-httplib server; the same warning where
// Keras's requests fail.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <unistd.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "keras/keras.h"

namespace keras {
namespace {

using nlohmann::json;

struct Received {
  std::string path, content_type, x_token, body;
};

// A local server that records every POST.
class RecordingServer {
 public:
  RecordingServer() {
    server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex_);
      received_.push_back({req.target, req.get_header_value("Content-Type"),
                           req.get_header_value("X-Token"), req.body});
      res.status = 200;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~RecordingServer() {
    server_.stop();
    thread_.join();
  }
  std::string root() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<Received> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(received_, {});
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Received> received_;
};

TEST(RemoteMonitor, SendsWhatKerasSends) {
  std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/remote_monitor.json");
  json cases = json::parse(in);
  RecordingServer server;
  for (const auto& c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const json& o = c["options"];
    callbacks::RemoteMonitorOptions options;
    std::string root = o["root"];
    options.root = root == "ROOT" ? server.root() : root;
    if (o.contains("path")) options.path = o["path"];
    if (o.contains("field")) options.field = o["field"];
    if (o.contains("send_as_json")) options.send_as_json = o["send_as_json"];
    if (o.contains("headers"))
      options.headers = o["headers"].get<std::map<std::string, std::string>>();
    Logs logs;
    for (const auto& [name, repr] : c["logs"].items())
      logs[name] = std::strtod(repr.get<std::string>().c_str(), nullptr);  // "nan", "inf" too

    testing::internal::CaptureStderr();
    callbacks::RemoteMonitor(options).on_epoch_end(c["epoch"], logs);
    std::string err = testing::internal::GetCapturedStderr();

    std::vector<Received> got = server.take();
    ASSERT_EQ(got.size(), c["requests"].size());
    for (size_t i = 0; i < got.size(); ++i) {
      const json& want = c["requests"][i];
      EXPECT_EQ(got[i].path, want["path"]);
      EXPECT_EQ(got[i].content_type, want["content_type"]);
      EXPECT_EQ(got[i].x_token,
                want["x_token"].is_null() ? "" : want["x_token"].get<std::string>());
      EXPECT_EQ(got[i].body, want["body"]);  // ASCII: quote_plus / ensure_ascii
    }
    if (c["warnings"].empty()) {
      EXPECT_EQ(err, "");
    } else {
      std::string want = c["warnings"][0];
      auto at = want.find("ROOT");
      if (at != std::string::npos) want.replace(at, 4, server.root());
      EXPECT_NE(err.find("UserWarning: " + want), std::string::npos) << err;
    }
  }
}

// In fit: one POST per epoch, with that epoch's logs (History's values).
TEST(RemoteMonitor, PostsEveryEpochOfFit) {
  RecordingServer server;
  auto model = Sequential({Input({2}), layers::Dense(1)});
  model->compile({.optimizer = optimizers::SGD(0.1), .loss = "mse"});
  auto monitor = std::make_shared<callbacks::RemoteMonitor>(
      callbacks::RemoteMonitorOptions{.root = server.root(), .send_as_json = true});
  Tensor x = ops::ones({4, 2}), y = ops::zeros({4, 1});
  auto history =
      model->fit(x, y, {.batch_size = 2, .epochs = 3, .verbose = 0, .callbacks = {monitor}});
  std::vector<Received> got = server.take();
  ASSERT_EQ(got.size(), 3u);
  for (int epoch = 0; epoch < 3; ++epoch) {
    json body = json::parse(got[epoch].body);
    EXPECT_EQ(body["epoch"], epoch);
    EXPECT_DOUBLE_EQ(body["loss"].get<double>(), history->history.at("loss")[epoch]);
  }
}

// The example of docs/monitoring.md (with the local server as the root).
TEST(RemoteMonitor, DocsExampleWithTensorBoard) {
  RecordingServer server;
  std::string logs_dir =
      (std::filesystem::temp_directory_path() / ("keras_monitoring_" + std::to_string(::getpid())))
          .string();
  auto model = Sequential({Input({2}), layers::Dense(1)});
  model->compile({.optimizer = optimizers::SGD(0.1), .loss = "mse"});
  Tensor x = ops::ones({10, 2}), y = ops::zeros({10, 1});
  namespace cb = keras::callbacks;
  model->fit(x, y, {.epochs = 2, .verbose = 0, .callbacks = {
      std::make_shared<cb::TensorBoard>(logs_dir, cb::TensorBoardOptions{.histogram_freq = 1}),
      std::make_shared<cb::RemoteMonitor>(cb::RemoteMonitorOptions{
          .root = server.root(), .send_as_json = true})},
                    .validation_split = 0.2});
  std::vector<Received> got = server.take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(json::parse(got[1].body).contains("val_loss"));
  EXPECT_TRUE(std::filesystem::exists(logs_dir + "/train"));
  EXPECT_TRUE(std::filesystem::exists(logs_dir + "/validation"));
  std::filesystem::remove_all(logs_dir);
}

}  // namespace
}  // namespace keras
