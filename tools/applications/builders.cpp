#include "builders.h"

#include <functional>
#include <map>

namespace keras::tools {
namespace {

namespace apps = keras::applications;
using Builder = std::function<ModelPtr<FunctionalModel>(const apps::ApplicationOptions&,
                                                        const nlohmann::json& kwargs)>;

// Adapts a function that takes only the common options.
template <typename F>
Builder plain(F f) {
  return [f](const apps::ApplicationOptions& o, const nlohmann::json&) { return f(o); };
}

apps::MobileNetV3Options mobilenet_v3_options(const nlohmann::json& kw) {
  return {.alpha = kw.value("alpha", 1.0),
          .minimalistic = kw.value("minimalistic", false),
          .dropout_rate = kw.value("dropout_rate", 0.2)};
}

const std::map<std::string, Builder>& builders() {
  static const std::map<std::string, Builder> table = {
      {"ResNet50", plain(apps::ResNet50)},
      {"ResNet101", plain(apps::ResNet101)},
      {"ResNet152", plain(apps::ResNet152)},
      {"ResNet50V2", plain(apps::ResNet50V2)},
      {"ResNet101V2", plain(apps::ResNet101V2)},
      {"ResNet152V2", plain(apps::ResNet152V2)},
      {"DenseNet121", plain(apps::DenseNet121)},
      {"DenseNet169", plain(apps::DenseNet169)},
      {"DenseNet201", plain(apps::DenseNet201)},
      {"VGG16", plain(apps::VGG16)},
      {"Xception", plain(apps::Xception)},
      {"VGG19", plain(apps::VGG19)},
      {"ConvNeXtTiny", plain(apps::ConvNeXtTiny)},
      {"ConvNeXtSmall", plain(apps::ConvNeXtSmall)},
      {"ConvNeXtBase", plain(apps::ConvNeXtBase)},
      {"ConvNeXtLarge", plain(apps::ConvNeXtLarge)},
      {"ConvNeXtXLarge", plain(apps::ConvNeXtXLarge)},
      {"EfficientNetB0", plain(apps::EfficientNetB0)},
      {"EfficientNetB1", plain(apps::EfficientNetB1)},
      {"EfficientNetB2", plain(apps::EfficientNetB2)},
      {"EfficientNetB3", plain(apps::EfficientNetB3)},
      {"EfficientNetB4", plain(apps::EfficientNetB4)},
      {"EfficientNetB5", plain(apps::EfficientNetB5)},
      {"EfficientNetB6", plain(apps::EfficientNetB6)},
      {"EfficientNetB7", plain(apps::EfficientNetB7)},
      {"EfficientNetV2B0", plain(apps::EfficientNetV2B0)},
      {"EfficientNetV2B1", plain(apps::EfficientNetV2B1)},
      {"EfficientNetV2B2", plain(apps::EfficientNetV2B2)},
      {"EfficientNetV2B3", plain(apps::EfficientNetV2B3)},
      {"EfficientNetV2S", plain(apps::EfficientNetV2S)},
      {"EfficientNetV2M", plain(apps::EfficientNetV2M)},
      {"EfficientNetV2L", plain(apps::EfficientNetV2L)},
      {"InceptionResNetV2", plain(apps::InceptionResNetV2)},
      {"InceptionV3", plain(apps::InceptionV3)},
      {"MobileNet",
       [](const apps::ApplicationOptions& o, const nlohmann::json& kw) {
         return apps::MobileNet(o, {.alpha = kw.value("alpha", 1.0),
                                    .depth_multiplier = kw.value("depth_multiplier", int64_t{1}),
                                    .dropout = kw.value("dropout", 0.001)});
       }},
      {"NASNetLarge", plain(apps::NASNetLarge)},
      {"NASNetMobile", plain(apps::NASNetMobile)},
      {"MobileNetV2",
       [](const apps::ApplicationOptions& o, const nlohmann::json& kw) {
         return apps::MobileNetV2(o, {.alpha = kw.value("alpha", 1.0)});
       }},
      {"MobileNetV3Small",
       [](const apps::ApplicationOptions& o, const nlohmann::json& kw) {
         return apps::MobileNetV3Small(o, mobilenet_v3_options(kw));
       }},
      {"MobileNetV3Large",
       [](const apps::ApplicationOptions& o, const nlohmann::json& kw) {
         return apps::MobileNetV3Large(o, mobilenet_v3_options(kw));
       }},
  };
  return table;
}

apps::ApplicationOptions common_options(const nlohmann::json& kw) {
  apps::ApplicationOptions o;
  o.weights = "";
  if (kw.contains("include_top")) o.include_top = kw["include_top"].get<bool>();
  if (kw.contains("input_shape")) {
    Shape s;
    for (const auto& d : kw["input_shape"]) s.push_back(d.is_null() ? -1 : d.get<int64_t>());
    o.input_shape = s;
  }
  if (kw.contains("pooling") && !kw["pooling"].is_null()) o.pooling = kw["pooling"];
  if (kw.contains("classes")) o.classes = kw["classes"].get<int64_t>();
  if (kw.contains("classifier_activation")) {
    const auto& a = kw["classifier_activation"];
    o.classifier_activation = a.is_null() ? std::string() : a.get<std::string>();
  }
  if (kw.contains("name")) o.name = kw["name"];
  if (kw.contains("include_preprocessing")) {
    o.include_preprocessing = kw["include_preprocessing"].get<bool>();
  }
  return o;
}

}  // namespace

ModelPtr<FunctionalModel> build_application(const std::string& function,
                                            const nlohmann::json& kwargs) {
  auto it = builders().find(function);
  check<ValueError>(it != builders().end(), "keras-cpp has no keras.applications.", function);
  return it->second(common_options(kwargs), kwargs);
}

Tensor preprocess(const std::string& module, const Tensor& images) {
  static const std::map<std::string, std::function<Tensor(const Tensor&, const std::string&)>>
      table = {
          {"resnet", apps::resnet::preprocess_input},
          {"resnet_v2", apps::resnet_v2::preprocess_input},
          {"vgg16", apps::vgg16::preprocess_input},
          {"vgg19", apps::vgg19::preprocess_input},
          {"inception_resnet_v2", apps::inception_resnet_v2::preprocess_input},
          {"inception_v3", apps::inception_v3::preprocess_input},
          {"mobilenet", apps::mobilenet::preprocess_input},
          {"mobilenet_v2", apps::mobilenet_v2::preprocess_input},
          {"convnext", apps::convnext::preprocess_input},
          {"efficientnet", apps::efficientnet::preprocess_input},
          {"efficientnet_v2", apps::efficientnet_v2::preprocess_input},
          {"mobilenet_v3", apps::mobilenet_v3::preprocess_input},
          {"densenet", apps::densenet::preprocess_input},
          {"xception", apps::xception::preprocess_input},
          {"nasnet", apps::nasnet::preprocess_input},
      };
  auto it = table.find(module);
  check<ValueError>(it != table.end(), "keras-cpp has no keras.applications.", module,
                    ".preprocess_input");
  return it->second(images, "");
}

}  // namespace keras::tools
