#pragma once
// keras::serving::RequestHandler: TensorFlow Serving's REST API without the transport. A
// request (method, path, body) becomes a reply (status, headers, JSON body) against a
// ModelRegistry: POST /v1/models/NAME[/versions/V]:predict, GET /v1/models/NAME[/versions/V]
// (status), GET /v1/models/NAME[/versions/V]/metadata, GET /metrics. HttpServer puts it behind
// an event loop (Boost.Beast); the request fuzzer (fuzz/serve_request_fuzzer.cpp) calls it
// directly.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
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

/// Where the reply to a request goes: called once, from the thread that answers it.
using ReplyCallback = std::function<void(HttpReply reply)>;

/// A predict request waiting for its batch (see RequestHandler::handle): it is answered by the
/// model through the callback, or by expire() at its deadline, whichever comes first.
class PendingReply {
 public:
  PendingReply(ReplyCallback done, Metrics& metrics, std::chrono::milliseconds timeout);
  /// The 504 reply when the model has not answered yet (the callback is then never called),
  /// or nullopt when it has. Any thread.
  std::optional<HttpReply> expire();
  /// When the request times out: its arrival plus the request timeout.
  std::chrono::steady_clock::time_point deadline() const { return deadline_; }

 private:
  friend class RequestHandler;
  // Gives the reply to the callback, unless expire() came first; latency recorded either way.
  void answer(HttpReply reply);
  void record_latency();

  ReplyCallback done_;
  Metrics& metrics_;
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point start_, deadline_;
  std::atomic<bool> answered_{false};
};

class RequestHandler {
 public:
  explicit RequestHandler(ModelRegistry& models, HandlerOptions options = {});
  /// Answers a request through `done`, exactly once; never throws (errors become
  /// {"error": ...} replies). Every request but a queued predict is answered before this
  /// returns, on the calling thread, and null is returned. A queued predict is answered on its
  /// model's worker thread once its batch ran; its PendingReply is returned, for the caller to
  /// expire() at its deadline() if it is still waiting then (an event loop's timer).
  std::shared_ptr<PendingReply> handle(const HttpRequest& request, ReplyCallback done);
  /// The reply to one request, waiting for it (504 at the request timeout).
  HttpReply handle(const HttpRequest& request);
  /// While the body of a predict request is read, the transport holds this token so that its
  /// model's batching worker waits for the request (ModelServer::Arriving); null for requests
  /// that are no predict of a served model.
  std::shared_ptr<void> announce(const std::string& method, const std::string& path);
  ModelRegistry& models() { return models_; }

 private:
  // Fills `reply`, or queues a predict and returns true (then `pending` answers it).
  bool route(const HttpRequest& request, HttpReply& reply,
             const std::shared_ptr<PendingReply>& pending);
  void predict(const ServedModel& model, const std::string& body, HttpReply& reply,
               const std::shared_ptr<PendingReply>& pending);

  ModelRegistry& models_;
  HandlerOptions options_;
};

}  // namespace keras::serving
