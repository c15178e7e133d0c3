#include "layers/preprocessing/text_ops.h"

#include <cstring>
#include <map>
#include <mutex>

#include "keras/core/errors.h"
#include "tensor/utf8.h"

namespace keras::layers {
namespace {

// The registered functions by "package>name" (registration usually happens before any layer
// exists, but layers on several threads may look them up while another registers).
template <typename Fn>
struct FunctionRegistry {
  std::mutex mutex;
  std::map<std::string, Fn> functions;

  void add(const char* kind, const std::string& package, const std::string& name, Fn fn) {
    check(!package.empty() && !name.empty() && package.find('>') == std::string::npos &&
              name.find('>') == std::string::npos,
          "register_", kind, "_function: package and name must be non-empty, without '>'; got "
          "package \"", package, "\", name \"", name, "\".");
    check(static_cast<bool>(fn), "register_", kind, "_function: the function is empty.");
    std::lock_guard<std::mutex> lock(mutex);
    check(functions.emplace(package + ">" + name, std::move(fn)).second, "register_", kind,
          "_function: '", package, ">", name, "' is registered already.");
  }
  std::optional<Fn> find(const std::string& registered_name) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = functions.find(registered_name);
    if (it == functions.end()) return std::nullopt;
    return it->second;
  }
};

FunctionRegistry<StandardizeFunction>& standardize_functions() {
  static auto* r = new FunctionRegistry<StandardizeFunction>();
  return *r;
}
FunctionRegistry<SplitFunction>& split_functions() {
  static auto* r = new FunctionRegistry<SplitFunction>();
  return *r;
}

}  // namespace

void register_standardize_function(const std::string& package, const std::string& name,
                                   StandardizeFunction fn) {
  standardize_functions().add("standardize", package, name, std::move(fn));
}
void register_split_function(const std::string& package, const std::string& name,
                             SplitFunction fn) {
  split_functions().add("split", package, name, std::move(fn));
}

}  // namespace keras::layers

namespace keras::layers::detail {

std::optional<StandardizeFunction> find_standardize_function(const std::string& name) {
  return standardize_functions().find(name);
}
std::optional<SplitFunction> find_split_function(const std::string& name) {
  return split_functions().find(name);
}

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
