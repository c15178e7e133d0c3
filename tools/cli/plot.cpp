// keras-cpp plot FILE -o model.svg: a model diagram through Graphviz's dot (svg, png, pdf), or
// the .dot text itself with --format dot (no Graphviz needed).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.h"
#include "common.h"
#include "model_graph.h"

extern char** environ;

namespace keras::cli {
namespace {

struct PlotArgs {
  std::string file, output, format, rankdir = "TB";
  bool hide_shapes = false;
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw UserError("cannot write '" + path + "'");
}

// The path of an executable `name` on $PATH.
std::optional<std::string> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
      return candidate;
  }
  return std::nullopt;
}

// Runs dot -T<format> -o <output> <dot_file>; UserError when it fails.
void run_dot(const std::string& dot, const std::string& format, const std::string& dot_file,
             const std::string& output) {
  std::string type = "-T" + format;
  std::vector<std::string> args = {dot, type, "-o", output, dot_file};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, dot.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw UserError("could not run Graphviz's " + dot);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw UserError("Graphviz's dot failed to write '" + output + "' (exit status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

std::string format_of(const PlotArgs& args) {
  if (!args.format.empty()) return args.format;
  std::string ext = std::filesystem::path(args.output).extension().string();
  if (ext == ".dot" || ext == ".gv") return "dot";
  if (ext == ".png" || ext == ".pdf") return ext.substr(1);
  return "svg";
}

void run_plot(const PlotArgs& args) {
  auto model = load_model_file(args.file, /*compile=*/false);
  std::string text =
      model_to_dot(*model, {.rankdir = args.rankdir, .show_shapes = !args.hide_shapes});
  std::string format = format_of(args);
  if (format == "dot") {
    write_text(args.output, text);
    return;
  }
  auto dot = find_program("dot");
  if (!dot)
    throw UserError(
        "Graphviz's 'dot' is not installed (not found on PATH): install it "
        "(apt-get install graphviz), or write the diagram's text with --format dot");
  std::string dot_file =
      (std::filesystem::temp_directory_path() / ("keras-cpp-" + std::to_string(getpid()) + ".dot"))
          .string();
  write_text(dot_file, text);
  try {
    run_dot(*dot, format, dot_file, args.output);
  } catch (...) {
    std::filesystem::remove(dot_file);
    throw;
  }
  std::filesystem::remove(dot_file);
}

}  // namespace

void add_plot(CLI::App& app) {
  auto args = std::make_shared<PlotArgs>();
  auto* cmd = app.add_subcommand(
      "plot", "Draw a model's layers and connections (Graphviz dot), or write the .dot text");
  cmd->add_option("FILE", args->file, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("--output,-o", args->output, "Output file (model.svg, model.png, model.dot)")
      ->required();
  cmd->add_option("--format", args->format, "svg, png, pdf or dot (default: from -o's extension)")
      ->check(CLI::IsMember({"svg", "png", "pdf", "dot"}));
  cmd->add_option("--rankdir", args->rankdir, "TB (top to bottom) or LR (left to right)")
      ->check(CLI::IsMember({"TB", "LR"}));
  cmd->add_flag("--hide-shapes", args->hide_shapes, "Leave the output shapes out");
  cmd->callback([args] { run_plot(*args); });
}

}  // namespace keras::cli
