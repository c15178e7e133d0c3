#include "layers/preprocessing/lookup_layer_utils.h"

#include <fstream>
#include <sstream>

#include "keras/core/errors.h"

namespace keras::layers::detail {

std::optional<std::array<int64_t, 2>> salt_from_config(const Config& c,
                                                       const std::string& layer) {
  if (c.is_null()) return std::nullopt;
  if (c.is_number_integer()) return std::array<int64_t, 2>{c.get<int64_t>(), c.get<int64_t>()};
  check(c.is_array() && c.size() == 2 && c[0].is_number_integer() && c[1].is_number_integer(),
        "The `salt` argument for `", layer, "` can only be a tuple of 2 integers, or a single "
        "integer. Received: salt=", c.dump(), ".");
  return std::array<int64_t, 2>{c[0].get<int64_t>(), c[1].get<int64_t>()};
}

IndexLookupArgs lookup_args_from_config(const Config& c, const std::string& layer) {
  IndexLookupArgs a;
  auto opt_int = [&](const char* key) -> std::optional<int64_t> {
    if (!c.contains(key) || c[key].is_null()) return std::nullopt;
    return c[key].get<int64_t>();
  };
  a.max_tokens = opt_int("max_tokens");
  a.num_oov_indices = c.value("num_oov_indices", int64_t{1});
  a.invert = c.value("invert", false);
  a.output_mode = c.value("output_mode", std::string("int"));
  a.pad_to_max_tokens = c.value("pad_to_max_tokens", false);
  a.sparse = c.value("sparse", false);
  a.oov_method = c.value("oov_method", std::string("floormod"));
  a.salt = salt_from_config(c.value("salt", Config()), layer);
  a.vocabulary_size = opt_int("vocabulary_size");
  return a;
}

std::string vocabulary_text(const std::vector<std::string>& tokens) {
  std::string out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i) out += '\n';
    out += tokens[i];
  }
  return out;
}

std::vector<std::string> vocabulary_lines(const std::string& text) {
  // str.splitlines for the line ends a vocabulary file has: "\n", "\r\n" and "\r".
  std::vector<std::string> lines;
  std::string line;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n' || ch == '\r') {
      lines.push_back(line);
      line.clear();
      if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      line += ch;
    }
  }
  if (!line.empty()) lines.push_back(line);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::vector<std::string> read_vocabulary_file(const std::string& path, const std::string& layer) {
  std::ifstream in(path, std::ios::binary);
  check(static_cast<bool>(in), "Vocabulary file ", path, " does not exist (", layer, ").");
  std::ostringstream text;
  text << in.rdbuf();
  check<IOError>(!in.bad(), layer, ": cannot read the vocabulary file ", path, ".");
  return vocabulary_lines(text.str());
}

void refuse_vocabulary_path(const Config& vocabulary, const std::string& layer) {
  check(!vocabulary.is_string(),
        "Requested the loading of a vocabulary file outside of the model archive (", layer,
        ": vocabulary='", vocabulary.is_string() ? vocabulary.get<std::string>() : "",
        "'). This carries a potential risk of loading arbitrary and sensitive files and thus "
        "it is disallowed, as in Keras's safe mode. Build the layer with "
        "vocabulary_path set in C++ instead.");
}

std::vector<std::vector<int64_t>> integer_documents(const Tensor& batch, bool as_array) {
  Tensor x = batch;
  check(is_integer(x.dtype()), "Lookup layers adapt on integer tokens; got dtype ",
        x.dtype(), ". Cast the data to an integer dtype first.");
  std::vector<int64_t> values = x.to_vector<int64_t>();
  std::vector<std::vector<int64_t>> docs;
  if (x.ndim() == 0) return {values};
  if (x.ndim() == 1) {
    if (!as_array) return {values};
    for (int64_t v : values) docs.push_back({v});
    return docs;
  }
  const int64_t rows = x.shape()[0];
  const int64_t per_row = rows == 0 ? 0 : x.size() / rows;
  for (int64_t r = 0; r < rows; ++r)
    docs.emplace_back(values.begin() + r * per_row, values.begin() + (r + 1) * per_row);
  return docs;
}

}  // namespace keras::layers::detail
