#include "layers/preprocessing/text_ops.h"

#include <cstring>

#include "tensor/utf8.h"

namespace keras::layers::detail {

std::string ascii_lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

std::string strip_punctuation(const std::string& text) {
  // r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']' : every ASCII punctuation character.
  static constexpr char kPunctuation[] = "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'";
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    if (c == '\0' || std::strchr(kPunctuation, c) == nullptr) out += c;
  return out;
}

std::vector<std::string> split_whitespace(const std::string& text) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  };
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && space(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !space(text[i])) ++i;
    if (i > start) tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

std::vector<std::string> split_characters(const std::string& text) {
  std::vector<std::string> tokens;
  for (char32_t cp : keras::detail::decode_utf8(text, "TextVectorization's character split")) {
    std::string one;
    keras::detail::append_utf8(one, cp);
    tokens.push_back(std::move(one));
  }
  return tokens;
}

std::vector<std::string> ngrams(const std::vector<std::string>& tokens,
                                const std::vector<int64_t>& widths) {
  std::vector<std::string> out;
  const auto n = static_cast<int64_t>(tokens.size());
  for (int64_t width : widths)
    for (int64_t start = 0; start + width <= n; ++start) {
      std::string gram = tokens[static_cast<size_t>(start)];
      for (int64_t k = 1; k < width; ++k) gram += " " + tokens[static_cast<size_t>(start + k)];
      out.push_back(std::move(gram));
    }
  return out;
}

}  // namespace keras::layers::detail
