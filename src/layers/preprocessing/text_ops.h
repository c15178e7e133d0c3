#pragma once
// The string operations TextVectorization applies, as TensorFlow defines them for it:
// tf.strings.lower (ASCII letters only, its default encoding), the punctuation regex Keras
// strips, tf.strings.split (ASCII whitespace runs), tf.strings.unicode_split and
// tf.strings.ngrams; and the custom standardize and split functions registered by name.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/preprocessing/text_vectorization.h"

namespace keras::layers::detail {

/// The function registered as `name` ("package>name"); nullopt when none is.
std::optional<StandardizeFunction> find_standardize_function(const std::string& name);
std::optional<SplitFunction> find_split_function(const std::string& name);

/// A-Z to a-z; other bytes (UTF-8 included) unchanged.
std::string ascii_lower(std::string text);
/// Without the characters of Keras's DEFAULT_STRIP_REGEX (ASCII punctuation).
std::string strip_punctuation(const std::string& text);
/// Tokens between runs of ASCII whitespace (space, \t, \n, \v, \f, \r).
std::vector<std::string> split_whitespace(const std::string& text);
/// One token per Unicode code point (UTF-8); ValueError for invalid UTF-8.
std::vector<std::string> split_characters(const std::string& text);
/// tf.strings.ngrams(tokens, widths, separator=" "): for each width in order, every run of
/// that many consecutive tokens joined by spaces (none when the row is shorter).
std::vector<std::string> ngrams(const std::vector<std::string>& tokens,
                                const std::vector<int64_t>& widths);

}  // namespace keras::layers::detail
