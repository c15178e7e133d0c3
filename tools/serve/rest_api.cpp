#include "serve/rest_api.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "serve/base64.h"
#include "serve/simple_request_reader.h"

namespace keras::serving {
namespace {

using json = nlohmann::json;

HttpError bad_request(const std::string& message) {
  return HttpError(400, message);
}

// "(None, 28, 28, 1)" / "(28, 28, 1)".
std::string shape_text(const Shape& shape, int from = 0) {
  std::string s = "(";
  for (int i = from; i < shape.rank(); ++i) {
    if (i > from) s += ", ";
    s += shape[i] < 0 ? "None" : std::to_string(shape[i]);
  }
  if (shape.rank() - from == 1) s += ",";
  return s + ")";
}

std::string names_of(const std::vector<TensorSpec>& specs) {
  std::string s;
  for (const TensorSpec& spec : specs) s += (s.empty() ? "" : ", ") + spec.name;
  return s;
}

std::string json_type(const json& v) {
  if (v.is_string()) {
    std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
    return "the string " + (text.size() > 40 ? text.substr(0, 36) + "...\"" : text);
  }
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "null";
  if (v.is_object()) return "an object";
  if (v.is_array()) return "a list";
  return v.dump();
}

// TF Serving's binary string: {"b64": "<base64>"}.
bool is_binary_string(const json& v) {
  return v.is_object() && v.size() == 1 && v.contains("b64") && v["b64"].is_string();
}

// The shape of a nested list, following first elements (a scalar: ()).
Shape nested_shape(const json& v) {
  Shape shape;
  const json* p = &v;
  while (p->is_array()) {
    shape.push_back(static_cast<int64_t>(p->size()));
    if (p->empty()) break;
    p = &(*p)[0];
  }
  return shape;
}

// Appends the values of one input (a nested list) to a host array.
class Reader {
 public:
  Reader(const TensorSpec& spec, HostArray& out) : spec_(spec), out_(out) {
    out_.dtype = storage_dtype(spec.dtype);
  }

  // Appends `v`, which must have `shape` exactly (checked against the signature before).
  void append(const json& v, const Shape& shape, const std::string& where) {
    where_ = &where;
    path_.clear();
    walk(v, shape, 0);
  }

 private:
  std::string location() const {
    std::string s = *where_;
    for (size_t i : path_) s += "[" + std::to_string(i) + "]";
    return s;
  }

  void walk(const json& v, const Shape& shape, int depth) {
    if (depth == shape.rank()) return leaf(v);
    if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[depth])
      throw bad_request("ragged list at " + location() + ": " +
                        (v.is_array() ? std::to_string(v.size()) + " elements" : json_type(v)) +
                        " where the first element's shape " + shape_text(shape, depth) +
                        " calls for " + std::to_string(shape[depth]) + " elements");
    path_.push_back(0);
    for (const json& e : v) {
      walk(e, shape, depth + 1);
      ++path_.back();
    }
    path_.pop_back();
  }

  template <typename T>
  void put(T value) {
    const size_t at = out_.data.size();
    out_.data.resize(at + sizeof(T));
    std::memcpy(out_.data.data() + at, &value, sizeof(T));
  }

  [[noreturn]] void wrong(const json& v, const char* expected) const {
    throw bad_request("input '" + spec_.name + "' has dtype " +
                      std::string(dtype_name(spec_.dtype)) + ": expected " + expected + " at " +
                      location() + ", got " +
                      (v.is_array() ? "a list (ragged lists)" : json_type(v)));
  }

  // A string: JSON text, or TF Serving's binary form {"b64": "<base64>"}.
  void text(const json& v) {
    if (v.is_string()) return out_.strings.push_back(v.get<std::string>());
    if (is_binary_string(v)) {
      std::optional<std::string> bytes = base64_decode(v["b64"].get<std::string>());
      if (!bytes)
        throw bad_request("input '" + spec_.name + "': the \"b64\" value at " + location() +
                          " is not base64 (RFC 4648, padded)");
      return out_.strings.push_back(std::move(*bytes));
    }
    wrong(v, "a string (or {\"b64\": \"<base64>\"})");
  }

