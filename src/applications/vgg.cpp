// Facts from keras/src/applications/vgg16.py and vgg19.py.

#include "keras/applications/vgg.h"

#include "application_builder.h"
#include "keras/layers/layers.h"

namespace keras::applications {
namespace {

namespace layers = keras::layers;

// convs[b]: the 3x3 convolutions of block b + 1 (VGG16: 2, 2, 3, 3, 3; VGG19: 2, 2, 4, 4, 4).
ModelPtr<FunctionalModel> build_vgg(const ApplicationOptions& options,
                                    const std::array<int, 5>& convs, const std::string& name) {
  const detail::Architecture arch{
      .default_name = name,
      .weights_file_top = name + "_weights_tf_dim_ordering_tf_kernels.h5",
      .weights_file_notop = name + "_weights_tf_dim_ordering_tf_kernels_notop.h5"};
  auto image = detail::image_input(options, arch);
  const std::array<int64_t, 5> filters{64, 128, 256, 512, 512};
  KerasTensor x = image;
  for (int b = 0; b < 5; ++b) {
    const std::string block = "block" + std::to_string(b + 1);
    for (int c = 1; c <= convs[b]; ++c) {
      x = layers::Conv2D(filters[b], 3, {.padding = "same", .activation = "relu",
                                         .name = block + "_conv" + std::to_string(c)})(x);
    }
    x = layers::MaxPooling2D(2, {.strides = 2, .name = block + "_pool"})(x);
  }
  if (options.include_top) {
    x = layers::Flatten({.name = "flatten"})(x);
    x = layers::Dense(4096, {.activation = "relu", .name = "fc1"})(x);
    x = layers::Dense(4096, {.activation = "relu", .name = "fc2"})(x);
    x = layers::Dense(options.classes, {.activation = options.classifier_activation,
                                        .name = "predictions"})(x);
  } else {
    x = detail::pooling_head(x, options, "", "");
  }
  return detail::finish(image, x, options, arch);
}

}  // namespace

ModelPtr<FunctionalModel> VGG16(const ApplicationOptions& o) {
  return build_vgg(o, {2, 2, 3, 3, 3}, "vgg16");
}
ModelPtr<FunctionalModel> VGG19(const ApplicationOptions& o) {
  return build_vgg(o, {2, 2, 4, 4, 4}, "vgg19");
}

namespace vgg16 {
Tensor preprocess_input(const Tensor& x, const std::string& data_format) {
  return imagenet_utils::preprocess_input(x, data_format, "caffe");
}
}  // namespace vgg16

}  // namespace keras::applications
