// keras-cpp: Keras model files from the command line (info, summary, predict, evaluate, fit,
// convert, export, plot, plot-history, conformance, serve), and launch, which starts and
// supervises the processes of a distributed job. Exit codes: 0 ok, 1 user error (one line on
// stderr), 2 internal error; launch exits with the code of the rank that failed.

#include <exception>
#include <iostream>
#include <string>

#include "commands.h"
#include "common.h"
#include "keras/core/errors.h"

namespace {

// Messages go out on one line, whatever the exception held.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

int fail(int code, const std::string& message) {
  std::cout.flush();
  std::cerr << "keras-cpp: " << (code == 2 ? "internal error: " : "error: ") << one_line(message)
            << std::endl;
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keras-cpp " KERAS_CPP_VERSION ": Keras model files from the command line",
               "keras-cpp"};
  app.set_version_flag("--version", std::string("keras-cpp ") + KERAS_CPP_VERSION);
  app.require_subcommand(1, 1);
  app.fallthrough(false);
  keras::cli::add_info(app);
  keras::cli::add_summary(app);
  keras::cli::add_predict(app);
  keras::cli::add_evaluate(app);
  keras::cli::add_fit(app);
  keras::cli::add_convert(app);
  keras::cli::add_export(app);
  keras::cli::add_plot(app);
  keras::cli::add_plot_history(app);
  keras::cli::add_conformance(app);
  keras::cli::add_serve(app);
  keras::cli::add_launch(app);
  try {
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::string help = "keras-cpp --help";
    for (const CLI::App* sub : app.get_subcommands())
      help = "keras-cpp " + sub->get_name() + " --help";
    return fail(1, std::string(e.what()) + " (see " + help + ")");
  } catch (const keras::cli::ExitCode& e) {
    std::cout.flush();
    return e.code;
  } catch (const keras::cli::UserError& e) {
    return fail(1, e.what());
  } catch (const keras::RuntimeError& e) {
    return fail(2, e.what());
  } catch (const keras::Error& e) {
    return fail(1, e.what());
  } catch (const std::exception& e) {
    return fail(2, e.what());
  } catch (...) {
    return fail(2, "an unknown exception");
  }
}