  void leaf(const json& v) {
    switch (out_.dtype) {
      case DType::String:
        return text(v);
      case DType::Float32:
        if (!v.is_number()) wrong(v, "a number");
        put(static_cast<float>(v.get<double>()));
        return;
      case DType::Float64:
        if (!v.is_number()) wrong(v, "a number");
        put(v.get<double>());
        return;
      case DType::Bool:
        if (!v.is_boolean()) wrong(v, "true or false");
        put(static_cast<uint8_t>(v.get<bool>() ? 1 : 0));
        return;
      default:
        break;
    }
    // Integers: whole numbers in the dtype's range.
    int64_t value = 0;
    if (v.is_number_integer() && !v.is_number_unsigned()) {
      value = v.get<int64_t>();
    } else if (v.is_number_unsigned()) {
      if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        wrong(v, "an integer in range");
      value = static_cast<int64_t>(v.get<uint64_t>());
    } else if (v.is_number_float()) {
      double d = v.get<double>();
      if (!(std::trunc(d) == d && std::abs(d) < 9.2e18)) wrong(v, "an integer");
      value = static_cast<int64_t>(d);
    } else {
      wrong(v, "an integer");
    }
    int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    switch (spec_.dtype) {
      case DType::Int8:
        lo = -128, hi = 127;
        break;
      case DType::Int16:
        lo = -32768, hi = 32767;
        break;
      case DType::Int32:
        lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
        break;
      case DType::UInt8:
        lo = 0, hi = 255;
        break;
      default:
        break;
    }
    if (value < lo || value > hi)
      throw bad_request("input '" + spec_.name + "' has dtype " +
                        std::string(dtype_name(spec_.dtype)) + ": " + std::to_string(value) +
                        " at " + location() + " is out of its range [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "]");
    put(value);
  }

