#pragma once
// The body of the request-handler fuzz target (serve_request_fuzzer), shared with its corpus
// replay test (tests/serving, built with g++): arbitrary bytes become one HTTP request to
// keras-cpp serve's RequestHandler, which serves three small models ("small": (None, 4) floats,
// "multi": a float and an int32 input into an Embedding with two outputs, "image":
// (None, 6, 6, 2) through Conv2D).

#include <cstddef>
#include <cstdint>

namespace keras::fuzz {

/// Input format: the first line is "METHOD PATH" (for example "POST /v1/models/small:predict"),
/// the rest is the body. Returns when the reply keeps the rules: a status of 200, 400, 404,
/// 405, 503 or 504, a JSON body (NaN and Infinity allowed as TF Serving writes them) holding
/// "error" when the status is not 200. A 500, a broken body, an exception out of the handler,
/// a crash or a sanitizer report is a bug (std::logic_error here; libFuzzer aborts on it).
void serve_request_one_input(const uint8_t* data, size_t size);

}  // namespace keras::fuzz
