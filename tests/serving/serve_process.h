#pragma once
// `keras-cpp` as a child process for the serving tests (tests/serving, tests/serving_grpc):
// started with arguments, its output read until a pattern shows, its exit code awaited.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <vector>

namespace keras {

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

}  // namespace keras
