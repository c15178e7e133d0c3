// export_model's refusals (each a ValueError or IOError that names what was wrong) and the
// outline of the file it writes. The files themselves are checked against ONNX Runtime by
// scripts/onnx_check.sh (tools/onnx).

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <string>

#include "keras/keras.h"
#include "keras/saving/export.h"
#include "safety_util.h"

namespace keras {
namespace {

namespace fs = std::filesystem;
using test::SafetyTempDir;

// A subclassed model (call() is C++ code: export traces it) around one Dense.
class Subclassed : public Model {
 public:
  Subclassed() : Model(LayerOptions{.name = "subclassed_net"}, "subclassed_net") {
    dense_ = track("dense", layers::Dense(2));
  }
  Tensor call(const Tensor& x, const CallContext&) override { return ops::sort(dense_(x)); }

 private:
  LayerPtr<layers::DenseLayer> dense_;
};

// A custom layer whose call() uses an op with no ONNX mapping (cumsum).
class RunningTotal : public Layer {
 public:
  RunningTotal() : Layer(LayerOptions{.name = "running_total"}, "running_total") {}
  std::string class_name() const override { return "RunningTotal"; }
  Tensor call(const Tensor& x, const CallContext&) override { return ops::cumsum(x, 1); }
};

ModelPtr<Model> small_mlp() {
  return Sequential({Input({4}), layers::Dense(3, {.activation = "relu"}), layers::Dense(2)});
}

// The message of the exception of type E that `f` throws (a failure when it throws none).
template <typename E, typename F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception of the expected type was thrown";
  return "";
}

const saving::ExportOptions kQuiet{.verbose = false};

// Subclassed models and custom layers export by tracing call(); an op with no ONNX mapping is
// named with the layer or model whose call() used it, and no file is written.
TEST(OnnxExport, UnmappedOpOfATracedCallIsNamed) {
  SafetyTempDir dir("onnx");
  auto model = make_layer<Subclassed>();
  model(Input({3}));
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*model, dir.file("m.onnx"), kQuiet); });
  EXPECT_NE(msg.find("\"subclassed_net\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("sort"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));

  auto x = Input({4});
  auto functional = Functional(x, make_layer<RunningTotal>()(layers::Dense(3)(x)));
  const std::string custom_msg = message_of<ValueError>(
      [&] { saving::export_model(*functional, dir.file("c.onnx"), kQuiet); });
  EXPECT_NE(custom_msg.find("\"running_total\" (RunningTotal)"), std::string::npos) << custom_msg;
  EXPECT_NE(custom_msg.find("cumsum"), std::string::npos) << custom_msg;
  EXPECT_FALSE(fs::exists(dir.file("c.onnx")));

  // Lambda's function is traced the same way.
  auto lambda =
      Sequential({Input({3}), layers::Lambda([](const Tensor& t) { return ops::cumsum(t, 1); })});
  const std::string lambda_msg =
      message_of<ValueError>([&] { saving::export_model(*lambda, dir.file("l.onnx"), kQuiet); });
  EXPECT_NE(lambda_msg.find(lambda->layers().back()->name()), std::string::npos) << lambda_msg;
  EXPECT_NE(lambda_msg.find("cumsum"), std::string::npos) << lambda_msg;
}

// A subclassed model that was never called or built has no input shapes: the error asks for
// input_signature, which then suffices.
TEST(OnnxExport, UnbuiltSubclassedModelNeedsAnInputSignature) {
  SafetyTempDir dir("onnx");
  class Doubler : public Model {
   public:
    Doubler() : Model(LayerOptions{.name = "doubler"}, "doubler") {}
    Tensor call(const Tensor& x, const CallContext&) override { return ops::multiply(x, 2.0); }
  };
  auto model = make_layer<Doubler>();
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*model, dir.file("m.onnx"), kQuiet); });
  EXPECT_NE(msg.find("\"doubler\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("input_signature"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));

  saving::export_model(*model, dir.file("m.onnx"), {.input_signature = {{-1, 5}}, .verbose = false});
  EXPECT_TRUE(fs::exists(dir.file("m.onnx")));
}

// A tensor the size of the batch made from nothing traced would fix the batch size in the
// graph: refused rather than exported wrong.
TEST(OnnxExport, BatchSizedConstantOfATracedCallIsRefused) {
  SafetyTempDir dir("onnx");
  auto lambda = Sequential({Input({3}), layers::Lambda([](const Tensor& t) {
                              return ops::add(t, ops::ones_like(t));
                            })});
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*lambda, dir.file("l.onnx"), kQuiet); });
  EXPECT_NE(msg.find("ones_like"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("l.onnx")));
}