  const TensorSpec& spec_;
  HostArray& out_;
  const std::string* where_ = nullptr;
  std::vector<size_t> path_;
};

// 400 unless `shape` (of one row when `row`, else of the whole batch) fits the input.
void check_shape(const TensorSpec& spec, const Shape& shape, bool row, const std::string& where) {
  const int offset = row ? 1 : 0;
  bool ok = shape.rank() + offset == spec.shape.rank();
  for (int i = 0; ok && i < shape.rank(); ++i) {
    int64_t want = spec.shape[i + offset];
    if (want >= 0 && shape[i] != want) ok = false;
  }
  if (ok) return;
  if (row)
    throw bad_request("input '" + spec.name + "' takes instances of shape " +
                      shape_text(spec.shape, 1) + " (the model's input shape is " +
                      shape_text(spec.shape) + "), but " + where + " has shape " +
                      shape_text(shape));
  throw bad_request("input '" + spec.name + "' takes a batch of shape " + shape_text(spec.shape) +
                    ", but " + where + " has shape " + shape_text(shape));
}

const TensorSpec* find_input(const Signature& sig, const std::string& name) {
  for (const TensorSpec& spec : sig.inputs)
    if (spec.name == name) return &spec;
  return nullptr;
}

// The inputs of an object keyed by input name: every input, no other key.
std::vector<const json*> by_name(const json& object, const Signature& sig,
                                 const std::string& where) {
  for (const auto& [key, value] : object.items())
    if (!find_input(sig, key))
      throw bad_request(where + " names an unknown input '" + key +
                        "' (the model's inputs: " + names_of(sig.inputs) + ")");
  std::vector<const json*> values;
  for (const TensorSpec& spec : sig.inputs) {
    auto it = object.find(spec.name);
    if (it == object.end())
      throw bad_request(where + " lacks input '" + spec.name +
                        "' (the model's inputs: " + names_of(sig.inputs) + ")");
    values.push_back(&*it);
  }
  return values;
}

PredictRequest read_rows(const json& instances, const Signature& sig) {
  if (!instances.is_array())
    throw bad_request("'instances' must be a list of instances, got " + json_type(instances));
  if (instances.empty()) throw bad_request("'instances' is empty: send at least one instance");
  const size_t n_inputs = sig.inputs.size();
  PredictRequest request{PredictFormat::Row, std::vector<HostArray>(n_inputs)};
  std::vector<Reader> readers;
  for (size_t k = 0; k < n_inputs; ++k) readers.emplace_back(sig.inputs[k], request.inputs[k]);
  std::vector<Shape> row_shapes(n_inputs);
  for (size_t i = 0; i < instances.size(); ++i) {
    const json& instance = instances[i];
    const std::string where = "instances[" + std::to_string(i) + "]";
    std::vector<const json*> values;
    // {"b64": ...} is one binary string (a scalar string input's instance), not a name map.
    const bool named = instance.is_object() && !(n_inputs == 1 && is_binary_string(instance) &&
                                                 sig.inputs[0].dtype == DType::String);
    if (named) {
      values = by_name(instance, sig, where);
    } else if (n_inputs == 1) {
      values = {&instance};
    } else {
      throw bad_request(where + " must be an object keyed by input name: the model has " +
                        std::to_string(n_inputs) + " inputs (" + names_of(sig.inputs) + ")");
    }
    for (size_t k = 0; k < n_inputs; ++k) {
      std::string at = named ? where + "[\"" + sig.inputs[k].name + "\"]" : where;
      Shape shape = nested_shape(*values[k]);
      if (i == 0) {
        check_shape(sig.inputs[k], shape, true, at);
        row_shapes[k] = shape;
      } else if (shape != row_shapes[k]) {
        throw bad_request("input '" + sig.inputs[k].name + "': " + at + " has shape " +
                          shape_text(shape) + " but instances[0] has " + shape_text(row_shapes[k]) +
                          " (every instance needs the same shape)");
      }
      readers[k].append(*values[k], row_shapes[k], at);
    }
  }
  for (size_t k = 0; k < n_inputs; ++k) {
    Shape shape = row_shapes[k];
    shape.insert(0, static_cast<int64_t>(instances.size()));
    request.inputs[k].shape = shape;
  }
  return request;
}

PredictRequest read_columns(const json& inputs, const Signature& sig) {
  const size_t n_inputs = sig.inputs.size();
  std::vector<const json*> values;
  if (inputs.is_object()) {
    values = by_name(inputs, sig, "'inputs'");
  } else if (n_inputs == 1) {
    values = {&inputs};
  } else {
    throw bad_request("'inputs' must be an object keyed by input name: the model has " +
                      std::to_string(n_inputs) + " inputs (" + names_of(sig.inputs) + ")");
  }
  PredictRequest request{PredictFormat::Columnar, std::vector<HostArray>(n_inputs)};
  int64_t rows = -1;
  for (size_t k = 0; k < n_inputs; ++k) {
    const TensorSpec& spec = sig.inputs[k];
    std::string where = inputs.is_object() ? "inputs[\"" + spec.name + "\"]" : "inputs";
    Shape shape = nested_shape(*values[k]);
    check_shape(spec, shape, false, where);
    if (shape[0] == 0) throw bad_request(where + " holds no rows: send at least one");
    if (rows >= 0 && shape[0] != rows)
      throw bad_request("the inputs have different batch sizes: '" + sig.inputs[0].name + "' has " +
                        std::to_string(rows) + " rows, '" + spec.name + "' has " +
                        std::to_string(shape[0]));
    rows = shape[0];
    Reader(spec, request.inputs[k]).append(*values[k], shape, where);
    request.inputs[k].shape = shape;
  }
  return request;
}

// ---- writing -------------------------------------------------------------------------------

void write_value(std::string& out, const HostArray& a, size_t i, bool base64) {
  char buf[64];
  auto finite = [&](double d, auto v) {
    if (std::isnan(d)) return out.append("NaN"), void();
    if (std::isinf(d)) return out.append(d > 0 ? "Infinity" : "-Infinity"), void();
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  };
  switch (a.dtype) {
    case DType::Float32: {
      float v;
      std::memcpy(&v, a.data.data() + i * sizeof v, sizeof v);
      return finite(v, v);
    }
    case DType::Float64: {
      double v;
      std::memcpy(&v, a.data.data() + i * sizeof v, sizeof v);
      return finite(v, v);
    }
    case DType::Bool:
      out.append(a.data[i] ? "true" : "false");
      return;
    case DType::String:
      // Text as JSON strings (bytes that are not UTF-8 become U+FFFD); an output whose name
      // ends in "_bytes" as {"b64": ...}, TF Serving's rule for binary outputs.
      if (base64) return out.append("{\"b64\":\"" + base64_encode(a.strings[i]) + "\"}"), void();
      out.append(json(a.strings[i]).dump(-1, ' ', false, json::error_handler_t::replace));
      return;
    default: {
      int64_t v;
      std::memcpy(&v, a.data.data() + i * sizeof v, sizeof v);
      auto r = std::to_chars(buf, buf + sizeof buf, v);
      out.append(buf, r.ptr);
    }
  }
}

// The elements [index, index + prod(shape[depth:])) as nested lists.
void write_nested(std::string& out, const HostArray& a, size_t& index, const Shape& shape,
                  int depth, bool base64) {
  if (depth == shape.rank()) return write_value(out, a, index++, base64);
  out += '[';
  for (int64_t i = 0; i < shape[depth]; ++i) {
    if (i) out += ',';
    write_nested(out, a, index, shape, depth + 1, base64);
  }
  out += ']';
}

// TF Serving writes a string output whose name ends in "_bytes" as base64.
bool binary_output(const TensorSpec& spec) {
  const std::string suffix = "_bytes";
  return spec.dtype == DType::String && spec.name.size() >= suffix.size() &&
         spec.name.compare(spec.name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string quoted(const std::string& s) {
  return json(s).dump();
}

}  // namespace

PredictRequest parse_predict_request(std::string_view body, const Signature& signature) {
  if (auto simple = read_simple_predict_request(body, signature)) return std::move(*simple);
  return parse_predict_document(body, signature);
}

PredictRequest parse_predict_document(std::string_view body, const Signature& signature) {
  json doc;
  try {
    doc = json::parse(body.begin(), body.end());
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e999
    std::string what = e.what();
    auto pos = what.find("] ");
    throw bad_request("malformed JSON: " +
                      (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
  if (!doc.is_object())
    throw bad_request("the request must be a JSON object with \"instances\" or \"inputs\", got " +
                      json_type(doc));
  if (auto it = doc.find("signature_name"); it != doc.end()) {
    if (!it->is_string() ||
        (it->get<std::string>() != "serving_default" && !it->get<std::string>().empty()))
      throw bad_request("signature_name " + it->dump() +
                        " is not served: the model has one signature, \"serving_default\"");
  }
  const bool rows = doc.contains("instances"), columns = doc.contains("inputs");
  if (rows && columns)
    throw bad_request(
        "the request has both \"instances\" (row format) and \"inputs\" "
        "(columnar format): send one");
  if (!rows && !columns)
    throw bad_request(
        "the request has neither \"instances\" (row format) nor \"inputs\" "
        "(columnar format)");
  return rows ? read_rows(doc["instances"], signature) : read_columns(doc["inputs"], signature);
}

std::string predict_response(PredictFormat format, const std::vector<HostArray>& outputs,
                             const Signature& signature) {
  std::string out;
  const bool named = outputs.size() > 1;
  if (format == PredictFormat::Row) {
    out = "{\"predictions\":[";
    const int64_t rows = outputs.empty() ? 0 : outputs[0].rows();
    for (int64_t r = 0; r < rows; ++r) {
      if (r) out += ',';
      if (named) out += '{';
      for (size_t k = 0; k < outputs.size(); ++k) {
        const HostArray& a = outputs[k];
        if (named) out += (k ? "," : "") + quoted(signature.outputs[k].name) + ":";
        Shape row(a.shape.begin() + 1, a.shape.end());
        size_t index = static_cast<size_t>(r) * static_cast<size_t>(row.numel());
        write_nested(out, a, index, row, 0, binary_output(signature.outputs[k]));
      }
      if (named) out += '}';
    }
    out += "]}";
  } else {
    out = "{\"outputs\":";
    if (named) out += '{';
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (named) out += (k ? "," : "") + quoted(signature.outputs[k].name) + ":";
      size_t index = 0;
      write_nested(out, outputs[k], index, outputs[k].shape, 0,
                   binary_output(signature.outputs[k]));
    }
    if (named) out += '}';
    out += '}';
  }
  return out;
}

std::string tf_dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return "DT_BOOL";
    case DType::Int8:
      return "DT_INT8";
    case DType::Int16:
      return "DT_INT16";
    case DType::Int32:
      return "DT_INT32";
    case DType::Int64:
      return "DT_INT64";
    case DType::UInt8:
      return "DT_UINT8";
    case DType::Float16:
      return "DT_HALF";
    case DType::BFloat16:
      return "DT_BFLOAT16";
    case DType::Float32:
      return "DT_FLOAT";
    case DType::Float64:
      return "DT_DOUBLE";
    case DType::Complex64:
      return "DT_COMPLEX64";
    case DType::Complex128:
      return "DT_COMPLEX128";
    case DType::String:
      return "DT_STRING";
  }
  return "DT_INVALID";
}

std::string model_status_response(const std::vector<int64_t>& versions) {
  json list = json::array();
  for (int64_t version : versions)
    list.push_back({{"version", std::to_string(version)},
                    {"state", "AVAILABLE"},
                    {"status", {{"error_code", "OK"}, {"error_message", ""}}}});
  return json{{"model_version_status", list}}.dump(1);
}

std::string model_metadata_response(const std::string& name, const std::string& version,
                                    const Signature& signature) {
  auto tensors = [](const std::vector<TensorSpec>& specs) {
    json out = json::object();
    for (const TensorSpec& spec : specs) {
      json dims = json::array();
      for (int64_t d : spec.shape) dims.push_back({{"size", std::to_string(d)}, {"name", ""}});
      out[spec.name] = {{"dtype", tf_dtype_name(spec.dtype)},
                        {"tensor_shape", {{"dim", dims}, {"unknown_rank", false}}},
                        {"name", spec.name}};
    }
    return out;
  };
  json def = {{"inputs", tensors(signature.inputs)},
              {"outputs", tensors(signature.outputs)},
              {"method_name", "tensorflow/serving/predict"}};
  json meta = {{"model_spec", {{"name", name}, {"signature_name", ""}, {"version", version}}},
               {"metadata", {{"signature_def", {{"signature_def", {{"serving_default", def}}}}}}}};
  return meta.dump(1);
}

std::string error_response(const std::string& message) {
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace keras::serving
