// text_dataset_from_directory (keras/src/utils/text_dataset_utils.py) for keras-cpp.

#include "keras/utils/text_dataset.h"

#include <fstream>
#include <tuple>
#include <sstream>

#include "keras/core/errors.h"
#include "utils/image/index_directory.h"

namespace keras::utils {
namespace {

const std::vector<std::string> kTextFormats = {".txt"};

struct TextChecked {
  ImageLabels labels;
  std::optional<std::string> label_mode;
  uint64_t seed = 0;
};

// The argument checks of text_dataset_from_directory and check_validation_split_arg.
TextChecked check_options(const TextDatasetOptions& o) {
  TextChecked c{o.labels, o.label_mode, 0};
  if (!std::holds_alternative<std::string>(o.labels))
    check(!o.class_names || std::holds_alternative<std::monostate>(o.labels),
          "You can only pass `class_names` if `labels=\"inferred\"`.");
  if (const auto* s = std::get_if<std::string>(&o.labels))
    check(*s == "inferred", "`labels` argument should be a list of integer labels, of the same "
          "size as the number of text files in the target directory, \"inferred\", or None "
          "(std::monostate). Received: labels=", *s);
  std::tie(c.labels, c.label_mode) = detail::checked_labels(o.labels, o.label_mode);
  check(!o.batch_size || *o.batch_size >= 1, "batch_size must be positive; got ",
        o.batch_size.value_or(0));
  check(!o.max_length || *o.max_length >= 0, "max_length must be >= 0; got ",
        o.max_length.value_or(0));
  c.seed = detail::checked_split_and_seed(o.validation_split, o.subset, o.shuffle, o.seed);
  return c;
}

std::string read_text(const std::string& path, std::optional<int64_t> max_length) {
  std::ifstream in(path, std::ios::binary);
  check<IOError>(static_cast<bool>(in), "text_dataset_from_directory: cannot open ", path, ".");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  check<IOError>(!in.bad(), "text_dataset_from_directory: cannot read ", path, ".");
  std::string text = bytes.str();
  if (max_length && static_cast<int64_t>(text.size()) > *max_length)
    text.resize(static_cast<size_t>(*max_length));
  return text;
}

TextDataset make(const detail::IndexedFiles& files, const TextDatasetOptions& o,
                 const TextChecked& c, bool shuffle) {
  TextDataset d;
  std::vector<std::string> texts;
  for (const std::string& path : files.file_paths) texts.push_back(read_text(path, o.max_length));
  d.texts = StringTensor(std::move(texts));
  if (c.label_mode)
    d.labels = detail::label_tensor(files.labels, *c.label_mode,
                            static_cast<int64_t>(files.class_names->size()));
  d.class_names = files.class_names;
  d.file_paths = files.file_paths;
  d.batch_size = o.batch_size;
  d.shuffle = shuffle;
  d.seed = c.seed;
  return d;
}

const detail::DatasetFiles kTextFiles = {kTextFormats, "text files", ". Allowed format: .txt"};

}  // namespace

data::Dataset TextDataset::map_texts(const std::function<Tensor(const StringTensor&)>& fn) const {
  Tensor x = fn(texts);
  check(x.ndim() >= 1 && x.shape()[0] == texts.size(), "TextDataset::map_texts: the function "
        "must return one row per document (", texts.size(), " documents); it returned shape ",
        x.shape().to_string(), ".");
  data::Dataset ds = labels.defined() ? data::Dataset::from_tensor_slices(x, labels)
                                      : data::Dataset::from_tensor_slices(x);
  if (shuffle) ds = ds.shuffle(batch_size ? *batch_size * 8 : 1024, seed);
  if (batch_size) ds = ds.batch(*batch_size);
  return ds.prefetch(data::AUTOTUNE);
}

data::Dataset TextDataset::dataset() const {
  return map_texts([](const StringTensor& documents) { return Tensor(documents); });
}

TextDataset text_dataset_from_directory(const std::string& directory,
                                        const TextDatasetOptions& options) {
  check(options.subset != "both",
        "subset=\"both\" returns two datasets: call text_dataset_from_directory_split");
  const TextChecked c = check_options(options);
  const detail::IndexedFiles files = detail::dataset_files(
      directory, kTextFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split, options.subset);
  return make(files, options, c, options.shuffle);
}

std::pair<TextDataset, TextDataset> text_dataset_from_directory_split(
    const std::string& directory, TextDatasetOptions options) {
  if (!options.subset) options.subset = "both";
  check(options.subset == "both", "text_dataset_from_directory_split is subset=\"both\"; got \"",
        *options.subset, "\"");
  const TextChecked c = check_options(options);
  auto [train, val] = detail::dataset_files_both(
      directory, kTextFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split);
  // Keras shuffles only the training dataset's elements.
  return {make(train, options, c, options.shuffle), make(val, options, c, false)};
}

}  // namespace keras::utils
