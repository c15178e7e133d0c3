#pragma once
// UTF-8 <-> code points for the string tensors' readers and text layers. Invalid UTF-8 is a
// ValueError naming where it came from (TensorFlow's string ops refuse it the same way).

#include <string>
#include <string_view>

namespace keras::detail {

/// The code points of `text`; ValueError naming `source` and the byte offset when invalid.
std::u32string decode_utf8(std::string_view text, const std::string& source);
/// Appends the UTF-8 encoding of `code_point` (at most U+10FFFF) to `out`.
void append_utf8(std::string& out, char32_t code_point);
/// The UTF-8 text of `code_points`.
std::string encode_utf8(std::u32string_view code_points);

}  // namespace keras::detail
