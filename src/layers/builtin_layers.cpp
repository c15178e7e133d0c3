// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/core/dense.h"
#include "keras/layers/preprocessing/category_encoding.h"
#include "keras/layers/preprocessing/center_crop.h"
#include "keras/layers/preprocessing/discretization.h"
#include "keras/layers/preprocessing/normalization.h"
#include "keras/layers/preprocessing/random_brightness.h"
#include "keras/layers/preprocessing/random_contrast.h"
#include "keras/layers/preprocessing/random_flip.h"
#include "keras/layers/preprocessing/random_rotation.h"
#include "keras/layers/preprocessing/random_translation.h"
#include "keras/layers/preprocessing/random_zoom.h"
#include "keras/layers/preprocessing/rescaling.h"
#include "keras/layers/preprocessing/resizing.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"CategoryEncoding", CategoryEncodingLayer::from_config},
      {"CenterCrop", CenterCropLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"Discretization", DiscretizationLayer::from_config},
      {"Normalization", NormalizationLayer::from_config},
      {"RandomBrightness", RandomBrightnessLayer::from_config},
      {"RandomContrast", RandomContrastLayer::from_config},
      {"RandomFlip", RandomFlipLayer::from_config},
      {"RandomRotation", RandomRotationLayer::from_config},
      {"RandomTranslation", RandomTranslationLayer::from_config},
      {"RandomZoom", RandomZoomLayer::from_config},
      {"Rescaling", RescalingLayer::from_config},
      {"Resizing", ResizingLayer::from_config},
  };
}

}  // namespace keras::layers::detail
