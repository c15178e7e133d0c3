#pragma once
// keras::serving::RequestHandler: TensorFlow Serving's REST API without the transport. A
// request (method, path, body) becomes a reply (status, headers, JSON body) against a
// ModelRegistry: POST /v1/models/NAME[/versions/V]:predict, GET /v1/models/NAME[/versions/V]
// (status), GET /v1/models/NAME[/versions/V]/metadata, GET /metrics. HttpServer puts it behind
// cpp-httplib; the request fuzzer (fuzz/serve_request_fuzzer.cpp) calls it directly.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "serve/model_registry.h"

namespace keras::serving {

struct HttpRequest {
  std::string method, path, body;
};

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct HandlerOptions {
  /// A predict request not answered this long after it arrived gets 504 (and is dropped
  /// from the queue if its batch has not started).
  std::chrono::milliseconds request_timeout{30000};
};

class RequestHandler {
 public:
  explicit RequestHandler(ModelRegistry& models, HandlerOptions options = {});
  /// The reply to one request; never throws (errors become {"error": ...} replies).
  HttpReply handle(const HttpRequest& request);
  ModelRegistry& models() { return models_; }

 private:
  void route(const HttpRequest& request, HttpReply& reply);
  void predict(const ServedModel& model, const std::string& body, HttpReply& reply);

  ModelRegistry& models_;
  HandlerOptions options_;
};

}  // namespace keras::serving
