// Several models in one server, hot reload of a changed model file (requests in flight finish
// on the old version; a broken or deleted file keeps the old version serving), the request
// timeout, the --model-config file, and clients that stall or flood the server. Predictions are
// checked against each model's own predict() (the server only carries them).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "serving_helpers.h"

namespace keras {
namespace {

using namespace serving_test;
namespace fs = std::filesystem;

// A folder of its own under the system's temporary folder, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("keras_serving_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// Writes `model` to `path` the way a deployment should replace a served file: saved beside it,
// then renamed over it (a reader never sees half a file).
void replace_file(Model& model, const std::string& path) {
  const std::string tmp = path + ".tmp.keras";
  model.save(tmp);
  fs::rename(tmp, path);
}

std::vector<float> served_predictions(const Served& s, const std::string& name, const json& rows) {
  Reply r = post(s, "/v1/models/" + name + ":predict", json{{"instances", rows}}.dump());
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? flat(r.doc().at("predictions")) : std::vector<float>{};
}

std::vector<float> predict_rows(Model& model, const Tensor& x) {
  return model.predict(x, {.verbose = 0}).single().to_vector<float>();
}

// A server of model files.
Served serving_files(BatchingOptions batching) {
  return Served([](const std::string& path) { return saving::load_model(path, {.compile = false}); },
                std::move(batching));
}

TEST(ServingRegistry, SeveralModelsByName) {
  auto small = small_model();
  auto other = small_model();  // same architecture, other weights
  Served s(small, "small");
  s.registry->add("other", other);
  Tensor x = random::normal({3, 4});
  json rows = rows_json(x);
  EXPECT_TRUE(close_to(served_predictions(s, "small", rows), predict_rows(*small, x)));
  EXPECT_TRUE(close_to(served_predictions(s, "other", rows), predict_rows(*other, x)));
  EXPECT_FALSE(close_to(predict_rows(*small, x), predict_rows(*other, x)));

  Reply r = get(s, "/v1/models/missing");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.error().find("this server serves 'other', 'small'"), std::string::npos) << r.body;
  EXPECT_EQ(get(s, "/v1/models/other/metadata").doc().at("model_spec").at("name"), "other");
  std::string metrics = get(s, "/metrics").body;
  EXPECT_EQ(metric(metrics, "keras_serving_model_version{model=\"other\"}"), 1u) << metrics;

