#pragma once
// Base64 (RFC 4648, standard alphabet, '=' padding) for TF Serving's binary strings: a string
// input may arrive as {"b64": "..."} and an output named "..._bytes" leaves in that form.

#include <optional>
#include <string>
#include <string_view>

namespace keras::serving {

/// The bytes `text` encodes; nullopt when it is not canonical padded base64.
std::optional<std::string> base64_decode(std::string_view text);

/// The padded base64 text of `bytes`.
std::string base64_encode(std::string_view bytes);

}  // namespace keras::serving
