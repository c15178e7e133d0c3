#pragma once
// keras::serving::HttpServer: TensorFlow Serving's REST API over a ModelServer, on
// cpp-httplib. Endpoints: POST /v1/models/NAME[/versions/1]:predict, GET /v1/models/NAME
// [/versions/1] (status), GET /v1/models/NAME[/versions/1]/metadata, GET /metrics.

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>

#include "serve/model_server.h"

namespace keras::serving {

/// Where and how the server listens (keras-cpp serve's flags).
struct HttpOptions {
  std::string host = "0.0.0.0";
  /// 0 picks a free port (see HttpServer::port()).
  int port = 8501;
  /// The NAME in /v1/models/NAME.
  std::string model_name = "model";
  /// The version the model is served as.
  std::string version = "1";
  /// Larger request bodies get 413.
  size_t max_body_bytes = size_t{16} << 20;
  /// Connection threads (0: max(8, hardware threads)).
  int threads = 0;
};

/// The HTTP front of a ModelServer. The ModelServer must outlive it.
class HttpServer {
 public:
  HttpServer(ModelServer& model, HttpOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds the address; returns the port (the chosen one for port 0). IOError when the port
  /// cannot be bound.
  int bind();
  /// Serves until stop() (binds first when bind() was not called). Blocks.
  void listen();
  /// listen() on a thread of its own.
  void start();
  /// Stops accepting connections; returns once the requests in flight are answered (and the
  /// thread of start() has ended). Safe from any thread, more than once.
  void stop();
  int port() const { return port_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = -1;
  std::thread thread_;
};

}  // namespace keras::serving
