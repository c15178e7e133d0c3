// Layer.get_build_config and the class names Keras records, shared by every serializer (the
// saving records of models and layers, and the sublayer records wrappers such as Bidirectional,
// TimeDistributed and RNN write inside their configs).

#include <set>

#include "keras/layers/registry.h"
#include "keras/layers/rnn/rnn.h"

namespace keras::layers {
namespace {

// Keras marks some layers built in their constructor (Layer._build_at_init, Keras 3.9+), so
// they never record a build_config. In Keras 3.15 these are the built-in classes below (the
// files Keras 3.15 writes, tests/oracle/fixtures/layer_files, show it): the activations,
// pooling, regularization, Identity, Masking and UnitNormalization layers, and Reshape (it
// sets built in its constructor). The reshaping and preprocessing layers (ZeroPadding2D, Rescaling,
// Cropping2D, ...) record their input shape, as every other layer does.
bool built_at_init(const std::string& class_name) {
  static const std::set<std::string> names = {
      "Activation", "ActivityRegularization", "AlphaDropout", "AveragePooling1D",
      "AveragePooling2D", "AveragePooling3D", "Dropout", "ELU", "GaussianDropout",
      "GaussianNoise", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
      "GlobalAveragePooling3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
      "Identity", "LeakyReLU", "Masking", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "ReLU",
      "Reshape", "Softmax", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D",
      "UnitNormalization"};
  return names.count(class_name) > 0;
}

// Layers whose build() takes (query_shape, value_shape, key_shape=None).
bool builds_from_query_value_key(const std::string& class_name) {
  return class_name == "MultiHeadAttention" || class_name == "GroupedQueryAttention" ||
         class_name == "GroupQueryAttention";
}

// [null, 28, 28, 1] for (-1, 28, 28, 1).
Config shape_json(const Shape& shape) {
  Config out = Config::array();
  for (int64_t d : shape) out.push_back(d < 0 ? Config(nullptr) : Config(d));
  return out;
}

}  // namespace

Config get_build_config(const Layer& layer) {
  if (built_at_init(layer.class_name())) return nullptr;
  const auto& shapes = layer.build_input_shapes();
  if (shapes.empty()) return nullptr;
  if (builds_from_query_value_key(layer.class_name()) && shapes.size() >= 2) {
    // build(query_shape, value_shape, key_shape=None): Keras records the arguments by name.
    Config dict = {{"query_shape", shape_json(shapes[0])}, {"value_shape", shape_json(shapes[1])}};
    if (shapes.size() > 2) dict["key_shape"] = shape_json(shapes[2]);
    return {{"shapes_dict", dict}};
  }
  if (dynamic_cast<const RNNLayer*>(&layer) && shapes.size() >= 2) {
    // build(sequences_shape, initial_state_shape=None), called with initial states: Keras
    // records the arguments by name, one state's shape bare, several as a list.
    Config states = Config::array();
    for (size_t i = 1; i < shapes.size(); ++i) states.push_back(shape_json(shapes[i]));
    return {{"shapes_dict",
             {{"sequences_shape", shape_json(shapes[0])},
              {"initial_state_shape", shapes.size() == 2 ? states[0] : states}}}};
  }
  if (shapes.size() == 1) return {{"input_shape", shape_json(shapes[0])}};
  Config list = Config::array();
  for (const Shape& s : shapes) list.push_back(shape_json(s));
  return {{"input_shape", list}};
}

std::string keras_class_name(const std::string& class_name) {
  // GroupedQueryAttention is exported (and so serialized) as GroupQueryAttention.
  return class_name == "GroupedQueryAttention" ? "GroupQueryAttention" : class_name;
}

std::string keras_module(const std::string& class_name) {
  if (class_name == "CustomScaleLayer") return "keras.src.applications.inception_resnet_v2";
  if (class_name == "LayerScale") return "keras.src.applications.convnext";
  // Not exported by keras.layers: Keras records its source module and registered name.
  if (class_name == "ConvLSTMCell") return "keras.src.layers.rnn.conv_lstm";
  return "keras.layers";
}

}  // namespace keras::layers