// Slices and joins of traced values export (Slice, Concat: checked against ONNX Runtime by
// scripts/onnx_check.sh); what is neither is refused with the reason, and no file is written.
TEST(OnnxExport, PartsThatAreNoSliceOrJoinAreRefused) {
  SafetyTempDir dir("onnx");
  const std::pair<std::function<Tensor(const Tensor&)>, const char*> cases[] = {
      {[](const Tensor& t) { return ops::pad(t, {{0, 0}, {1, 1}, {2, 0}}); },
       "not slabs along one axis"},
      {[](const Tensor& t) { return t.slice({{0, 1}}); }, "a slice of the batch axis"},
      {[](const Tensor& t) { return ops::diagonal(t, 0, 1, 2); }, "no slice of it"},
      {[](const Tensor& t) { return ops::concatenate({t, t}, 0); }, "along the batch axis"},
  };
  for (const auto& [function, reason] : cases) {
    auto model = Sequential({Input({3, 3}), layers::Lambda(function)});
    const std::string msg =
        message_of<ValueError>([&] { saving::export_model(*model, dir.file("p.onnx"), kQuiet); });
    EXPECT_NE(msg.find(reason), std::string::npos) << msg;
    EXPECT_FALSE(fs::exists(dir.file("p.onnx")));
  }
  // A slice update of a traced value: its first write defines the value, the second would
  // change part of it.
  auto update = Sequential({Input({4}), layers::Lambda([](const Tensor& t) {
                              return ops::slice_update(t, {0, 1}, ops::zeros({1, 2}));
                            })});
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*update, dir.file("u.onnx"), kQuiet); });
  EXPECT_NE(msg.find("slice update"), std::string::npos) << msg;
}

