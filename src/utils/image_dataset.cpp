// image_dataset_from_directory (keras/src/utils/image_dataset_utils.py) on keras::data.

#include "keras/utils/image_dataset.h"

#include <memory>
#include <tuple>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "utils/image/index_directory.h"
#include "utils/image/tf_image.h"

namespace keras::utils {
namespace {

const std::vector<std::string> kAllowedFormats = {".bmp", ".gif", ".jpeg", ".jpg", ".png"};
const char* kAllowedFormatsText = "('.bmp', '.gif', '.jpeg', '.jpg', '.png')";

struct ImageChecked {
  int channels = 3;
  std::optional<std::string> label_mode;
  ImageLabels labels;
  std::string data_format;
  uint64_t seed = 0;
};

// The argument checks of image_dataset_from_directory and check_validation_split_arg.
ImageChecked check_options(const ImageDatasetOptions& o) {
  ImageChecked c;
  c.labels = o.labels;
  c.label_mode = o.label_mode;
  if (!std::holds_alternative<std::string>(o.labels)) {
    check(!o.class_names || std::holds_alternative<std::monostate>(o.labels),
          "You can only pass `class_names` if `labels=\"inferred\"`.");
  }
  std::tie(c.labels, c.label_mode) = detail::checked_labels(o.labels, o.label_mode);
  if (o.color_mode == "rgb")
    c.channels = 3;
  else if (o.color_mode == "rgba")
    c.channels = 4;
  else if (o.color_mode == "grayscale")
    c.channels = 1;
  else
    throw ValueError(
        "`color_mode` must be one of {\"rgb\", \"rgba\", \"grayscale\"}. Received: "
        "color_mode=" +
        o.color_mode);
  check(o.image_size.first >= 1 && o.image_size.second >= 1,
        "Invalid `image_size` value. Expected a tuple of 2 positive integers. Received: (",
        o.image_size.first, ", ", o.image_size.second, ")");
  check(!o.batch_size || *o.batch_size >= 1, "batch_size must be positive; got ",
        o.batch_size.value_or(0));
  // tf.image.resize's bilinear, nearest, bicubic and lanczos3/5 are reproduced.
  const bool reproduced = o.interpolation == "bilinear" || o.interpolation == "nearest" ||
                          o.interpolation == "bicubic" || o.interpolation == "lanczos3" ||
                          o.interpolation == "lanczos5";
  if (!reproduced) {
    const bool keras_has_it = o.interpolation == "area" || o.interpolation == "gaussian" ||
                              o.interpolation == "mitchellcubic";
    if (keras_has_it)
      throw NotImplementedError("interpolation=\"" + o.interpolation +
                                "\" (a tf.image.resize method) is not reproduced by keras-cpp; "
                                "use \"bilinear\", \"nearest\", \"bicubic\", \"lanczos3\" or "
                                "\"lanczos5\"");
    throw ValueError(
        "Argument `interpolation` should be one of (\"bilinear\", \"nearest\", "
        "\"bicubic\", \"area\", \"lanczos3\", \"lanczos5\", \"gaussian\", "
        "\"mitchellcubic\"). Received: interpolation=" +
        o.interpolation);
  }
  check(!(o.crop_to_aspect_ratio && o.pad_to_aspect_ratio),
        "Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.");
  c.seed = detail::checked_split_and_seed(o.validation_split, o.subset, o.shuffle, o.seed);
  c.data_format = o.data_format.value_or(config::image_data_format());
  check(c.data_format == "channels_last" || c.data_format == "channels_first",
        "data_format must be \"channels_last\" or \"channels_first\"; got \"", c.data_format, "\"");
  return c;
}

// paths_and_labels_to_dataset (format="tf") plus the batching and prefetching around it.
data::Dataset paths_to_dataset(const detail::IndexedFiles& files, const ImageDatasetOptions& o,
                               const ImageChecked& c, bool shuffle) {
  const auto n = static_cast<int64_t>(files.file_paths.size());
  std::vector<int64_t> indices(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) indices[i] = i;
  Tensor index_tensor = Tensor::from_vector(indices, {n});
  data::Dataset ds =
      c.label_mode
          ? data::Dataset::from_tensor_slices(
                index_tensor, detail::label_tensor(files.labels, *c.label_mode,
                                           static_cast<int64_t>(files.class_names->size())))
          : data::Dataset::from_tensor_slices(index_tensor);
  // tf.data's shuffle with Keras's buffer; keras-cpp's own random stream (see the docs).
  if (shuffle) ds = ds.shuffle(o.batch_size ? *o.batch_size * 8 : 1024, c.seed);
  auto paths = std::make_shared<const std::vector<std::string>>(files.file_paths);
  detail::TfResize how{o.image_size, o.interpolation, o.crop_to_aspect_ratio,
                       o.pad_to_aspect_ratio};
  const int channels = c.channels;
  const bool channels_first = c.data_format == "channels_first";
  ds = ds.map(
      [paths, how, channels, channels_first](const data::Element& e) {
        const auto index = e.x.single().item<int64_t>();
        Tensor image = detail::resize_like_tensorflow(
            detail::decode_like_tensorflow((*paths)[static_cast<size_t>(index)], channels), how);
        if (channels_first) image = ops::transpose(image, {2, 0, 1}).contiguous();
        return data::Element{image, e.y, {}};
      },
      data::AUTOTUNE);
  if (o.batch_size) ds = ds.batch(*o.batch_size);
  return ds.prefetch(data::AUTOTUNE);
}

ImageDataset make(const detail::IndexedFiles& files, const ImageDatasetOptions& o,
                  const ImageChecked& c, bool shuffle) {
  return {paths_to_dataset(files, o, c, shuffle), files.class_names, files.file_paths};
}

const detail::DatasetFiles kImageFiles = {kAllowedFormats, "images",
                                          std::string(". Allowed formats: ") + kAllowedFormatsText};

}  // namespace

ImageDataset image_dataset_from_directory(const std::string& directory,
                                          const ImageDatasetOptions& options) {
  check(options.subset != "both",
        "subset=\"both\" returns two datasets: call image_dataset_from_directory_split");
  const ImageChecked c = check_options(options);
  const detail::IndexedFiles files = detail::dataset_files(
      directory, kImageFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split, options.subset);
  return make(files, options, c, options.shuffle);
}

std::pair<ImageDataset, ImageDataset> image_dataset_from_directory_split(
    const std::string& directory, ImageDatasetOptions options) {
  if (!options.subset) options.subset = "both";
  check(options.subset == "both", "image_dataset_from_directory_split is subset=\"both\"; got \"",
        *options.subset, "\"");
  const ImageChecked c = check_options(options);
  auto [train, val] = detail::dataset_files_both(
      directory, kImageFiles, c.labels, c.label_mode, options.class_names, options.shuffle, c.seed,
      options.follow_links, options.verbose, options.validation_split);
  // Keras shuffles only the training dataset's elements.
  return {make(train, options, c, options.shuffle), make(val, options, c, false)};
}

}  // namespace keras::utils
