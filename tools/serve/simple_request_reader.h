#pragma once
// The predict request most clients send, read without building a JSON document: a model with
// one float input, {"instances": nested numbers} or {"inputs": nested numbers} (optionally with
// "signature_name": "serving_default"). It scans the text once and writes each number straight
// into the input array: the document reader (parse_predict_document) allocates a node per
// number and parses it twice, most of a small model's serving time (bench/serve.sh). Anything
// else, or anything wrong, is left to the document reader, which explains errors; both give
// the same bits (tests/serving/simple_request_reader_test.cpp, and the request fuzzer compares
// them on every input).

#include <optional>
#include <string_view>

#include "serve/rest_api.h"

namespace keras::serving {

/// The request when it has the simple form and fits `signature`; nullopt otherwise.
std::optional<PredictRequest> read_simple_predict_request(std::string_view body,
                                                          const Signature& signature);

}  // namespace keras::serving
