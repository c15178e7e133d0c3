#include "serve/request_handler.h"

#include <future>
#include <optional>

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

}  // namespace

RequestHandler::RequestHandler(ModelRegistry& models, HandlerOptions options)
    : models_(models), options_(options) {}

HttpReply RequestHandler::handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  HttpReply reply;
  auto fail = [&reply](int status, const std::string& message) {
    reply.status = status;
    reply.content_type = "application/json";
    reply.body = error_response(message);
  };
  try {
    route(request, reply);
  } catch (const HttpError& e) {
    fail(e.status(), e.what());
  } catch (const std::exception& e) {
    fail(500, std::string("internal error: ") + e.what());
  } catch (...) {
    fail(500, "internal error");
  }
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  models_.metrics().record_latency(took.count());
  return reply;
}

void RequestHandler::route(const HttpRequest& req, HttpReply& reply) {
  const std::string& path = req.path;
  if (path == "/metrics") {
    require(req, "GET", reply);
    reply.content_type = "text/plain; version=0.0.4";
    reply.body = models_.prometheus_text();
    return;
  }
  if (!path.starts_with("/v1/models/"))
    throw HttpError(404, "unknown path " + path + ": the endpoints are /v1/models/NAME" +
                             "[:predict|/metadata] (models: " + quoted_list(models_.names()) +
                             ") and /metrics");
  ModelPath p = split_model_path(path);
  std::optional<ServedModel> model = models_.find(p.name);
  if (!model)
    throw HttpError(404, "Servable not found for request: Latest(" + p.name +
                             "): this server serves " + quoted_list(models_.names()));
  const std::string version = std::to_string(model->version);
  if (!p.label.empty())
    throw HttpError(404, "no version label '" + p.label + "' on model '" + p.name +
                             "': keras-cpp serve sets no labels (use /versions/" + version +
                             " or no version)");
  if (!p.version.empty() && p.version != version)
    throw HttpError(404, "Servable not found for request: Specific(" + p.name + ", " + p.version +
                             "): the model is served as version " + version);
  if (p.rest.empty()) {
    require(req, "GET", reply);
    reply.body = model_status_response(version);
  } else if (p.rest == "/metadata") {
    require(req, "GET", reply);
    reply.body = model_metadata_response(p.name, version, model->server->signature());
  } else if (p.rest == ":predict") {
    require(req, "POST", reply);
    predict(*model, req.body, reply);
  } else if (p.rest == ":classify" || p.rest == ":regress") {
    require(req, "POST", reply);
    throw HttpError(400, p.rest.substr(1) + " is not served: keras-cpp serve answers :predict " +
                             "only (classify and regress take tf.Example protos)");
  } else {
    throw HttpError(404, "unknown path " + path + ": the model's endpoints are /v1/models/" +
                             p.name + ", /v1/models/" + p.name + "/metadata and /v1/models/" +
                             p.name + ":predict");
  }
}

void RequestHandler::predict(const ServedModel& model, const std::string& body, HttpReply& reply) {
  ModelServer& server = *model.server;
  const auto deadline = std::chrono::steady_clock::now() + options_.request_timeout;
  // While this request is parsed, the worker may wait for it to join the batch it forms.
  std::optional<ModelServer::Arriving> arriving(std::in_place, server);
  PredictRequest request = parse_predict_request(body, server.signature());
  std::future<std::vector<HostArray>> result;
  try {
    result = server.submit(std::move(request.inputs), deadline);
    arriving.reset();
  } catch (const QueueFullError& e) {
    reply.headers.emplace_back("Retry-After", "1");
    throw HttpError(503, e.what());
  } catch (const ShuttingDownError& e) {
    reply.headers.emplace_back("Retry-After", "1");
    throw HttpError(503, e.what());
  }
  const std::string late = "the model did not answer within the request timeout of " +
                           std::to_string(options_.request_timeout.count()) +
                           " ms (--request-timeout-ms)";
  if (result.wait_until(deadline) != std::future_status::ready) throw HttpError(504, late);
  std::vector<HostArray> outputs;
  try {
    outputs = result.get();
  } catch (const DeadlineExceededError&) {
    throw HttpError(504, late);
  } catch (const ValueError& e) {
    throw HttpError(400, std::string("the model refused the input: ") + e.what());
  } catch (const TypeError& e) {
    throw HttpError(400, std::string("the model refused the input: ") + e.what());
  }
  reply.body = predict_response(request.format, outputs, server.signature());
}

}  // namespace keras::serving
