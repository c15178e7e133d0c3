// index_directory (keras/src/utils/dataset_utils.py) on std::filesystem.

#include "utils/image/index_directory.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>

#include "keras/core/errors.h"

namespace keras::utils::detail {
namespace fs = std::filesystem;
namespace {

// os.path.join of two parts.
std::string join(const std::string& a, const std::string& b) {
  if (a.empty() || a.back() == '/') return a + b;
  return a + "/" + b;
}

bool is_directory(const std::string& path) {
  std::error_code error;
  return fs::is_directory(path, error);  // follows symlinks, as os.path.isdir
}

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// os.walk(top, followlinks): every folder (top first) with the names of its non-folder
// entries; symlinked folders are entered only with follow_links.
void walk(const std::string& root, bool follow_links,
          std::vector<std::pair<std::string, std::vector<std::string>>>& out) {
  std::error_code error;
  fs::directory_iterator it(root, error);
  if (error) return;  // os.walk ignores folders it cannot list
  std::vector<std::string> files, folders;
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    std::error_code e;
    if (entry.is_directory(e)) {
      if (follow_links || !entry.is_symlink(e)) folders.push_back(name);
    } else {
      files.push_back(name);
    }
  }
  out.emplace_back(root, std::move(files));
  for (const std::string& folder : folders) walk(join(root, folder), follow_links, out);
}

// index_subdirectory: the files of one class folder, as paths relative to `directory`.
std::vector<std::string> index_subdirectory(const std::string& directory, const std::string& subdir,
                                            const std::vector<std::string>& formats,
                                            bool follow_links) {
  const std::string top = join(directory, subdir);
  std::vector<std::pair<std::string, std::vector<std::string>>> folders;
  walk(top, follow_links, folders);
  std::stable_sort(folders.begin(), folders.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> paths;
  for (auto& [root, files] : folders) {
    std::sort(files.begin(), files.end());
    // The folder relative to `top` ("" for top itself).
    std::string relative_root = root.size() > top.size() ? root.substr(top.size()) : "";
    while (!relative_root.empty() && relative_root.front() == '/') relative_root.erase(0, 1);
    for (const std::string& name : files) {
      const std::string lower = lowercase(name);
      const bool allowed = std::any_of(formats.begin(), formats.end(), [&](const std::string& f) {
        return lower.size() >= f.size() && lower.compare(lower.size() - f.size(), f.size(), f) == 0;
      });
      if (!allowed) continue;
      std::string relative = relative_root.empty() ? name : join(relative_root, name);
      paths.push_back(join(directory, subdir.empty() ? relative : join(subdir, relative)));
    }
  }
  return paths;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

}  // namespace

std::vector<size_t> numpy_legacy_shuffle_order(size_t n, uint32_t seed) {
  // std::mt19937's seeding is MT19937's init_genrand, which RandomState(int) uses.
  std::mt19937 generator(seed);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  for (size_t i = n > 0 ? n - 1 : 0; i >= 1; --i) {
    // random_interval(i): the smallest all-ones mask covering i, redrawn until <= i.
    uint64_t mask = i;
    for (int shift : {1, 2, 4, 8, 16, 32}) mask |= mask >> shift;
    uint64_t j = 0;
    do {
      j = static_cast<uint64_t>(generator()) & mask;
    } while (j > i);
    std::swap(order[i], order[j]);
  }
  return order;
}

IndexedFiles index_directory(const std::string& directory, const ImageLabels& labels,
                             const std::vector<std::string>& formats,
                             const std::optional<std::vector<std::string>>& class_names,
                             bool shuffle, uint64_t seed, bool follow_links, bool verbose) {
  check<IOError>(is_directory(directory), "The directory ", directory,
                 " does not exist or is not a directory");
  const bool inferred = std::holds_alternative<std::string>(labels);
  std::vector<std::string> subdirs;
  if (inferred) {
    check(std::get<std::string>(labels) == "inferred",
          "labels must be \"inferred\", None (std::monostate) or a list of integer labels; got \"",
          std::get<std::string>(labels), "\"");
    for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
      const std::string name = entry.path().filename().string();
      if (name.front() != '.' && is_directory(join(directory, name))) subdirs.push_back(name);
    }
    std::sort(subdirs.begin(), subdirs.end());
    if (class_names) {
      for (const std::string& name : *class_names)
        check(std::find(subdirs.begin(), subdirs.end(), name) != subdirs.end(),
              "The `class_names` passed did not match the names of the subdirectories of the "
              "target directory. Expected: ",
              quoted_list(subdirs),
              " (or a subset of it), but received: class_names=", quoted_list(*class_names));
      subdirs = *class_names;  // keep the order given
    }
  } else {
    check(!class_names,
          std::holds_alternative<std::monostate>(labels)
              ? "When `labels=None` (no labels), argument `class_names` cannot be "
                "specified."
              : "When argument `labels` is specified, argument `class_names` cannot "
                "be specified (the `class_names` will be the sorted list of labels).");
    subdirs = {""};
  }

  IndexedFiles result;
  for (size_t c = 0; c < subdirs.size(); ++c) {
    for (std::string& path : index_subdirectory(directory, subdirs[c], formats, follow_links)) {
      result.file_paths.push_back(std::move(path));
      if (inferred) result.labels.push_back(static_cast<int64_t>(c));
    }
  }
  if (inferred) {
    result.has_labels = true;
    result.class_names = subdirs;
  } else if (const auto* given = std::get_if<std::vector<int64_t>>(&labels)) {
    check(given->size() == result.file_paths.size(),
          "Expected the lengths of `labels` to match the number of files in the target "
          "directory. len(labels) is ",
          given->size(), " while we found ", result.file_paths.size(), " files in directory ",
          directory, ".");
    result.has_labels = true;
    result.labels = *given;
    std::set<int64_t> distinct(given->begin(), given->end());
    result.class_names.emplace();
    for (int64_t v : distinct) result.class_names->push_back(std::to_string(v));
  }
  if (verbose) {
    if (result.has_labels)
      std::cout << "Found " << result.file_paths.size() << " files belonging to "
                << result.class_names->size() << " classes.\n";
    else
      std::cout << "Found " << result.file_paths.size() << " files.\n";
  }
  if (shuffle) {
    // Keras shuffles the paths and the labels with two RandomState(seed): one permutation.
    const auto order =
        numpy_legacy_shuffle_order(result.file_paths.size(), static_cast<uint32_t>(seed));
    IndexedFiles shuffled = result;
    for (size_t i = 0; i < order.size(); ++i) {
      shuffled.file_paths[i] = result.file_paths[order[i]];
      if (result.has_labels) shuffled.labels[i] = result.labels[order[i]];
    }
    return shuffled;
  }
  return result;
}

IndexedFiles training_or_validation_split(const IndexedFiles& files,
                                          std::optional<double> validation_split,
                                          const std::string& subset, bool verbose) {
  if (!validation_split || *validation_split == 0) return files;
  const auto n = static_cast<int64_t>(files.file_paths.size());
  const auto num_val = static_cast<int64_t>(*validation_split * static_cast<double>(n));
  // Python's samples[:-k] and samples[-k:]: with k == 0 the first is empty, the second all.
  int64_t begin = 0, end = n;
  if (subset == "training") {
    end = num_val == 0 ? 0 : n - num_val;
    if (verbose) std::cout << "Using " << n - num_val << " files for training.\n";
  } else if (subset == "validation") {
    begin = num_val == 0 ? 0 : n - num_val;
    if (verbose) std::cout << "Using " << num_val << " files for validation.\n";
  } else {
    throw ValueError("`subset` must be either \"training\" or \"validation\", received: " + subset);
  }
  IndexedFiles part = files;
  part.file_paths.assign(files.file_paths.begin() + begin, files.file_paths.begin() + end);
  if (files.has_labels)
    part.labels.assign(files.labels.begin() + begin, files.labels.begin() + end);
  return part;
}

Tensor label_tensor(const std::vector<int64_t>& labels, const std::string& mode,
                    int64_t num_classes) {
  const auto n = static_cast<int64_t>(labels.size());
  if (mode == "int") {
    std::vector<int32_t> ids(labels.begin(), labels.end());
    return Tensor::from_vector(ids, {n});
  }
  if (mode == "binary") {
    std::vector<float> values(labels.begin(), labels.end());
    return Tensor::from_vector(values, {n, 1});
  }
  std::vector<float> one_hot(static_cast<size_t>(n * num_classes), 0.0f);
  for (int64_t i = 0; i < n; ++i)
    if (labels[i] >= 0 && labels[i] < num_classes) one_hot[i * num_classes + labels[i]] = 1.0f;
  return Tensor::from_vector(one_hot, {n, num_classes});
}

std::pair<ImageLabels, std::optional<std::string>> checked_labels(
    const ImageLabels& labels, const std::optional<std::string>& label_mode) {
  check(!label_mode || *label_mode == "int" || *label_mode == "categorical" ||
            *label_mode == "binary",
        "`label_mode` argument must be one of \"int\", \"categorical\", \"binary\", or None "
        "(std::nullopt). Received: label_mode=", label_mode.value_or("None"));
  if (std::holds_alternative<std::monostate>(labels) || !label_mode)
    return {std::monostate{}, std::nullopt};
  return {labels, label_mode};
}

uint64_t checked_split_and_seed(std::optional<double> validation_split,
                                const std::optional<std::string>& subset, bool shuffle,
                                std::optional<uint64_t> seed) {
  const double split = validation_split.value_or(0);
  check(split == 0 || (split > 0 && split < 1),
        "`validation_split` must be between 0 and 1, received: ", split);
  check((split != 0) == subset.has_value(),
        "If `subset` is set, `validation_split` must be set, and inversely.");
  check(!subset || *subset == "training" || *subset == "validation" || *subset == "both",
        "`subset` must be either \"training\", \"validation\" or \"both\", received: ",
        subset.value_or(""));
  check(!(split != 0 && shuffle && !seed),
        "If using `validation_split` and shuffling the data, you must provide a `seed` argument, "
        "to make sure that there is no overlap between the training and validation subset.");
  return seed ? *seed : std::random_device{}() % 1000000;  // numpy.random.randint(1e6)
}

namespace {

IndexedFiles index_checked(const std::string& directory, const DatasetFiles& what,
                           const ImageLabels& labels, const std::optional<std::string>& label_mode,
                           const std::optional<std::vector<std::string>>& class_names,
                           bool shuffle, uint64_t seed, bool follow_links, bool verbose) {
  IndexedFiles files = index_directory(directory, labels, what.formats, class_names, shuffle,
                                       seed, follow_links, verbose);
  check(label_mode != "binary" || files.class_names->size() == 2,
        "When passing `label_mode=\"binary\"`, there must be exactly 2 class_names. Received: ",
        files.class_names ? files.class_names->size() : 0, " classes");
  return files;
}

IndexedFiles non_empty(IndexedFiles files, const DatasetFiles& what, const std::string& subset,
                       const std::string& directory) {
  check(!files.file_paths.empty(), "No ", subset, subset.empty() ? "" : " ", what.kind,
        " found in directory ", directory, what.allowed);
  return files;
}

}  // namespace

IndexedFiles dataset_files(const std::string& directory, const DatasetFiles& what,
                           const ImageLabels& labels, const std::optional<std::string>& label_mode,
                           const std::optional<std::vector<std::string>>& class_names,
                           bool shuffle, uint64_t seed, bool follow_links, bool verbose,
                           std::optional<double> validation_split,
                           const std::optional<std::string>& subset) {
  return non_empty(training_or_validation_split(
                       index_checked(directory, what, labels, label_mode, class_names, shuffle,
                                     seed, follow_links, verbose),
                       validation_split, subset.value_or(""), verbose),
                   what, "", directory);
}

std::pair<IndexedFiles, IndexedFiles> dataset_files_both(
    const std::string& directory, const DatasetFiles& what, const ImageLabels& labels,
    const std::optional<std::string>& label_mode,
    const std::optional<std::vector<std::string>>& class_names, bool shuffle, uint64_t seed,
    bool follow_links, bool verbose, std::optional<double> validation_split) {
  const IndexedFiles all = index_checked(directory, what, labels, label_mode, class_names,
                                         shuffle, seed, follow_links, verbose);
  IndexedFiles train = non_empty(
      training_or_validation_split(all, validation_split, "training", verbose), what,
      "training", directory);
  IndexedFiles val = non_empty(
      training_or_validation_split(all, validation_split, "validation", verbose), what,
      "validation", directory);
  return {std::move(train), std::move(val)};
}

}  // namespace keras::utils::detail