TEST(OnnxExport, LayerWithoutConverterIsNamed) {
  SafetyTempDir dir("onnx");
  auto model = Sequential({Input({400}), layers::MelSpectrogram({.name = "mel"})});
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*model, dir.file("m.onnx"), kQuiet); });
  EXPECT_NE(msg.find("\"mel\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("MelSpectrogram"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));
}

// keras.ops nodes have converters of their own (a node may share its class name with a layer:
// Add, Concatenate); an op without one, or on integers, is refused by name.
TEST(OnnxExport, OpsNodesWithoutConverterAreRefused) {
  SafetyTempDir dir("onnx");
  auto a = Input({4}, {.name = "a"});
  auto clipped = Functional(a, ops::clip(a, 0.0, 1.0));
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*clipped, dir.file("m.onnx"), kQuiet); });
  EXPECT_NE(msg.find("keras.ops"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Clip"), std::string::npos) << msg;

  auto ids = Input({4}, {.dtype = DType::Int32, .name = "ids"});
  auto doubled = Functional(ids, ops::add(ids, ids));
  const std::string int_msg =
      message_of<ValueError>([&] { saving::export_model(*doubled, dir.file("i.onnx"), kQuiet); });
  EXPECT_NE(int_msg.find("int32"), std::string::npos) << int_msg;
}

// A custom layer that supports masking: export traces its call, which carries no mask.
class MaskedScale : public Layer {
 public:
  MaskedScale() : Layer(LayerOptions{.name = "masked_scale"}, "masked_scale") {
    set_supports_masking(true);
  }
  std::string class_name() const override { return "MaskedScale"; }
  Tensor call(const Tensor& x, const CallContext&) override { return ops::multiply(x, 2.0); }
};

// Masks export into the layers that read them (scripts/onnx_check.sh runs those in ONNX
// Runtime); a mask reaching any other layer that supports masking (TimeDistributed hands it
// to its layer step by step) is refused by name.
TEST(OnnxExport, MaskIntoALayerWithoutAMaskedFormIsRefused) {
  SafetyTempDir dir("onnx");
  auto ids = Input({5}, {.dtype = DType::Int32});
  auto e = layers::Embedding(10, 4, {.mask_zero = true, .name = "tokens"})(ids);
  auto joined = Functional(
      ids, layers::TimeDistributed(layers::Dense(3), {.name = "joined"})(e));
  const std::string msg =
      message_of<ValueError>([&] { saving::export_model(*joined, dir.file("m.onnx"), kQuiet); });
  EXPECT_NE(msg.find("\"joined\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("Keras mask"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));

  auto custom = Functional(ids, make_layer<MaskedScale>()(e));
  const std::string traced_msg =
      message_of<ValueError>([&] { saving::export_model(*custom, dir.file("c.onnx"), kQuiet); });
  EXPECT_NE(traced_msg.find("masked_scale"), std::string::npos) << traced_msg;
  EXPECT_NE(traced_msg.find("traced calls carry no masks"), std::string::npos) << traced_msg;

  // A layer that does not support masking drops the mask, as in keras-cpp's own call: exported.
  auto flat = Functional(ids, layers::Flatten()(e));
  saving::export_model(*flat, dir.file("f.onnx"), kQuiet);
  EXPECT_TRUE(fs::exists(dir.file("f.onnx")));
}

// A quantized layer computes on a rounded grid (int8, int4 or float8) that a float32 graph would
// drop: every mode is refused, naming the layer and the policy, and no file is left.
TEST(OnnxExport, QuantizedLayersAreRefused) {
  for (const std::string mode : {"int8", "int4", "float8"}) {
    SafetyTempDir dir("onnx");
    auto model = small_mlp();
    model->quantize(mode);
    const std::string msg = message_of<ValueError>(
        [&] { saving::export_model(*model, dir.file("m.onnx"), kQuiet); });
    EXPECT_NE(msg.find("quantized"), std::string::npos) << mode << ": " << msg;
    EXPECT_NE(msg.find(mode), std::string::npos) << mode << ": " << msg;
    EXPECT_FALSE(fs::exists(dir.file("m.onnx"))) << mode;
  }
}

TEST(OnnxExport, OpsetOutsideTheRangeIsRefused) {
  SafetyTempDir dir("onnx");
  auto model = small_mlp();
  const std::string msg = message_of<ValueError>([&] {
    saving::export_model(*model, dir.file("m.onnx"), {.opset_version = 12, .verbose = false});
  });
  EXPECT_NE(msg.find("12"), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::to_string(saving::kMinOnnxOpset)), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::to_string(saving::kMaxOnnxOpset)), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));
}

TEST(OnnxExport, OtherFormatsAreRefused) {
  SafetyTempDir dir("onnx");
  auto model = small_mlp();
  const std::string msg = message_of<ValueError>([&] {
    saving::export_model(*model, dir.file("m"), {.format = "tf_saved_model", .verbose = false});
  });
  EXPECT_NE(msg.find("tf_saved_model"), std::string::npos) << msg;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(OnnxExport, InputSignatureOfTheWrongRankIsRefused) {
  SafetyTempDir dir("onnx");
  auto model = small_mlp();
  const std::string msg = message_of<ValueError>([&] {
    saving::export_model(*model, dir.file("m.onnx"),
                         {.input_signature = {Shape{-1, 4, 1}}, .verbose = false});
  });
  EXPECT_NE(msg.find("input_signature"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.file("m.onnx")));
}

TEST(OnnxExport, MissingFolderIsAnIOErrorAndLeavesNothing) {
  SafetyTempDir dir("onnx");
  auto model = small_mlp();
  const std::string path = (dir.path() / "missing" / "m.onnx").string();
  const std::string msg = message_of<IOError>([&] { saving::export_model(*model, path, kQuiet); });
  EXPECT_NE(msg.find("missing"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.path() / "missing"));
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// The file is an ONNX ModelProto: field 1 (ir_version, a varint: tag byte 0x08) first, and the
// producer name written by keras-cpp.
TEST(OnnxExport, FileStartsWithIrVersionAndNamesTheProducer) {
  SafetyTempDir dir("onnx");
  auto model = small_mlp();
  const std::string path = dir.file("m.onnx");
  model->export_(path, kQuiet);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x08);
  EXPECT_GE(static_cast<unsigned char>(bytes[1]), 3);   // IR 3 (opset 8) ...
  EXPECT_LE(static_cast<unsigned char>(bytes[1]), 12);  // ... to the IR versions of today
  EXPECT_NE(bytes.find("keras-cpp"), std::string::npos);
}

}  // namespace
}  // namespace keras
