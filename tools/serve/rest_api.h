#pragma once
// TensorFlow Serving's REST API bodies, without the HTTP: predict requests in the row
// ("instances") and columnar ("inputs") formats read into host arrays checked against the
// signature, and the predict, model status, metadata and error responses written as JSON.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "serve/model_server.h"

namespace keras::serving {

/// A request the server refuses: the HTTP status and the message of {"error": ...}.
class HttpError : public std::runtime_error {
 public:
  HttpError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// Row ("instances" -> "predictions") or columnar ("inputs" -> "outputs").
enum class PredictFormat { Row, Columnar };

/// A parsed predict request: its format and one array per model input (signature order).
struct PredictRequest {
  PredictFormat format = PredictFormat::Row;
  std::vector<HostArray> inputs;
};

/// Reads a predict request body; HttpError 400 naming what is wrong (malformed JSON, neither
/// or both of "instances" and "inputs", an unknown or missing input name, ragged lists, a shape
/// or dtype that does not fit the signature, an unknown signature_name).
/// The simple form (one float input, nested numbers) goes through read_simple_predict_request,
/// everything else through parse_predict_document; both give the same bits.
PredictRequest parse_predict_request(std::string_view body, const Signature& signature);
/// parse_predict_request on a JSON document, for every request form.
PredictRequest parse_predict_document(std::string_view body, const Signature& signature);

/// The response to a predict request: {"predictions": [...]} for the row format (per row a
/// value, or an object by output name when there are several outputs), {"outputs": ...} for
/// the columnar format (the whole batch, or an object by output name).
std::string predict_response(PredictFormat format, const std::vector<HostArray>& outputs,
                             const Signature& signature);

/// GET /v1/models/NAME[/versions/V]: GetModelStatusResponse, each version AVAILABLE.
std::string model_status_response(const std::vector<int64_t>& versions);
/// GET /v1/models/NAME/metadata: GetModelMetadataResponse with the "serving_default"
/// signature (TF dtype names, shapes with -1 for the batch).
std::string model_metadata_response(const std::string& name, const std::string& version,
                                    const Signature& signature);
/// {"error": message}.
std::string error_response(const std::string& message);

/// TF's name for a dtype ("DT_FLOAT").
std::string tf_dtype_name(DType dtype);

}  // namespace keras::serving
