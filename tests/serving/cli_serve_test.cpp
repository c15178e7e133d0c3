// `keras-cpp serve` as a process: it prints its port, answers predict, and on SIGTERM stops
// accepting, answers what it holds and exits 0; a bad model file or a busy port exit 1.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "keras/keras.h"

namespace keras {
namespace {

// keras-cpp with `args`, its stdout and stderr on one pipe.
struct ServeProcess {
  pid_t pid = -1;
  int out = -1;
  std::string text;

  explicit ServeProcess(std::vector<std::string> args) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return;
    pid = fork();
    if (pid == 0) {
      dup2(fds[1], 1);
      dup2(fds[1], 2);
      close(fds[0]);
      std::vector<char*> argv{const_cast<char*>(KERAS_CLI_PATH)};
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(KERAS_CLI_PATH, argv.data());
      _exit(127);
    }
    close(fds[1]);
    out = fds[0];
  }
  ~ServeProcess() {
    if (pid > 0 && waitpid(pid, nullptr, WNOHANG) == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    if (out >= 0) close(out);
  }
  // Reads output until `pattern` matches it (or the process ends / the time is up).
  std::smatch wait_for(const std::regex& pattern, int timeout_ms = 20000) {
    std::smatch m;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!std::regex_search(text, m, pattern) && std::chrono::steady_clock::now() < end)
      if (!read_some()) break;
    return m;
  }
  // Appends what the process wrote; false at the end of its output.
  bool read_some() {
    pollfd p{out, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) return true;
    char buf[4096];
    ssize_t n = read(out, buf, sizeof buf);
    if (n <= 0) return false;
    text.append(buf, static_cast<size_t>(n));
    return true;
  }
  // The exit code (128 + signal when killed); SIGKILL after 20 s.
  int wait_exit() {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (read_some() && std::chrono::steady_clock::now() < end) {
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
    pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

std::string small_model_file() {
  auto x = Input({4}, {.name = "x"});
  auto model = Functional(x, layers::Dense(2, {.name = "y"})(x));
  auto path = std::filesystem::temp_directory_path() /
              ("keras_serve_test_" + std::to_string(getpid()) + ".keras");
  model->save(path.string());
  return path.string();
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

}  // namespace
}  // namespace keras
