#include "serve_request_entry.h"

#include <memory>
#include <string_view>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "keras/keras.h"
#include "serve/model_registry.h"
#include "serve/request_handler.h"
#include "serve/rest_api.h"
#include "serve/simple_request_reader.h"

namespace keras::fuzz {
namespace {

ModelPtr<Model> small_model() {
  auto x = Input({4}, {.name = "x"});
  auto h = layers::Dense(3, {.activation = "relu"})(x);
  return Functional(x, layers::Dense(2, {.name = "y"})(h));
}

ModelPtr<Model> multi_model() {
  auto features = Input({3}, {.name = "features"});
  auto ids = Input({2}, {.dtype = int32, .name = "ids"});
  auto e = layers::Flatten()(layers::Embedding(10, 2)(ids));
  auto h = layers::concatenate({layers::Dense(4, {.activation = "relu"})(features), e});
  auto score = layers::Dense(2, {.name = "score"})(h);
  auto prob = layers::Dense(1, {.activation = "sigmoid", .name = "prob"})(h);
  return Functional({features, ids}, {score, prob});
}

ModelPtr<Model> image_model() {
  auto x = Input({6, 6, 2}, {.name = "image"});
  auto h = layers::Conv2D(3, 3, {.activation = "relu"})(x);
  return Functional(x, layers::GlobalAveragePooling2D()(h));
}

// Text in, a score and the label (a string output) out.
ModelPtr<Model> text_model() {
  auto words = Input({2}, {.dtype = DType::String, .name = "words"});
  auto ids = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b", "c"}})(words);
  auto score = layers::Dense(2, {.name = "score"})(
      layers::Flatten()(layers::Embedding(4, 2)(ids)));
  auto label = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b", "c"},
                                     .invert = true,
                                     .name = "label_bytes"})(ids);
  return Functional({words}, {score, label});
}

// One registry and handler for every input: building the models per input would spend the
// fuzzer's time there. Requests never change them (predict only).
serving::RequestHandler& handler() {
  static auto* registry = [] {
    auto* r = new serving::ModelRegistry({.max_batch = 8, .batch_timeout_us = 0});
    r->add("small", small_model());
    r->add("multi", multi_model());
    r->add("image", image_model());
    r->add("text", text_model());
    return r;
  }();
  static auto* h =
      new serving::RequestHandler(*registry, {.request_timeout = std::chrono::seconds(20)});
  return *h;
}

// TF Serving writes non-finite floats as NaN / Infinity / -Infinity, which strict JSON lacks:
// each becomes null (inside strings too, which keeps them strings).
std::string finite_json(const std::string& body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size();) {
    bool replaced = false;
    for (std::string_view word : {"-Infinity", "Infinity", "NaN"})
      if (body.compare(i, word.size(), word) == 0) {
        out += "null";
        i += word.size();
        replaced = true;
        break;
      }
    if (!replaced) out += body[i++];
  }
  return out;
}

[[noreturn]] void broken(const std::string& what, const serving::HttpReply& reply) {
  throw std::logic_error(what + " (status " + std::to_string(reply.status) + "): " +
                         reply.body.substr(0, 500));
}

// Where the simple-form reader accepts a body, the document reader must accept it too and
// give the same shape and bits.
void compare_request_readers(const std::string& body, const serving::Signature& signature) {
  auto simple = serving::read_simple_predict_request(body, signature);
  if (!simple) return;
  serving::PredictRequest doc;
  try {
    doc = serving::parse_predict_document(body, signature);
  } catch (const std::exception& e) {
    throw std::logic_error(std::string("the simple reader accepted a body the document reader "
                                       "refuses: ") + e.what());
  }
  const auto& a = simple->inputs.at(0);
  const auto& b = doc.inputs.at(0);
  if (simple->format != doc.format || a.shape != b.shape || a.dtype != b.dtype || a.data != b.data)
    throw std::logic_error("the simple and document readers disagree on " + body.substr(0, 300));
}

}  // namespace

void serve_request_one_input(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const size_t line_end = text.find('\n');
  std::string line = text.substr(0, line_end);
  serving::HttpRequest request;
  request.body = line_end == std::string::npos ? "" : text.substr(line_end + 1);
  const size_t space = line.find(' ');
  request.method = line.substr(0, space);
  request.path = space == std::string::npos ? "/" : line.substr(space + 1);

  for (const char* name : {"small", "image"})
    compare_request_readers(request.body, handler().models().find(name)->server->signature());

  serving::HttpReply reply = handler().handle(request);
  switch (reply.status) {
    case 200: case 400: case 404: case 405: case 503: case 504:
      break;
    default:
      broken("an unexpected status", reply);
  }
  if (reply.content_type != "application/json") {
    if (request.path == "/metrics" && reply.status == 200) return;
    broken("a reply that is not JSON", reply);
  }
  nlohmann::json doc = nlohmann::json::parse(finite_json(reply.body), nullptr,
                                             /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) broken("a body that is not a JSON object", reply);
  if (reply.status != 200 && !(doc.contains("error") && doc["error"].is_string()))
    broken("an error without an \"error\" message", reply);
  if (reply.status == 200 && request.path.ends_with(":predict") &&
      !doc.contains("predictions") && !doc.contains("outputs"))
    broken("a predict reply without predictions or outputs", reply);
}

}  // namespace keras::fuzz
