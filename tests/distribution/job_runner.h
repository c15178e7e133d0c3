#pragma once
// Starts a job of this test binary with `keras-cpp launch`: each process runs one disabled test
// (DISABLED_Job.<name>) as its body, so the multi-process tests need no separate program. The
// job's exit code and its merged output come back.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace keras::test {

struct JobResult {
  int code = -1;
  std::string output;
};

inline std::string self_path() {
  char buffer[4096];
  ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// `processes` copies of this binary running DISABLED_Job.<body>, with `env` set for all of
/// them (the launcher adds the job's variables), stopped after `timeout_s` seconds.
inline JobResult run_job(int processes, const std::string& body,
                         const std::map<std::string, std::string>& env = {},
                         int timeout_s = 120) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() /
                       ("keras_job_" + std::to_string(::getpid()) + "_" + body + ".txt");
  std::string cmd = "env";
  for (const auto& [k, v] : env) cmd += " " + k + "=" + quoted(v);
  cmd += " timeout -s KILL " + std::to_string(timeout_s) + " " + quoted(KERAS_CLI_PATH) +
         " launch --tag-output -n " + std::to_string(processes) + " -- " + quoted(self_path()) +
         " --gtest_also_run_disabled_tests --gtest_brief=1 --gtest_filter=DISABLED_Job." + body +
         " > " + quoted(out.string()) + " 2>&1";
  JobResult result;
  int status = std::system(cmd.c_str());
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(out);
  std::stringstream s;
  s << in.rdbuf();
  result.output = s.str();
  fs::remove(out);
  return result;
}

}  // namespace keras::test
