#include "serve/http_server.h"

#include <algorithm>
#include <chrono>
#include <future>

#include <httplib.h>

#include "keras/core/errors.h"
#include "serve/rest_api.h"

namespace keras::serving {
namespace {

constexpr const char* kJson = "application/json";

void send_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_response(message), kJson);
}

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

}  // namespace

struct HttpServer::Impl {
  ModelServer& model;
  HttpOptions options;
  httplib::Server server;
  std::atomic<bool> listening{false}, stop_requested{false}, stop_sent{false}, done{false};
  // The listening socket (the last one httplib's socket options saw).
  socket_t listen_socket = -1;

  Impl(ModelServer& m, HttpOptions o) : model(m), options(std::move(o)) {}

  void dispatch(const std::string& method, const httplib::Request& req, const std::string& body,
                httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    try {
      route(method, req, body, res);
    } catch (const HttpError& e) {
      send_error(res, e.status(), e.what());
    } catch (const std::exception& e) {
      send_error(res, 500, std::string("internal error: ") + e.what());
    } catch (...) {
      send_error(res, 500, "internal error");
    }
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    model.metrics().record_latency(took.count());
  }

  std::string too_large() const {
    return "the request body is larger than the limit of " +
           std::to_string(options.max_body_bytes) + " bytes (--max-body-bytes)";
  }

  // An error found before dispatch (the body could not be read).
  void dispatch_error(httplib::Response& res, int status, const std::string& message) {
    send_error(res, status, message);
  }

  static void require(const std::string& method, const char* allowed, const httplib::Request& req,
                      httplib::Response& res) {
    if (method == allowed || (method == "HEAD" && std::string(allowed) == "GET")) return;
    res.set_header("Allow", allowed);
    throw HttpError(405,
                    "method " + method + " is not allowed on " + req.path + ": use " + allowed);
  }

  void route(const std::string& method, const httplib::Request& req, const std::string& body,
             httplib::Response& res) {
    const std::string& path = req.path;
    if (path == "/metrics") {
      require(method, "GET", req, res);
      res.set_content(model.metrics().prometheus_text(model.queue_size()),
                      "text/plain; version=0.0.4");
      return;
    }
    if (!path.starts_with("/v1/models/"))
      throw HttpError(404, "unknown path " + path + ": the endpoints are /v1/models/" +
                               options.model_name + "[:predict|/metadata] and /metrics");
    ModelPath p = split_model_path(path);
    if (p.name != options.model_name)
      throw HttpError(404, "Servable not found for request: Latest(" + p.name +
                               "): this server serves the model '" + options.model_name + "'");
    if (!p.label.empty())
      throw HttpError(404, "no version label '" + p.label + "' on model '" + p.name +
                               "': keras-cpp serve sets no labels (use /versions/" +
                               options.version + " or no version)");
    if (!p.version.empty() && p.version != options.version)
      throw HttpError(404, "Servable not found for request: Specific(" + p.name + ", " + p.version +
                               "): the model is served as version " + options.version);
    if (p.rest.empty()) {
      require(method, "GET", req, res);
      res.set_content(model_status_response(options.version), kJson);
    } else if (p.rest == "/metadata") {
      require(method, "GET", req, res);
      res.set_content(
          model_metadata_response(options.model_name, options.version, model.signature()), kJson);
    } else if (p.rest == ":predict") {
      require(method, "POST", req, res);
      predict(body, res);
    } else if (p.rest == ":classify" || p.rest == ":regress") {
      require(method, "POST", req, res);
      throw HttpError(400, p.rest.substr(1) + " is not served: keras-cpp serve answers :predict " +
                               "only (classify and regress take tf.Example protos)");
    } else {
      throw HttpError(404, "unknown path " + path + ": the model's endpoints are /v1/models/" +
                               p.name + ", /v1/models/" + p.name + "/metadata and /v1/models/" +
                               p.name + ":predict");
    }
  }

  void predict(const std::string& body, httplib::Response& res) {
    PredictRequest request = parse_predict_request(body, model.signature());
    std::future<std::vector<HostArray>> result;
    try {
      result = model.submit(std::move(request.inputs));
    } catch (const QueueFullError& e) {
      res.set_header("Retry-After", "1");
      throw HttpError(503, e.what());
    } catch (const ShuttingDownError& e) {
      res.set_header("Retry-After", "1");
      throw HttpError(503, e.what());
    }
    std::vector<HostArray> outputs;
    try {
      outputs = result.get();
    } catch (const ValueError& e) {
      throw HttpError(400, std::string("the model refused the input: ") + e.what());
    } catch (const TypeError& e) {
      throw HttpError(400, std::string("the model refused the input: ") + e.what());
    }
    res.set_content(predict_response(request.format, outputs, model.signature()), kJson);
  }
};

