#pragma once
// Runs the built keras-cpp binary (KERAS_CLI_PATH) as a subprocess and captures its exit code,
// stdout and stderr; small checks shared by the CLI tests.

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace keras::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

/// Removes the CLI tests' scratch folder when the test program ends (in the process that made
/// it, not in a child that exits through exit()).
struct CliDirRemover {
  std::filesystem::path dir;
  pid_t owner = 0;
  ~CliDirRemover() {
    std::error_code ignored;
    if (owner == ::getpid() && !dir.empty()) std::filesystem::remove_all(dir, ignored);
  }
};
inline CliDirRemover cli_dir_remover;

/// A scratch folder for the CLI tests (one per process, so runs side by side do not collide),
/// removed when the program ends.
inline std::filesystem::path cli_dir() {
  auto dir =
      std::filesystem::temp_directory_path() / ("keras_cpp_cli_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  if (cli_dir_remover.owner != ::getpid()) {
    cli_dir_remover.dir = dir;
    cli_dir_remover.owner = ::getpid();
  }
  return dir;
}

inline std::string cli_path(const std::string& name) {
  return (cli_dir() / name).string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// keras-cpp with `args`; `env` is prepended as NAME=value assignments (an empty value unsets
/// the variable). KERAS_HOME is an empty folder unless `env` sets it: the ~/.keras/keras.json
/// of a machine with Python Keras (which names "tensorflow") must not change what the tests see.
inline CliResult run_cli(const std::vector<std::string>& args,
                         std::map<std::string, std::string> env = {}) {
  std::string out = cli_path("stdout.txt"), err = cli_path("stderr.txt");
  if (!env.count("KERAS_HOME")) {
    env["KERAS_HOME"] = cli_path("keras_home");
    std::filesystem::create_directories(env["KERAS_HOME"]);
  }
  std::string cmd = "env";
  for (const auto& [k, v] : env)
    if (v.empty()) cmd += " -u " + k;
  cmd += " COLUMNS=300";
  for (const auto& [k, v] : env)
    if (!v.empty()) cmd += " " + k + "=" + shell_quote(v);
  cmd += " " + shell_quote(KERAS_CLI_PATH);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " </dev/null >" + shell_quote(out) + " 2>" + shell_quote(err);
  int status = std::system(cmd.c_str());
  CliResult r;
  r.code =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

/// True when `text` is exactly one non-empty line (ending in a newline).
inline bool one_line(const std::string& text) {
  return text.size() > 1 && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

}  // namespace keras::test
