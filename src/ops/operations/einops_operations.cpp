// The op class of keras.src.ops.einops: Rearrange, as Keras records it in a Functional graph
// (args: the tensor and the pattern; kwargs: the axes' lengths, named by the pattern's axes).

#include <regex>

#include "keras/ops/einops.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {

void add_einops_operations(OperationTable& t) {
  t.push_back(one_output("Rearrange", "keras.src.ops.einops", [](const OperationCall& c) {
    const std::string pattern = c.string("pattern", "", 1);
    // The lengths are keyword arguments named after the axes: look each axis up.
    std::map<std::string, int64_t> lengths;
    const std::regex axis(R"(\w+)");
    for (auto it = std::sregex_iterator(pattern.begin(), pattern.end(), axis);
         it != std::sregex_iterator(); ++it)
      if (auto length = c.optional_integer(it->str())) lengths[it->str()] = *length;
    return rearrange(c.tensor(0), pattern, lengths);
  }));
}

}  // namespace keras::ops::detail
