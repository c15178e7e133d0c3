#include "serve/request_handler.h"

#include <charconv>
#include <future>
#include <optional>
#include <utility>

#include "keras/core/errors.h"
#include "serve/rest_api.h"

namespace keras::serving {
namespace {

// The parts of /v1/models/NAME[/versions/V|/labels/L][/metadata|:VERB].
struct ModelPath {
  std::string name, version, label, rest;
};

ModelPath split_model_path(const std::string& path) {
  ModelPath p;
  std::string tail = path.substr(std::string("/v1/models/").size());
  size_t end = tail.find_first_of("/:");
  p.name = tail.substr(0, end);
  tail = end == std::string::npos ? "" : tail.substr(end);
  for (auto [prefix, field] : {std::pair{"/versions/", &p.version}, {"/labels/", &p.label}}) {
    std::string_view pre = prefix;
    if (tail.starts_with(pre)) {
      size_t stop = tail.find_first_of("/:", pre.size());
      *field = tail.substr(pre.size(), stop - pre.size());
      tail = stop == std::string::npos ? "" : tail.substr(stop);
    }
  }
  p.rest = tail;
  return p;
}

void require(const HttpRequest& req, const char* allowed, HttpReply& reply) {
  if (req.method == allowed || (req.method == "HEAD" && std::string(allowed) == "GET")) return;
  reply.headers.emplace_back("Allow", allowed);
  throw HttpError(405,
                  "method " + req.method + " is not allowed on " + req.path + ": use " + allowed);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "'" : ", '") + n + "'";
  return s;
}

std::string timeout_message(std::chrono::milliseconds timeout) {
  return "the model did not answer within the request timeout of " +
         std::to_string(timeout.count()) + " ms (--request-timeout-ms)";
}

HttpReply error_reply(int status, const std::string& message) {
  HttpReply reply;
  reply.status = status;
  reply.body = error_response(message);
  return reply;
}

// The reply of a predict the model has answered: the outputs, or its error as TF Serving's
// status.
HttpReply predict_reply(std::vector<HostArray> outputs, std::exception_ptr error,
                        PredictFormat format, const Signature& signature,
                        std::chrono::milliseconds timeout) {
  try {
    if (error) std::rethrow_exception(error);
    HttpReply reply;
    reply.body = predict_response(format, outputs, signature);
    return reply;
  } catch (const DeadlineExceededError&) {
    return error_reply(504, timeout_message(timeout));
  } catch (const ValueError& e) {
    return error_reply(400, std::string("the model refused the input: ") + e.what());
  } catch (const TypeError& e) {
    return error_reply(400, std::string("the model refused the input: ") + e.what());
  } catch (const std::exception& e) {
    return error_reply(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return error_reply(500, "internal error");
  }
}

// The version a request names (/versions/V or /labels/L), or the highest served one.
ServedModel resolve(const ModelRegistry& models, const ModelPath& p) {
  std::optional<ServedModel> latest = models.find(p.name);
  if (!latest)
    throw HttpError(404, "Servable not found for request: Latest(" + p.name +
                             "): this server serves " + quoted_list(models.names()));
  auto served = [&] {
    std::string s;
    for (int64_t v : models.versions(p.name)) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return " (served: " + s + ")";
  };
  if (!p.label.empty()) {
    std::optional<int64_t> version = models.label_version(p.name, p.label);
    if (!version)  // TF Serving's answer (an InvalidArgument status)
      throw HttpError(400, "Unrecognized servable version label: " + p.label);
    std::optional<ServedModel> model = models.find(p.name, *version);
    if (!model)
      throw HttpError(404, "Servable not found for request: Specific(" + p.name + ", " +
                               std::to_string(*version) + "), the version of label '" + p.label +
                               "'" + served());
    return *model;
  }
  if (p.version.empty()) return *latest;
  int64_t version = -1;
  const char* end = p.version.data() + p.version.size();
  auto [ptr, ec] = std::from_chars(p.version.data(), end, version);
  if (ec != std::errc() || ptr != end || version < 0)
    throw HttpError(400, "the version '" + p.version + "' in " + "/versions/" + p.version +
                             " is not a version number (an integer >= 0)");
  std::optional<ServedModel> model = models.find(p.name, version);
  if (!model)
    throw HttpError(404, "Servable not found for request: Specific(" + p.name + ", " + p.version +
                             ")" + served());
  return *model;
}

}  // namespace

PendingReply::PendingReply(ReplyCallback done, Metrics& metrics,
                           std::chrono::milliseconds timeout)
    : done_(std::move(done)),
      metrics_(metrics),
      timeout_(timeout),
      start_(std::chrono::steady_clock::now()),
      deadline_(start_ + timeout) {}

void PendingReply::record_latency() {
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
  metrics_.record_latency(took.count());
}

void PendingReply::answer(HttpReply reply) {
  if (answered_.exchange(true)) return;
  record_latency();
  // Released here, on the answering thread: it may hold the transport's connection.
  ReplyCallback done = std::move(done_);
  done(std::move(reply));
}

std::optional<HttpReply> PendingReply::expire() {
  if (answered_.exchange(true)) return std::nullopt;
  record_latency();
  done_ = nullptr;
  return error_reply(504, timeout_message(timeout_));
}

RequestHandler::RequestHandler(ModelRegistry& models, HandlerOptions options)
    : models_(models), options_(options) {}

std::shared_ptr<PendingReply> RequestHandler::handle(const HttpRequest& request,
                                                     ReplyCallback done) {
  auto pending =
      std::make_shared<PendingReply>(std::move(done), models_.metrics(), options_.request_timeout);
  HttpReply reply;
  try {
    if (route(request, reply, pending)) return pending;
  } catch (const HttpError& e) {
    HttpReply error = error_reply(e.status(), e.what());
    error.headers = std::move(reply.headers);
    reply = std::move(error);
  } catch (const std::exception& e) {
    reply = error_reply(500, std::string("internal error: ") + e.what());
  } catch (...) {
    reply = error_reply(500, "internal error");
  }
  pending->answer(std::move(reply));
  return nullptr;
}

HttpReply RequestHandler::handle(const HttpRequest& request) {
  auto promise = std::make_shared<std::promise<HttpReply>>();
  std::future<HttpReply> reply = promise->get_future();
  auto pending = handle(request, [promise](HttpReply r) { promise->set_value(std::move(r)); });
  if (pending && reply.wait_until(pending->deadline()) != std::future_status::ready)
    if (std::optional<HttpReply> late = pending->expire()) return std::move(*late);
  return reply.get();
}

std::shared_ptr<void> RequestHandler::announce(const std::string& method,
                                               const std::string& path) {
  if (method != "POST" || !path.starts_with("/v1/models/")) return nullptr;
  ModelPath p = split_model_path(path);
  if (p.rest != ":predict") return nullptr;
  std::optional<ServedModel> model;
  try {
    model = resolve(models_, p);
  } catch (const HttpError&) {
    return nullptr;  // the request itself will be answered with the error
  }
  // The token keeps the version it announced to alive through a reload.
  struct Token {
    std::shared_ptr<ModelServer> server;
    ModelServer::Arriving arriving;
    explicit Token(std::shared_ptr<ModelServer> s) : server(std::move(s)), arriving(*server) {}
  };
  return std::make_shared<Token>(model->server);
}

bool RequestHandler::route(const HttpRequest& req, HttpReply& reply,
                           const std::shared_ptr<PendingReply>& pending) {
  const std::string& path = req.path;
  if (path == "/metrics") {
    require(req, "GET", reply);
    reply.content_type = "text/plain; version=0.0.4";
    reply.body = models_.prometheus_text();
    return false;
  }
  if (!path.starts_with("/v1/models/"))
    throw HttpError(404, "unknown path " + path + ": the endpoints are /v1/models/NAME" +
                             "[:predict|/metadata] (models: " + quoted_list(models_.names()) +
                             ") and /metrics");
  ModelPath p = split_model_path(path);
  const ServedModel model = resolve(models_, p);
  const std::string version = std::to_string(model.version);
  if (p.rest.empty()) {
    require(req, "GET", reply);
    // The model's status lists every served version; a version's or label's, that one.
    reply.body = model_status_response(p.version.empty() && p.label.empty()
                                           ? models_.versions(p.name)
                                           : std::vector<int64_t>{model.version});
  } else if (p.rest == "/metadata") {
    require(req, "GET", reply);
    reply.body = model_metadata_response(p.name, version, model.server->signature());
  } else if (p.rest == ":predict") {
    require(req, "POST", reply);
    predict(model, req.body, reply, pending);
    return true;
  } else if (p.rest == ":classify" || p.rest == ":regress") {
    require(req, "POST", reply);
    throw HttpError(400, p.rest.substr(1) + " is not served: keras-cpp serve answers :predict " +
                             "only (classify and regress take tf.Example protos)");
  } else {
    throw HttpError(404, "unknown path " + path + ": the model's endpoints are /v1/models/" +
                             p.name + ", /v1/models/" + p.name + "/metadata and /v1/models/" +
                             p.name + ":predict");
  }
  return false;
}

void RequestHandler::predict(const ServedModel& model, const std::string& body, HttpReply& reply,
                             const std::shared_ptr<PendingReply>& pending) {
  std::shared_ptr<ModelServer> server = model.server;
  // While this request is parsed, the worker may wait for it to join the batch it forms.
  std::optional<ModelServer::Arriving> arriving(std::in_place, *server);
  PredictRequest request = parse_predict_request(body, server->signature());
  const std::chrono::milliseconds timeout = options_.request_timeout;
  try {
    server->submit(std::move(request.inputs), pending->deadline(),
                   [pending, server, format = request.format, timeout](
                       std::vector<HostArray> outputs, std::exception_ptr error) {
                     pending->answer(predict_reply(std::move(outputs), error, format,
                                                   server->signature(), timeout));
                   });
  } catch (const QueueFullError& e) {
    reply.headers.emplace_back("Retry-After", "1");
    throw HttpError(503, e.what());
  } catch (const ShuttingDownError& e) {
    reply.headers.emplace_back("Retry-After", "1");
    throw HttpError(503, e.what());
  }
}

}  // namespace keras::serving