  EXPECT_THROW(s.registry->add("small", small_model()), ValueError);  // a name twice
  EXPECT_THROW(s.registry->add("a/b", small_model()), ValueError);
  EXPECT_THROW(s.registry->add("seq", Sequential({layers::Dense(2)})), ValueError);
}

// Holds every batch until opened (the registry gives all versions the same options).
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
  std::atomic<int> entered{0};
  BatchingOptions options() {
    return {.max_batch = 1, .batch_timeout_us = 0, .before_batch = [this](int64_t) {
              ++entered;
              opened.wait();
            }};
  }
  void wait_entered(int n) const {
    while (entered < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

TEST(ServingRegistry, HotReloadSwapsVersionsAndKeepsServingOnBrokenFiles) {
  TempDir dir;
  const std::string path = dir.file("m.keras");
  auto v1 = small_model(), v2 = small_model(), v3 = small_model();
  v1->save(path);
  Gate gate;
  Served s = serving_files(gate.options());
  s.registry->add_file("m", path);
  Tensor x = random::normal({1, 4});
  json rows = rows_json(x);
  const std::string body = json{{"instances", rows}}.dump();
  EXPECT_TRUE(s.registry->poll().empty());  // nothing changed

  // A request in flight on version 1 while version 2 is swapped in.
  auto in_flight = std::async(std::launch::async, [&] { return post(s, "/v1/models/m:predict", body); });
  gate.wait_entered(1);
  replace_file(*v2, path);
  std::vector<std::string> log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("model 'm': version 2 loaded from"), std::string::npos) << log[0];
  EXPECT_EQ(s.registry->find("m")->version, 2);
  auto after = std::async(std::launch::async, [&] { return post(s, "/v1/models/m:predict", body); });
  gate.wait_entered(2);
  gate.open.set_value();
  Reply old_reply = in_flight.get(), new_reply = after.get();
  ASSERT_EQ(old_reply.status, 200) << old_reply.body;
  ASSERT_EQ(new_reply.status, 200) << new_reply.body;
  EXPECT_TRUE(close_to(flat(old_reply.doc().at("predictions")), predict_rows(*v1, x)));
  EXPECT_TRUE(close_to(flat(new_reply.doc().at("predictions")), predict_rows(*v2, x)));

  // Status and versions follow the swap.
  EXPECT_EQ(get(s, "/v1/models/m").doc().at("model_version_status")[0].at("version"), "2");
  EXPECT_EQ(get(s, "/v1/models/m/versions/2/metadata").status, 200);
  Reply gone = get(s, "/v1/models/m/versions/1");
  EXPECT_EQ(gone.status, 404);
  EXPECT_NE(gone.error().find("Specific(m, 1) (served: 2)"), std::string::npos) << gone.body;

  // A broken file: logged, version 2 keeps serving, not retried until it changes again.
  { std::ofstream(path, std::ios::binary | std::ios::trunc) << "PK\x03\x04 not a zip at all"; }
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("cannot be served"), std::string::npos) << log[0];
  EXPECT_NE(log[0].find("version 2 keeps serving"), std::string::npos) << log[0];
  EXPECT_TRUE(s.registry->poll().empty());
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v2, x)));

  // A deleted file: logged once, version 2 keeps serving.
  fs::remove(path);
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("is gone"), std::string::npos) << log[0];
  EXPECT_TRUE(s.registry->poll().empty());
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v2, x)));

  // A good file again: version 3.
  replace_file(*v3, path);
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(s.registry->find("m")->version, 3);
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v3, x)));
  std::string metrics = get(s, "/metrics").body;
  EXPECT_EQ(metric(metrics, "keras_serving_model_reloads_total{result=\"ok\"}"), 2u) << metrics;
  EXPECT_EQ(metric(metrics, "keras_serving_model_reloads_total{result=\"failed\"}"), 1u) << metrics;
  EXPECT_EQ(metric(metrics, "keras_serving_model_version{model=\"m\"}"), 3u) << metrics;
}

// TF Serving's layout: a base folder of numbered version folders. The highest version serves
// under its own number; a new higher folder is loaded, a broken one logged and skipped, and
// removing the served version's folder falls back to the highest remaining one.
TEST(ServingRegistry, VersionFoldersServeTheHighestVersion) {
  TempDir dir;
  auto save_version = [&](Model& model, const std::string& version, const std::string& file) {
    fs::create_directories(dir.path / version);
    model.save((dir.path / version / file).string());
  };
  auto v1 = small_model(), v2 = small_model(), v4 = small_model();
  save_version(*v1, "1", "m.keras");
  save_version(*v2, "2", "model.keras");
  fs::create_directories(dir.path / "tmp");  // not a number: ignored
  Served s = serving_files({});
  s.registry->add_file("m", dir.path.string());
  EXPECT_EQ(s.registry->find("m")->version, 2);
  Tensor x = random::normal({2, 4});
  json rows = rows_json(x);
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v2, x)));
  EXPECT_EQ(get(s, "/v1/models/m").doc().at("model_version_status")[0].at("version"), "2");
  EXPECT_TRUE(s.registry->poll().empty());

  // A broken version 3: logged once, version 2 keeps serving.
  fs::create_directories(dir.path / "3");
  { std::ofstream(dir.file("3/m.keras"), std::ios::binary) << "not a zip"; }
  std::vector<std::string> log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("version 3"), std::string::npos) << log[0];
  EXPECT_NE(log[0].find("version 2 keeps serving"), std::string::npos) << log[0];
  EXPECT_TRUE(s.registry->poll().empty());

  // Version 4 appears: served as 4, and version 2 retired.
  save_version(*v4, "4", "m.keras");
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_NE(log[0].find("version 4 loaded from"), std::string::npos) << log[0];
  EXPECT_NE(log[1].find("version 2 retired"), std::string::npos) << log[1];
  EXPECT_EQ(s.registry->find("m")->version, 4);
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v4, x)));
  EXPECT_EQ(get(s, "/v1/models/m/versions/4/metadata").status, 200);
  EXPECT_EQ(get(s, "/v1/models/m/versions/2").status, 404);
  EXPECT_EQ(metric(get(s, "/metrics").body, "keras_serving_model_version{model=\"m\"}"), 4u);

  // Version 4's folder removed: the highest remaining, 3, is broken, so 4 keeps serving; with
  // 3 removed too, version 2 serves again.
  fs::remove_all(dir.path / "4");
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("version 4 keeps serving"), std::string::npos) << log[0];
  fs::remove_all(dir.path / "3");
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 2u);  // 2 loaded, 4 retired
  EXPECT_EQ(s.registry->find("m")->version, 2);
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*v2, x)));

  // A version folder with two model files is refused, and a base folder without versions too.
  save_version(*v4, "5", "a.keras");
  save_version(*v4, "5", "b.keras");
  log = s.registry->poll();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("holds 2 model files"), std::string::npos) << log[0];
  fs::create_directories(dir.path / "empty");
  try {
    s.registry->add_file("none", (dir.path / "empty").string());
    FAIL() << "a folder without version folders was accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no version folders"), std::string::npos)
        << e.what();
  }
}