HttpServer::HttpServer(ModelServer& model, HttpOptions options)
    : impl_(std::make_unique<Impl>(model, std::move(options))) {
  httplib::Server& svr = impl_->server;
  Impl* impl = impl_.get();
  const int threads = impl->options.threads > 0
                          ? impl->options.threads
                          : static_cast<int>(std::max(8u, std::thread::hardware_concurrency()));
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  svr.set_payload_max_length(impl->options.max_body_bytes);
  svr.set_keep_alive_timeout(2);
  // Responses go out as headers then body: without TCP_NODELAY, Nagle's algorithm and the
  // client's delayed ACK hold each response back by tens of milliseconds.
  svr.set_tcp_nodelay(true);
  // httplib's default sets SO_REUSEPORT, which lets a second server bind a port in use and
  // share its connections; SO_REUSEADDR alone allows a restart while old connections linger.
  svr.set_socket_options([impl](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl->listen_socket = sock;
  });
  const std::string any = ".*";
  // Bodies are read through a content reader: httplib then leaves them as they are, whatever
  // the Content-Type (it would parse application/x-www-form-urlencoded, what `curl -d` sends,
  // and refuse such a body over 8 KiB).
  auto with_body = [impl](const char* method) {
    return [impl, method](const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
      std::string body;
      if (req.is_multipart_form_data()) {
        impl->dispatch_error(res, 400, "a multipart body: send the JSON request as the body");
        return;
      }
      const bool read = reader([&body](const char* data, size_t n) {
        body.append(data, n);
        return true;
      });
      if (!read) {
        if (res.status == 413)
          impl->dispatch_error(res, 413, impl->too_large());
        else
          impl->dispatch_error(res, 400, "the request body could not be read");
        return;
      }
      impl->dispatch(method, req, body, res);
    };
  };
  auto without_body = [impl](const char* method) {
    return [impl, method](const httplib::Request& req, httplib::Response& res) {
      impl->dispatch(method, req, req.body, res);
    };
  };
  svr.Get(any, without_body("GET"));
  svr.Options(any, without_body("OPTIONS"));
  svr.Post(any, httplib::Server::HandlerWithContentReader(with_body("POST")));
  svr.Put(any, httplib::Server::HandlerWithContentReader(with_body("PUT")));
  svr.Patch(any, httplib::Server::HandlerWithContentReader(with_body("PATCH")));
  svr.Delete(any, httplib::Server::HandlerWithContentReader(with_body("DELETE")));
  // Errors httplib answers itself (413, unparsable requests) get a JSON body too.
  svr.set_error_handler([impl](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = "HTTP error " + std::to_string(res.status);
    if (res.status == 413)
      message = impl->too_large();
    else if (res.status == 400)
      message = "malformed HTTP request";
    res.set_content(error_response(message), kJson);
  });
  svr.set_logger([impl](const httplib::Request&, const httplib::Response& res) {
    impl->model.metrics().record_request(res.status);
  });
}

HttpServer::~HttpServer() {
  stop();
}

int HttpServer::bind() {
  if (port_ >= 0) return port_;
  httplib::Server& svr = impl_->server;
  const HttpOptions& o = impl_->options;
  if (o.port == 0) {
    port_ = svr.bind_to_any_port(o.host);
  } else if (svr.bind_to_port(o.host, o.port)) {
    port_ = o.port;
  }
  if (port_ < 0)
    throw IOError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                  " (the port is in use, or the address is not this machine's)");
  // httplib listens with a backlog of 5: concurrent clients that connect per request then
  // overflow it, and each dropped SYN costs its client a 1 s retransmission. Linux takes a
  // second listen() as a new backlog.
  if (impl_->listen_socket >= 0) ::listen(impl_->listen_socket, SOMAXCONN);
  return port_;
}

void HttpServer::listen() {
  bind();
  impl_->listening = true;
  if (!impl_->stop_requested) impl_->server.listen_after_bind();
  impl_->done = true;
}

void HttpServer::start() {
  bind();
  impl_->listening = true;  // so that a stop() right after start() waits for the thread
  thread_ = std::thread([this] { listen(); });
}

void HttpServer::stop() {
  impl_->stop_requested = true;
  if (impl_->listening) {
    while (!impl_->done) {
      // httplib's stop() does nothing before listen() runs: wait until it does.
      if (impl_->server.is_running() && !impl_->stop_sent.exchange(true)) impl_->server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

}  // namespace keras::serving
