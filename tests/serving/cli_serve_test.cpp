// `keras-cpp serve` as a process: it prints its port, answers predict, and on SIGTERM stops
// accepting, answers what it holds and exits 0; a bad model file or a busy port exit 1; a
// --model-config file serves several models, and a replaced model file is reloaded.

#include <gtest/gtest.h>

#include <sys/socket.h>

#include <netinet/in.h>

#include <arpa/inet.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "keras/keras.h"
#include "serve_process.h"

namespace keras {
namespace {

ModelPtr<Model> small_model() {
  auto x = Input({4}, {.name = "x"});
  return Functional(x, layers::Dense(2, {.name = "y"})(x));
}

std::string small_model_file(const std::string& tag = "") {
  auto path = std::filesystem::temp_directory_path() /
              ("keras_serve_test_" + std::to_string(getpid()) + tag + ".keras");
  small_model()->save(path.string());
  return path.string();
}

// The predictions `keras-cpp serve` gives for one row.
std::vector<float> served_row(httplib::Client& c, const std::string& name) {
  auto r = c.Post(("/v1/models/" + name + ":predict").c_str(), R"({"instances": [[1, 2, 3, 4]]})",
                  "application/json");
  if (!r || r->status != 200) {
    ADD_FAILURE() << (r ? r->body : "no answer");
    return {};
  }
  return nlohmann::json::parse(r->body).at("predictions")[0].get<std::vector<float>>();
}

std::vector<float> predicted_row(Model& model) {
  Tensor x = Tensor::from_vector(std::vector<float>{1, 2, 3, 4}, {1, 4});
  return model.predict(x, {.verbose = 0}).single().to_vector<float>();
}

TEST(ServeCommand, AnswersThenStopsOnSigterm) {
  const std::string file = small_model_file();
  ServeProcess p({"serve", file, "--name", "tiny", "--port", "0", "--host", "127.0.0.1"});
  std::smatch m = p.wait_for(std::regex("listening on port ([0-9]+)\n"));
  ASSERT_FALSE(m.empty()) << p.text;
  const int port = std::stoi(m[1]);
  httplib::Client c("127.0.0.1", port);
  auto r = c.Post("/v1/models/tiny:predict", R"({"instances": [[1, 2, 3, 4], [0, 0, 0, 0]]})",
                  "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body).at("predictions").size(), 2u);
  r = c.Get("/v1/models/tiny/metadata");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);

  ASSERT_EQ(kill(p.pid, SIGTERM), 0);
  EXPECT_EQ(p.wait_exit(), 0) << p.text;
  EXPECT_NE(p.text.find("SIGTERM: stopping"), std::string::npos) << p.text;
  EXPECT_NE(p.text.find("keras-cpp serve: stopped"), std::string::npos) << p.text;
  std::filesystem::remove(file);
}

TEST(ServeCommand, ASecondSignalExitsDuringTheDrain) {
  const std::string file = small_model_file("_second_signal");
  ServeProcess p({"serve", file, "--name", "tiny", "--port", "0", "--host", "127.0.0.1",
                  "--io-timeout-s", "30"});
  std::smatch m = p.wait_for(std::regex("listening on port ([0-9]+)\n"));
  ASSERT_FALSE(m.empty()) << p.text;
  // A request whose body never comes: the drain would wait for it up to --io-timeout-s.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(std::stoi(m[1])));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const std::string head =
      "POST /v1/models/tiny:predict HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{";
  ASSERT_EQ(write(fd, head.data(), head.size()), static_cast<ssize_t>(head.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(kill(p.pid, SIGTERM), 0);
  p.wait_for(std::regex("SIGTERM: stopping"));
  ASSERT_EQ(kill(p.pid, SIGTERM), 0);
  EXPECT_EQ(p.wait_exit(), 128 + SIGTERM) << p.text;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(p.text.find("a second SIGTERM: exiting"), std::string::npos) << p.text;
  close(fd);
  std::filesystem::remove(file);
}

TEST(ServeCommand, BadFileAndBusyPortAreUserErrors) {
  ServeProcess missing({"serve", "/no/such/model.keras", "--port", "0"});
  EXPECT_EQ(missing.wait_exit(), 1);
  EXPECT_NE(missing.text.find("model file '/no/such/model.keras' does not exist"),
            std::string::npos)
      << missing.text;

  const std::string file = small_model_file();
  ServeProcess first({"serve", file, "--port", "0", "--host", "127.0.0.1"});
  std::smatch m = first.wait_for(std::regex("listening on port ([0-9]+)\n"));
  ASSERT_FALSE(m.empty()) << first.text;
  ServeProcess second({"serve", file, "--port", m[1].str(), "--host", "127.0.0.1"});
  EXPECT_EQ(second.wait_exit(), 1);
  EXPECT_NE(second.text.find("cannot listen on 127.0.0.1:" + m[1].str()), std::string::npos)
      << second.text;
  kill(first.pid, SIGINT);
  EXPECT_EQ(first.wait_exit(), 0) << first.text;
  std::filesystem::remove(file);
}

TEST(ServeCommand, ModelConfigServesSeveralModelsAndReloadsAChangedFile) {
  const std::string a = small_model_file("_a"), b = small_model_file("_b");
  const auto config = std::filesystem::temp_directory_path() /
                      ("keras_serve_test_" + std::to_string(getpid()) + ".json");
  std::ofstream(config) << nlohmann::json{{"models",
                                           {{{"name", "first"}, {"path", a}},
                                            {{"name", "second"}, {"path", b}}}}}
                               .dump();
  ServeProcess p({"serve", "--model-config", config.string(), "--port", "0", "--host",
                  "127.0.0.1", "--poll-interval-s", "0.05"});
  std::smatch m = p.wait_for(std::regex("listening on port ([0-9]+)\n"));
  ASSERT_FALSE(m.empty()) << p.text;
  httplib::Client c("127.0.0.1", std::stoi(m[1]));
  auto first = saving::load_model(a), second = saving::load_model(b);
  EXPECT_EQ(served_row(c, "first"), predicted_row(*first));
  EXPECT_EQ(served_row(c, "second"), predicted_row(*second));

  // Replace the second model's file (save beside it, rename over it): served as version 2.
  auto replacement = small_model();
  replacement->save(b + ".new.keras");
  std::filesystem::rename(b + ".new.keras", b);
  EXPECT_FALSE(p.wait_for(std::regex("model 'second': version 2 loaded")).empty()) << p.text;
  EXPECT_EQ(served_row(c, "second"), predicted_row(*replacement));
  EXPECT_EQ(served_row(c, "first"), predicted_row(*first));

  ASSERT_EQ(kill(p.pid, SIGTERM), 0);
  EXPECT_EQ(p.wait_exit(), 0) << p.text;

  ServeProcess both({"serve", a, "--model-config", config.string()});
  EXPECT_EQ(both.wait_exit(), 1);
  EXPECT_NE(both.text.find("either a model file or --model-config"), std::string::npos)
      << both.text;
  for (const auto& f : {a, b, config.string()}) std::filesystem::remove(f);
}

}  // namespace
}  // namespace keras