// TF Serving's model_version_policy and version_labels: several versions at once, each by
// /versions/V, labels by /labels/L, requests without a version on the highest; the policies
// follow new version folders.
TEST(ServingRegistry, VersionPoliciesServeSeveralVersionsWithLabels) {
  TempDir dir;
  std::vector<ModelPtr<Model>> models;
  auto save_version = [&](int64_t version) {
    models.push_back(small_model());
    fs::create_directories(dir.path / std::to_string(version));
    models.back()->save((dir.path / std::to_string(version) / "m.keras").string());
  };
  for (int64_t v : {1, 2, 3}) save_version(v);
  Served s = serving_files({});
  auto specific = serving::VersionPolicy::from_json(
      json::parse(R"({"specific": {"versions": [1, 3]}})"), "");
  s.registry->add_file("m", dir.path.string(), specific, {{"stable", 1}, {"canary", 3}});
  s.registry->add_file("all", dir.path.string(),
                       serving::VersionPolicy::from_json(json::parse(R"({"all": {}})"), ""));
  s.registry->add_file("two", dir.path.string(),
                       serving::VersionPolicy::from_json(
                           json::parse(R"({"latest": {"num_versions": 2}})"), ""));
  EXPECT_EQ(s.registry->versions("m"), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(s.registry->versions("all"), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(s.registry->versions("two"), (std::vector<int64_t>{2, 3}));

  Tensor x = random::normal({2, 4});
  json rows = rows_json(x);
  EXPECT_TRUE(close_to(served_predictions(s, "m/versions/1", rows), predict_rows(*models[0], x)));
  EXPECT_TRUE(close_to(served_predictions(s, "m/versions/3", rows), predict_rows(*models[2], x)));
  EXPECT_TRUE(close_to(served_predictions(s, "m/labels/stable", rows),
                       predict_rows(*models[0], x)));
  EXPECT_TRUE(close_to(served_predictions(s, "m/labels/canary", rows),
                       predict_rows(*models[2], x)));
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows), predict_rows(*models[2], x)));
  EXPECT_TRUE(close_to(served_predictions(s, "all/versions/2", rows),
                       predict_rows(*models[1], x)));
  Reply r = post(s, "/v1/models/m/versions/2:predict", json{{"instances", rows}}.dump());
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.error().find("Specific(m, 2) (served: 1, 3)"), std::string::npos) << r.body;
  r = get(s, "/v1/models/m/labels/beta");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error().find("Unrecognized servable version label: beta"), std::string::npos);
  // The status lists every served version; a label's or a version's, that one.
  json status = get(s, "/v1/models/m").doc().at("model_version_status");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0].at("version"), "1");
  EXPECT_EQ(status[1].at("version"), "3");
  EXPECT_EQ(status[1].at("state"), "AVAILABLE");
  status = get(s, "/v1/models/m/labels/stable").doc().at("model_version_status");
  ASSERT_EQ(status.size(), 1u);
  EXPECT_EQ(status[0].at("version"), "1");
  EXPECT_EQ(get(s, "/v1/models/m/labels/canary/metadata").doc().at("model_spec").at("version"),
            "3");

  // Version 4 appears: "all" adds it, "two" adds it and retires 2, "specific" ignores it.
  save_version(4);
  std::vector<std::string> log = s.registry->poll();
  EXPECT_EQ(log.size(), 3u);
  EXPECT_EQ(s.registry->versions("all"), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(s.registry->versions("two"), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(s.registry->versions("m"), (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(close_to(served_predictions(s, "two", rows), predict_rows(*models[3], x)));
  EXPECT_TRUE(s.registry->poll().empty());

  // Refused at start: a label of a version not served, a policy that picks nothing, a policy
  // or labels for a single file.
  auto refused = [&](const std::function<void()>& add, const std::string& says) {
    try {
      add();
      ADD_FAILURE() << "accepted; expected: " << says;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused([&] { s.registry->add_file("a", dir.path.string(), specific, {{"x", 2}}); },
          "the version label 'x' names version 2, which is not served");
  refused([&] {
    s.registry->add_file("b", dir.path.string(),
                         serving::VersionPolicy::from_json(
                             json::parse(R"({"specific": {"versions": [9]}})"), ""));
  }, "picks none of the versions");
  refused([&] { s.registry->add_file("c", dir.file("1/m.keras"), {}, {{"x", 1}}); },
          "need a folder of version folders");
}

// start_polling's thread finds the changed file by itself and logs the swap.
TEST(ServingRegistry, PollingThreadReloadsTheChangedFile) {
  TempDir dir;
  const std::string path = dir.file("m.keras");
  auto v1 = small_model();
  v1->save(path);
  Served s = serving_files({});
  s.registry->add_file("m", path);
  std::mutex log_mutex;
  std::vector<std::string> lines;
  s.registry->start_polling(std::chrono::milliseconds(20), [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(log_mutex);
    lines.push_back(line);
  });
  auto v2 = small_model();
  replace_file(*v2, path);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  // The poller logs after it swaps the model in: wait for the line too.
  auto logged = [&] {
    std::lock_guard<std::mutex> lock(log_mutex);
    return !lines.empty();
  };
  while ((s.registry->find("m")->version < 2 || !logged()) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(s.registry->find("m")->version, 2);
  Tensor x = random::normal({2, 4});
  EXPECT_TRUE(close_to(served_predictions(s, "m", rows_json(x)), predict_rows(*v2, x)));
  std::lock_guard<std::mutex> lock(log_mutex);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("version 2 loaded"), std::string::npos) << lines.back();
}

TEST(ServingRegistry, RequestTimeoutGets504) {
  Gate gate;
  Served s(small_model(), "small", gate.options(), {},
           {.request_timeout = std::chrono::milliseconds(300)});
  const std::string body = R"({"instances": [[1, 2, 3, 4]]})";
  auto held = std::async(std::launch::async, [&] { return post(s, "/v1/models/small:predict", body); });
  gate.wait_entered(1);
  Reply queued = post(s, "/v1/models/small:predict", body);  // waits behind the held batch
  EXPECT_EQ(queued.status, 504) << queued.body;
  EXPECT_NE(queued.error().find("request timeout of 300 ms (--request-timeout-ms)"),
            std::string::npos)
      << queued.body;
  Reply first = held.get();  // the held one timed out too
  EXPECT_EQ(first.status, 504) << first.body;
  gate.open.set_value();
  // The queued request was dropped, not run: only the held batch ran.
  Reply ok = post(s, "/v1/models/small:predict", body);
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(s.model->metrics().batches(), 2u);
}

TEST(ServingRegistry, ModelConfigFile) {
  TempDir dir;
  auto write = [&](const std::string& text) {
    std::ofstream(dir.file("models.json")) << text;
    return dir.file("models.json");
  };
  auto sources = serving::read_model_config(write(
      R"({"models": [{"name": "a", "path": "a.keras"}, {"name": "b", "path": "/abs/b.keras"}]})"));
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(sources[0].name, "a");
  EXPECT_EQ(sources[0].path, dir.file("a.keras"));  // relative to the config's folder
  EXPECT_EQ(sources[1].path, "/abs/b.keras");
  sources = serving::read_model_config(write(R"({"models": [{"name": "m", "path": "m",
      "model_version_policy": {"specific": {"versions": [1, 3]}},
      "version_labels": {"stable": 1, "canary": 3}}]})"));
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].policy.kind, "specific");
  EXPECT_EQ(sources[0].policy.versions, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(sources[0].labels, (std::map<std::string, int64_t>{{"canary", 3}, {"stable", 1}}));
  const std::pair<const char*, const char*> bad[] = {
      {"{nope", "not valid JSON"},
      {"[]", "non-empty \"models\" list"},
      {R"({"models": []})", "non-empty \"models\" list"},
      {R"({"models": [{"name": "a"}]})", "\"path\" must be a non-empty string"},
      {R"({"models": [{"name": "a", "path": "a", "versions": 2}]})", "unknown key \"versions\""},
      {R"({"models": [{"name": "a", "path": "a"}], "x": 1})", "unknown key \"x\""},
      {R"({"models": [{"name": "a", "path": "a"}, {"name": "a", "path": "b"}]})",
       "the name 'a' is given twice"},
      {R"({"models": [{"name": "a", "path": "a", "model_version_policy": {"newest": {}}}]})",
       "unknown version policy \"newest\""},
      {R"({"models": [{"name": "a", "path": "a", "model_version_policy": {"all": {}, "latest": {}}}]})",
       "must hold one policy"},
      {R"({"models": [{"name": "a", "path": "a",
           "model_version_policy": {"latest": {"num_versions": 0}}}]})",
       "\"num_versions\" must be an integer >= 1"},
      {R"({"models": [{"name": "a", "path": "a", "model_version_policy": {"specific": {}}}]})",
       "needs a non-empty \"versions\" list"},
      {R"({"models": [{"name": "a", "path": "a", "version_labels": {"x": "1"}}]})",
       "the version label \"x\" must be"},
      {R"({"models": [{"name": "a", "path": "a", "version_labels": [1]}]})",
       "\"version_labels\" must map labels to versions"},
  };
  for (const auto& [text, message] : bad) {
    try {
      serving::read_model_config(write(text));
      ADD_FAILURE() << "accepted " << text;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("models.json"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(serving::read_model_config(dir.file("none.json")), IOError);
}

// Stalled clients hold a connection only until the I/O timeout; a flood of connections waits its
// turn. The server answers normal requests afterwards and never goes down.
TEST(ServingRegistry, StalledClientsAndConnectionFloodsDoNotTakeTheServerDown) {
  Served s(small_model(), "small", {}, {.max_connections = 2, .io_timeout_s = 1});
  const std::string body = R"({"instances": [[1, 2, 3, 4]]})";
  std::vector<int> fds;
  // More stalled clients than connections allowed: half a request line, half a header, half a body.
  for (const char* text : {"POST /v1/models/small:pre", "GET /v1/models/small HTTP/1.1\r\nHost",
                           "POST /v1/models/small:predict HTTP/1.1\r\nContent-Length: 100\r\n\r\n{",
                           ""})
    fds.push_back(raw_connection(s.port, text));
  const auto start = std::chrono::steady_clock::now();
  Reply r = post(s, "/v1/models/small:predict", body);
  std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_LT(waited.count(), 20.0) << "stalled clients held the server";
  for (int fd : fds)
    if (fd >= 0) close(fd);

  // A flood: 300 connections opened at once, each sending a full request, then closed
  // without reading the answer.
  std::vector<int> flood;
  const std::string request = "POST /v1/models/small:predict HTTP/1.1\r\nHost: x\r\n"
                              "Content-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n\r\n" + body;
  for (int i = 0; i < 300; ++i) flood.push_back(raw_connection(s.port, request));
  for (int fd : flood)
    if (fd >= 0) close(fd);
  r = post(s, "/v1/models/small:predict", body);
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(get(s, "/v1/models/small").status, 200);
}

}  // namespace
}  // namespace keras
