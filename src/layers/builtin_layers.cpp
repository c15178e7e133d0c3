// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/core/dense.h"
#include "keras/layers/normalization/batch_normalization.h"
#include "keras/layers/normalization/group_normalization.h"
#include "keras/layers/normalization/layer_normalization.h"
#include "keras/layers/normalization/rms_normalization.h"
#include "keras/layers/normalization/unit_normalization.h"
#include "keras/layers/regularization/activity_regularization.h"
#include "keras/layers/regularization/alpha_dropout.h"
#include "keras/layers/regularization/dropout.h"
#include "keras/layers/regularization/gaussian_dropout.h"
#include "keras/layers/regularization/gaussian_noise.h"
#include "keras/layers/regularization/spatial_dropout.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"ActivityRegularization", ActivityRegularizationLayer::from_config},
      {"AlphaDropout", AlphaDropoutLayer::from_config},
      {"BatchNormalization", BatchNormalizationLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"Dropout", DropoutLayer::from_config},
      {"GaussianDropout", GaussianDropoutLayer::from_config},
      {"GaussianNoise", GaussianNoiseLayer::from_config},
      {"GroupNormalization", GroupNormalizationLayer::from_config},
      {"LayerNormalization", LayerNormalizationLayer::from_config},
      {"RMSNormalization", RMSNormalizationLayer::from_config},
      {"SpatialDropout1D", SpatialDropout1DLayer::from_config},
      {"SpatialDropout2D", SpatialDropout2DLayer::from_config},
      {"SpatialDropout3D", SpatialDropout3DLayer::from_config},
      {"UnitNormalization", UnitNormalizationLayer::from_config},
  };
}

}  // namespace keras::layers::detail
