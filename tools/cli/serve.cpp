// keras-cpp serve MODEL [--name NAME] [--port 8501] [...]: serve a model over TensorFlow
// Serving's REST API (keras::serving, tools/serve) until SIGTERM or SIGINT, which stop the
// listening, let the queued requests finish and exit 0.

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "commands.h"
#include "common.h"
#include "serve/http_server.h"
#include "serve/model_server.h"

namespace keras::cli {
namespace {

struct ServeArgs {
  std::string file, name, host = "0.0.0.0", backend;
  int port = 8501;
  int64_t max_batch = 32, batch_timeout_us = 1000, max_queue = 256;
  int64_t max_body_bytes = int64_t{16} << 20, threads = 0;
};

int stop_pipe[2] = {-1, -1};

void on_stop_signal(int sig) {
  const unsigned char byte = static_cast<unsigned char>(sig);
  const int saved = errno;
  if (write(stop_pipe[1], &byte, 1) != 1) {
  }
  errno = saved;
}

void run_serve(const ServeArgs& args) {
  use_backend(args.backend);
  auto model = load_model_file(args.file, /*compile=*/false);
  std::string name =
      args.name.empty() ? std::filesystem::path(args.file).stem().string() : args.name;
  if (name.empty() || name.find_first_of("/:") != std::string::npos)
    throw UserError("the model name '" + name + "' must be non-empty, without '/' or ':' " +
                    "(give one with --name)");

  serving::ModelServer server(model, {.max_batch = args.max_batch,
                                      .batch_timeout_us = args.batch_timeout_us,
                                      .max_queue = static_cast<size_t>(args.max_queue)});
  serving::HttpServer http(server, {.host = args.host,
                                    .port = args.port,
                                    .model_name = name,
                                    .max_body_bytes = static_cast<size_t>(args.max_body_bytes),
                                    .threads = static_cast<int>(args.threads)});
  const int port = http.bind();

  // SIGINT and SIGTERM write their number to a pipe (all a handler may safely do, in
  // whichever thread the signal lands: libraries start threads of their own before main); a
  // thread reads it and stops the server. The main thread writes 0 when listen() ended.
  if (pipe(stop_pipe) != 0) throw UserError("cannot create a pipe for the signal handler");
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::thread waiter([&] {
    unsigned char sig = 0;
    while (read(stop_pipe[0], &sig, 1) < 0 && errno == EINTR) {
    }
    if (sig == 0) return;
    std::cout << "keras-cpp serve: " << (sig == SIGINT ? "SIGINT" : "SIGTERM")
              << ": stopping (finishing the queued requests)" << std::endl;
    http.stop();
  });

  std::cout << "keras-cpp serve: model '" << name << "' (" << args.file << ") on http://"
            << args.host << ":" << port << "/v1/models/" << name << ":predict" << std::endl;
  std::cout << "listening on port " << port << std::endl;
  http.listen();
  const unsigned char done = 0;
  if (write(stop_pipe[1], &done, 1) != 1) {  // wakes the waiter if no signal came
  }
  waiter.join();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  close(stop_pipe[0]);
  close(stop_pipe[1]);
  server.stop();
  std::cout << "keras-cpp serve: stopped" << std::endl;
}

}  // namespace

void add_serve(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand(
      "serve", "Serve a model over TensorFlow Serving's REST API (predict, status, metadata)");
  cmd->add_option("MODEL", args->file, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("--name", args->name, "Model name in /v1/models/NAME (default: the file's stem)");
  cmd->add_option("--port", args->port, "TCP port (0: any free port, printed)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--host", args->host, "Address to listen on (default 0.0.0.0)");
  cmd->add_option("--max-batch", args->max_batch, "Most rows per predict_on_batch (default 32)")
      ->check(whole_number(1));
  cmd->add_option("--batch-timeout-us", args->batch_timeout_us,
                  "Microseconds to wait for more rows after a request arrives (default 1000)")
      ->check(whole_number(0));
  cmd->add_option("--max-queue", args->max_queue,
                  "Most queued requests; more get 503 with Retry-After (default 256)")
      ->check(whole_number(1));
  cmd->add_option("--max-body-bytes", args->max_body_bytes,
                  "Largest request body; larger gets 413 (default 16 MiB)")
      ->check(whole_number(1));
  cmd->add_option("--threads", args->threads,
                  "HTTP connection threads (default: max(8, hardware threads))")
      ->check(whole_number(0));
  cmd->add_option("--backend", args->backend, "Backend to run on (see keras-cpp info)");
  cmd->callback([args] { run_serve(*args); });
}

}  // namespace keras::cli
