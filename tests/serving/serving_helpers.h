#pragma once
// What the serving tests share: small models, a registry served over HTTP on a free port, an
// HTTP client, JSON rows of tensors and float comparisons.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "keras/keras.h"
#include "serve/http_server.h"
#include "serve/model_registry.h"
#include "serve/model_server.h"
#include "serve/request_handler.h"
#include "serving_models.h"

namespace keras::serving_test {

using json = nlohmann::json;
using serving::BatchingOptions;
using serving::HttpOptions;

inline std::string model_path(const std::string& name) {
  const char* env = std::getenv("KERAS_SHARED_DIR");
  return std::string(env ? env : KERAS_SHARED_DIR) + "/models/" + name;
}

// Two inputs ("features" float32 (None, 3), "ids" int32 (None, 2)) and two outputs ("score"
// (None, 2), "prob" (None, 1)).
inline ModelPtr<Model> multi_model() {
  auto features = Input({3}, {.name = "features"});
  auto ids = Input({2}, {.dtype = int32, .name = "ids"});
  auto e = layers::Flatten()(layers::Embedding(10, 2)(ids));
  auto h = layers::concatenate({layers::Dense(4, {.activation = "relu"})(features), e});
  auto score = layers::Dense(2, {.name = "score"})(h);
  auto prob = layers::Dense(1, {.activation = "sigmoid", .name = "prob"})(h);
  return Functional({features, ids}, {score, prob});
}

// A registry, its request handler and HTTP front on 127.0.0.1, a free port: serving one
// in-memory model, or (with a loader) the files the test adds to `registry`.
struct Served {
  std::unique_ptr<serving::ModelRegistry> registry;
  std::unique_ptr<serving::RequestHandler> handler;
  std::unique_ptr<serving::HttpServer> http;
  std::shared_ptr<serving::ModelServer> model;  // the served version (in-memory model only)
  int port = 0;

  explicit Served(ModelPtr<Model> m, const std::string& name, BatchingOptions batching = {},
                  HttpOptions options = {}, serving::HandlerOptions handling = {})
      : registry(std::make_unique<serving::ModelRegistry>(std::move(batching))) {
    registry->add(name, std::move(m));
    model = registry->find(name)->server;
    start(std::move(options), handling);
  }
  Served(serving::ModelLoader loader, BatchingOptions batching,
         serving::HandlerOptions handling = {})
      : registry(std::make_unique<serving::ModelRegistry>(std::move(batching), std::move(loader))) {
    start({}, handling);
  }
  void start(HttpOptions options, serving::HandlerOptions handling) {
    handler = std::make_unique<serving::RequestHandler>(*registry, handling);
    options.host = "127.0.0.1";
    options.port = 0;
    http = std::make_unique<serving::HttpServer>(*handler, options);
    port = http->bind();
    http->start();
  }
  ~Served() {
    http->stop();
    registry->stop();
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(30);
    c.set_tcp_nodelay(true);
    return c;
  }
};

struct Reply {
  int status = -1;  // -1: no response (connection refused)
  std::string body, retry_after, allow;
  json doc() const { return json::parse(body); }
  std::string error() const { return doc().at("error").get<std::string>(); }
};

inline Reply reply_of(const httplib::Result& r) {
  Reply out;
  if (!r) return out;
  out.status = r->status;
  out.body = r->body;
  out.retry_after = r->get_header_value("Retry-After");
  out.allow = r->get_header_value("Allow");
  return out;
}

inline Reply post(const Served& s, const std::string& path, const std::string& body) {
  auto c = s.client();
  return reply_of(c.Post(path.c_str(), body, "application/json"));
}

inline Reply get(const Served& s, const std::string& path) {
  auto c = s.client();
  return reply_of(c.Get(path.c_str()));
}

// Rows of a float tensor as JSON nested lists (each float written exactly).
inline json rows_json(const Tensor& t) {
  std::vector<float> v = t.to_vector<float>();
  const int64_t rows = t.shape()[0];
  const int64_t per = rows ? static_cast<int64_t>(v.size()) / rows : 0;
  Shape row(t.shape().begin() + 1, t.shape().end());
  std::function<json(int64_t&, int)> nest = [&](int64_t& i, int depth) -> json {
    if (depth == row.rank()) return json(static_cast<double>(v[static_cast<size_t>(i++)]));
    json a = json::array();
    for (int64_t k = 0; k < row[depth]; ++k) a.push_back(nest(i, depth + 1));
    return a;
  };
  json out = json::array();
  for (int64_t r = 0; r < rows; ++r) {
    int64_t i = r * per;
    out.push_back(nest(i, 0));
  }
  return out;
}

// Every number of a JSON nested list, as float32, in row-major order.
inline void flatten_into(const json& v, std::vector<float>& out) {
  if (v.is_array()) {
    for (const json& e : v) flatten_into(e, out);
  } else {
    out.push_back(static_cast<float>(v.get<double>()));
  }
}

inline std::vector<float> flat(const json& v) {
  std::vector<float> out;
  flatten_into(v, out);
  return out;
}

// |got - want| <= 1e-5 * max(1, |want|) everywhere.
inline ::testing::AssertionResult close_to(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::abs(got[i] - want[i]) <= 1e-5f * std::max(1.0f, std::abs(want[i]))))
      return ::testing::AssertionFailure() << "value " << i << ": " << got[i] << " != " << want[i];
  return ::testing::AssertionSuccess();
}

// Bit-for-bit equality of float vectors.
inline ::testing::AssertionResult same_bits(const std::vector<float>& got,
                                     const std::vector<float>& want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " values, expected " << want.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "value " << i << ": " << got[i] << " != " << want[i];
  return ::testing::AssertionSuccess();
}

// A TCP connection to the server on 127.0.0.1 that has sent `text`; -1 when it cannot connect.
inline int raw_connection(int port, const std::string& text = "") {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  if (!text.empty() && write(fd, text.data(), text.size()) < 0) {
  }
  return fd;
}

// What the server sends on `fd` until it has sent `until` (when not empty), closes the
// connection, or sends nothing for `quiet`.
inline std::string read_raw(int fd, const std::string& until = "",
                            std::chrono::milliseconds quiet = std::chrono::seconds(10)) {
  std::string got;
  char chunk[4096];
  while (until.empty() || got.find(until) == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(quiet.count())) <= 0) break;
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) break;
    got.append(chunk, static_cast<size_t>(n));
  }
  return got;
}

inline uint64_t metric(const std::string& text, const std::string& name) {
  std::smatch m;
  std::regex re("(^|\n)" + std::regex_replace(name, std::regex(R"([{}"+.])"), R"(\$&)") +
                " ([0-9.e+]+)");
  if (!std::regex_search(text, m, re)) return 0;
  return static_cast<uint64_t>(std::stod(m[2]));
}

}  // namespace keras::serving_test
