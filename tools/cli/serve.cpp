// keras-cpp serve MODEL [--name NAME] | --model-config FILE  [--port 8501] [...]: serve one
// or several models over TensorFlow Serving's REST API (keras::serving, tools/serve), reloading
// a model when its file changes, until SIGTERM or SIGINT, which stop the listening, let the
// queued requests finish and exit 0.

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <thread>

#include "commands.h"
#include "common.h"
#include "serve/grpc_server.h"
#include "serve/http_server.h"
#include "serve/model_registry.h"
#include "serve/request_handler.h"

namespace keras::cli {
namespace {

struct ServeArgs {
  std::string file, name, config, host = "0.0.0.0", backend;
  std::string grpc_ssl_cert, grpc_ssl_key, grpc_ssl_client_ca;
  int port = 8501, grpc_port = -1;
  int64_t max_batch = 32, batch_timeout_us = 1000, max_queue = 256;
  int64_t max_body_bytes = int64_t{16} << 20, max_connections = 1024;
  double poll_interval_s = 1;
  int64_t request_timeout_ms = 30000, io_timeout_s = 5;
};

int stop_pipe[2] = {-1, -1};

void on_stop_signal(int sig) {
  const unsigned char byte = static_cast<unsigned char>(sig);
  const int saved = errno;
  if (write(stop_pipe[1], &byte, 1) != 1) {
  }
  errno = saved;
}

// The models to serve: MODEL [--name] or the --model-config file's list.
std::vector<serving::ModelSource> model_sources(const ServeArgs& args) {
  if (args.file.empty() == args.config.empty())
    throw UserError("give either a model file or --model-config FILE (not both)");
  if (!args.config.empty()) {
    if (!args.name.empty()) throw UserError("--name names MODEL; the config file names its models");
    try {
      return serving::read_model_config(args.config);
    } catch (const Error& e) {
      throw UserError(e.what());
    }
  }
  // The default name: a file's stem, or a folder of version folders' own name.
  std::filesystem::path path = std::filesystem::path(args.file).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();  // "models/mnist/"
  const bool folder = std::filesystem::is_directory(path);
  std::string name = !args.name.empty() ? args.name
                     : folder           ? path.filename().string()
                                        : path.stem().string();
  if (name.empty() || name.find_first_of("/:") != std::string::npos)
    throw UserError("the model name '" + name + "' must be non-empty, without '/' or ':' " +
                    "(give one with --name)");
  return {{name, args.file}};
}

// SIGINT and SIGTERM for the life of the server: blocked in the calling thread before it starts
// any other, so every thread of the server inherits the block and the signals go to the one
// thread that unblocks them (the waiter of run_serve), which is waiting in read(); a thread a
// library started before main may still take one, and then the handler writes the signal's
// number to the pipe the waiter reads, all a handler may safely do. (With the handler alone a
// signal could land on an idle connection thread, where ThreadSanitizer holds it back for
// good.) The destructor restores the mask and the default actions.
class StopSignals {
 public:
  StopSignals() {
    if (pipe(stop_pipe) != 0) throw UserError("cannot create a pipe for the signal handler");
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
  }
  ~StopSignals() {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  /// In the thread that is to take the signals.
  void unblock_here() const { pthread_sigmask(SIG_UNBLOCK, &set_, nullptr); }

 private:
  sigset_t set_, previous_;
};

void run_serve(const ServeArgs& args) {
  const StopSignals stop_signals;
  use_backend(args.backend);
  const std::vector<serving::ModelSource> sources = model_sources(args);
  serving::ModelRegistry models(
      {.max_batch = args.max_batch,
       .batch_timeout_us = args.batch_timeout_us,
       .max_queue = static_cast<size_t>(args.max_queue)},
      [](const std::string& path) { return load_model_file(path, /*compile=*/false); });
  for (const auto& source : sources)
    models.add_file(source.name, source.path, source.policy, source.labels);
  serving::RequestHandler handler(
      models, {.request_timeout = std::chrono::milliseconds(args.request_timeout_ms)});
  serving::HttpServer http(handler, {.host = args.host,
                                     .port = args.port,
                                     .max_body_bytes = static_cast<size_t>(args.max_body_bytes),
                                     .max_connections = static_cast<int>(args.max_connections),
                                     .io_timeout_s = static_cast<int>(args.io_timeout_s)});
  const int port = http.bind();
  // TF Serving's gRPC API beside the REST API, on the same models (--grpc-port).
  std::optional<serving::GrpcServer> grpc;
  if (args.grpc_port < 0 &&
      !(args.grpc_ssl_cert + args.grpc_ssl_key + args.grpc_ssl_client_ca).empty())
    throw UserError(
        "--grpc-ssl-cert, --grpc-ssl-key and --grpc-ssl-client-ca secure the gRPC "
        "API: give --grpc-port too");
  if (args.grpc_port >= 0)
    grpc.emplace(models, serving::GrpcOptions{
                             .host = args.host,
                             .port = args.grpc_port,
                             .request_timeout = std::chrono::milliseconds(args.request_timeout_ms),
                             .max_message_bytes = static_cast<int>(std::min<int64_t>(
                                 args.max_body_bytes, std::numeric_limits<int>::max())),
                             .ssl_cert_file = args.grpc_ssl_cert,
                             .ssl_key_file = args.grpc_ssl_key,
                             .ssl_client_ca_file = args.grpc_ssl_client_ca});

  // The waiter takes SIGINT and SIGTERM (see StopSignals), or reads one from the pipe, and
  // stops the server; the main thread writes 0 to the pipe when listen() ended.
  std::thread waiter([&] {
    stop_signals.unblock_here();
    unsigned char sig = 0;
    while (read(stop_pipe[0], &sig, 1) < 0 && errno == EINTR) {
    }
    if (sig == 0) return;
    std::cout << "keras-cpp serve: " << (sig == SIGINT ? "SIGINT" : "SIGTERM")
              << ": stopping (finishing the queued requests; a second signal exits at once)"
              << std::endl;
    http.request_stop();  // listen() returns once the requests in flight are answered
    // A second signal while draining: exit now, as a process the signal killed would.
    sig = 0;
    while (read(stop_pipe[0], &sig, 1) < 0 && errno == EINTR) {
    }
    if (sig == 0) return;  // the drain ended (main writes 0)
    std::cout << "keras-cpp serve: a second " << (sig == SIGINT ? "SIGINT" : "SIGTERM")
              << ": exiting without finishing the requests in flight" << std::endl;
    std::_Exit(128 + sig);
  });

  for (const auto& source : sources)
    std::cout << "keras-cpp serve: model '" << source.name << "' (" << source.path
              << ") on http://" << args.host << ":" << port << "/v1/models/" << source.name
              << ":predict" << std::endl;
  if (args.poll_interval_s > 0)
    models.start_polling(
        std::chrono::milliseconds(static_cast<int64_t>(args.poll_interval_s * 1000)),
        [](const std::string& line) { std::cout << "keras-cpp serve: " << line << std::endl; });
  if (grpc)
    std::cout << "keras-cpp serve: gRPC (TF Serving's PredictionService) on " << args.host << ":"
              << grpc->port() << std::endl
              << "grpc listening on port " << grpc->port() << std::endl;
  std::cout << "listening on port " << port << std::endl;
  http.listen();
  if (grpc) grpc->shutdown();  // waits for the calls in flight, which the models still answer
  const unsigned char done = 0;
  if (write(stop_pipe[1], &done, 1) != 1) {  // wakes the waiter if no signal came
  }
  waiter.join();
  models.stop();
  std::cout << "keras-cpp serve: stopped" << std::endl;
}

}  // namespace

void add_serve(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand(
      "serve",
      "Serve a model over TensorFlow Serving's REST API (predict, status, metadata), and its gRPC "
      "API with --grpc-port");
  cmd->add_option("MODEL", args->file,
                  "Model file (.keras, or legacy .h5), or a folder of numbered version folders "
                  "(TF Serving's layout: MODEL/1/m.keras, MODEL/2/m.keras; the highest serves)");
  cmd->add_option("--name", args->name,
                  "Model name in /v1/models/NAME (default: the file's stem, or the folder's name)");
  cmd->add_option("--model-config", args->config,
                  "JSON file listing several models: {\"models\": [{\"name\": ..., \"path\": ...}]}")
      ->check(CLI::ExistingFile);
  cmd->add_option("--poll-interval-s", args->poll_interval_s,
                  "Seconds between checks of the model files for changes (hot reload; 0: never; "
                  "default 1)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--request-timeout-ms", args->request_timeout_ms,
                  "A predict not answered this long after it arrived gets 504 (default 30000)")
      ->check(whole_number(1));
  cmd->add_option("--io-timeout-s", args->io_timeout_s,
                  "Close a connection whose request header, then body, takes longer than this to "
                  "arrive, or whose reply is not taken within it (default 5)")
      ->check(whole_number(1));
  cmd->add_option("--port", args->port, "TCP port (0: any free port, printed)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--grpc-port", args->grpc_port,
                  "Also serve TF Serving's gRPC API (PredictionService.Predict, GetModelMetadata; "
                  "ModelService.GetModelStatus) on this port (TF Serving's is 8500; 0: any free "
                  "port, printed; default: no gRPC)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--grpc-ssl-cert", args->grpc_ssl_cert,
                  "gRPC over TLS: the server's certificate chain (PEM; with --grpc-ssl-key)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--grpc-ssl-key", args->grpc_ssl_key, "gRPC over TLS: its private key (PEM)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--grpc-ssl-client-ca", args->grpc_ssl_client_ca,
                  "gRPC over TLS: accept only clients whose certificate these CAs signed (PEM)")
      ->check(CLI::ExistingFile);
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
  cmd->add_option("--max-connections", args->max_connections,
                  "Most connections open at once; more wait to be accepted (default 1024)")
      ->check(whole_number(1));
  cmd->add_option("--backend", args->backend, "Backend to run on (see keras-cpp info)");
  cmd->callback([args] { run_serve(*args); });
}

}  // namespace keras::cli
