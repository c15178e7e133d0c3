// Converters of the convolution, pooling and spatial reshaping layers. ONNX's operators take
// channels_first data, so a channels_last layer becomes Transpose, the operator, Transpose
// (ONNX Runtime's optimizer removes back-to-back pairs between consecutive layers).

#include "keras/ops/core.h"
#include "keras/ops/numpy.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

bool channels_last(const LayerCall& c) {
  return c.config.value("data_format", "channels_last") != "channels_first";
}

// Runs `op` (channels_first in and out) on input 0 in the layer's data format.
template <typename Op>
std::string in_channels_first(LayerCall& c, const std::string& x, Op op) {
  const int rank = c.rank();
  if (!channels_last(c)) return op(x);
  const std::string y = op(transpose(c.g, x, to_channels_first(rank), c.scope()));
  return transpose(c.g, y, to_channels_last(rank), c.scope());
}

// The Conv attributes of a Keras "valid"/"same"/"causal" convolution.
std::vector<Attribute> window_attributes(LayerCall& c, const std::vector<int64_t>& kernel,
                                         const std::vector<int64_t>& strides,
                                         const std::vector<int64_t>& dilations) {
  std::vector<Attribute> a{{"kernel_shape", kernel}, {"strides", strides}};
  if (!dilations.empty()) a.push_back({"dilations", dilations});
  const std::string padding = c.config.value("padding", "valid");
  if (padding == "same") {
    a.push_back({"auto_pad", std::string("SAME_UPPER")});  // TF's same: the extra one at the end
  } else if (padding == "causal") {
    std::vector<int64_t> pads(kernel.size() * 2, 0);
    pads[0] = (kernel[0] - 1) * (dilations.empty() ? 1 : dilations[0]);
    a.push_back({"pads", pads});
  } else if (padding != "valid") {
    c.fail("padding \"" + padding + "\" is not valid, same or causal");
  }
  return a;
}

// Keras's kernel (spatial..., in, out) as ONNX's weight (out, in, spatial...), or for
// transposed convolutions (spatial..., out, in) as (in, out, spatial...): the same permutation.
Tensor spatial_last(const Tensor& kernel) {
  const int r = kernel.ndim();
  std::vector<int> perm{r - 1, r - 2};
  for (int i = 0; i < r - 2; ++i) perm.push_back(i);
  return ops::transpose(kernel, perm).contiguous();
}

Values conv(LayerCall& c) {
  const Tensor kernel = c.weight("kernel");
  const int spatial = kernel.ndim() - 2;
  const std::vector<int64_t> k(kernel.shape().begin(), kernel.shape().begin() + spatial);
  std::vector<Attribute> attrs = window_attributes(c, k, int_tuple(c, "strides", spatial),
                                                   int_tuple(c, "dilation_rate", spatial));
  attrs.push_back({"group", c.config.value("groups", int64_t{1})});
  std::vector<std::string> in{"", c.initializer("kernel", spatial_last(kernel))};
  if (c.config.value("use_bias", true)) in.push_back(c.weight_value("bias"));
  const std::string y = in_channels_first(c, c.inputs[0], [&](const std::string& x) {
    in[0] = x;
    return c.g.node("Conv", in, attrs, c.scope());
  });
  return {apply_config_activation(c, y)};
}

// Depthwise: a grouped convolution with one group per input channel; Keras's kernel
// (spatial..., C, multiplier) flattens to C * multiplier outputs, channel-major.
std::string depthwise(LayerCall& c, const std::string& x, const Tensor& kernel,
                      const std::string& name) {
  const int spatial = kernel.ndim() - 2;
  const std::vector<int64_t> k(kernel.shape().begin(), kernel.shape().begin() + spatial);
  const int64_t channels = kernel.shape()[spatial], multiplier = kernel.shape()[spatial + 1];
  Shape flat(k.begin(), k.end());
  flat.push_back(1);
  flat.push_back(channels * multiplier);
  std::vector<Attribute> attrs = window_attributes(c, k, int_tuple(c, "strides", spatial),
                                                   int_tuple(c, "dilation_rate", spatial));
  attrs.push_back({"group", channels});
  const std::string w = c.initializer(name, spatial_last(ops::reshape(kernel, flat)));
  return c.g.node("Conv", {x, w}, attrs, c.scope());
}

Values depthwise_conv(LayerCall& c) {
  const std::string y = in_channels_first(c, c.inputs[0], [&](const std::string& x) {
    std::string d = depthwise(c, x, c.weight("kernel"), "kernel");
    if (c.config.value("use_bias", true)) {
      // Bias over the channel axis (axis 1 here): shaped (C, 1, ..., 1).
      const Tensor b = c.weight("bias");
      Shape s{b.shape()[0]};
      for (int i = 2; i < c.rank(); ++i) s.push_back(1);
      d = c.g.node("Add", {d, c.initializer("bias", ops::reshape(b, s))}, {}, c.scope());
    }
    return d;
  });
  return {apply_config_activation(c, y)};
}

Values separable_conv(LayerCall& c) {
  const Tensor pointwise = c.weight("pointwise_kernel");
  const int spatial = pointwise.ndim() - 2;
  const std::string y = in_channels_first(c, c.inputs[0], [&](const std::string& x) {
    const std::string d = depthwise(c, x, c.weight("depthwise_kernel"), "depthwise_kernel");
    std::vector<std::string> in{d, c.initializer("pointwise_kernel", spatial_last(pointwise))};
    if (c.config.value("use_bias", true)) in.push_back(c.weight_value("bias"));
    return c.g.node("Conv", in,
                    {{"kernel_shape", std::vector<int64_t>(static_cast<size_t>(spatial), 1)}},
                    c.scope());
  });
  return {apply_config_activation(c, y)};
}

// Keras pads the stride-dilated input by (left, right) per dimension and correlates with the
// flipped kernel (ops/nn/conv_transpose.cpp); ONNX's ConvTranspose computes the full result,
// (window - 1) more on each side, then drops `pads` and adds `output_padding` at the end.
Values conv_transpose(LayerCall& c) {
  const Tensor kernel = c.weight("kernel");
  const int spatial = kernel.ndim() - 2;
  const std::vector<int64_t> k(kernel.shape().begin(), kernel.shape().begin() + spatial);
  const auto strides = int_tuple(c, "strides", spatial);
  const auto dilations = int_tuple(c, "dilation_rate", spatial);
  const bool same = c.config.value("padding", "valid") == "same";
  std::vector<int64_t> output_padding(static_cast<size_t>(spatial), -1);
  if (c.config.contains("output_padding") && !c.config["output_padding"].is_null())
    output_padding = int_tuple(c, "output_padding", spatial);
  std::vector<int64_t> begin, end, extra;
  for (int i = 0; i < spatial; ++i) {
    const int64_t window = (k[i] - 1) * dilations[i] + 1, s = strides[i], op = output_padding[i];
    int64_t left, right;
    if (!same) {
      left = window - 1;
      right = window - 1 + (op < 0 ? std::max(window, s) - window : op);
    } else {
      const int64_t total = op < 0 ? s + window - 2 : window + window % 2 - 2 + op;
      left = std::min(total / 2 + total % 2, window - 1);
      right = total - left;
    }
    begin.push_back(window - 1 - left);
    const int64_t cut = window - 1 - right;
    end.push_back(std::max<int64_t>(cut, 0));
    extra.push_back(std::max<int64_t>(-cut, 0));
  }
  std::vector<int64_t> pads = begin;
  pads.insert(pads.end(), end.begin(), end.end());
  std::vector<Attribute> attrs{{"kernel_shape", k}, {"strides", strides}, {"dilations", dilations},
                               {"pads", pads}, {"output_padding", extra}};
  std::vector<std::string> in{"", c.initializer("kernel", spatial_last(kernel))};
  if (c.config.value("use_bias", true)) in.push_back(c.weight_value("bias"));
  const std::string y = in_channels_first(c, c.inputs[0], [&](const std::string& x) {
    in[0] = x;
    return c.g.node("ConvTranspose", in, attrs, c.scope());
  });
  return {apply_config_activation(c, y)};
}

Values pooling(LayerCall& c, const std::string& op) {
  const int spatial = c.rank() - 2;
  const auto pool = int_tuple(c, "pool_size", spatial);
  const Config& st = c.config.contains("strides") ? c.config["strides"] : Config();
  const auto strides = st.is_null() ? pool : int_tuple(c, "strides", spatial);
  std::vector<Attribute> attrs = window_attributes(c, pool, strides, {});
  return {in_channels_first(c, c.inputs[0], [&](const std::string& x) {
    return c.g.node(op, {x}, attrs, c.scope());
  })};
}
Values max_pooling(LayerCall& c) { return pooling(c, "MaxPool"); }
// Keras's "same" average excludes the padding from the count (count_include_pad=0, the default).
Values average_pooling(LayerCall& c) { return pooling(c, "AveragePool"); }

Values global_pooling(LayerCall& c, const std::string& op) {
  const int rank = c.rank();
  std::vector<int64_t> axes;
  for (int i = 0; i < rank - 2; ++i) axes.push_back(channels_last(c) ? i + 1 : i + 2);
  return {reduce(c.g, op, c.inputs[0], axes, c.config.value("keepdims", false), c.scope())};
}
Values global_average_pooling(LayerCall& c) {
  if (!c.masked()) return global_pooling(c, "ReduceMean");
  // GlobalAveragePooling1D with a (batch, steps) mask: masked steps zeroed (so that NaNs there do
  // not spread), summed, divided by the count of unmasked steps. Its output has no mask.
  Graph& g = c.g;
  const std::string s = c.scope();
  const int64_t steps_axis = channels_last(c) ? 1 : 2;
  const bool keepdims = c.config.value("keepdims", false);
  const std::string m = g.node("Unsqueeze", {c.input_masks[0], g.constant_i64(s + "/feature_axis",
                                                                              {3 - steps_axis})},
                               {}, s);
  const std::string x = g.node("Where", {m, c.inputs[0], g.scalar_f32(s + "/zero", 0.0f)}, {}, s);
  c.output_masks = MaskValues{""};
  return {g.node("Div", {reduce(g, "ReduceSum", x, {steps_axis}, keepdims, s),
                         reduce(g, "ReduceSum", mask_as_float(g, m, s), {steps_axis}, keepdims, s)},
                 {}, s)};
}
Values global_max_pooling(LayerCall& c) { return global_pooling(c, "ReduceMax"); }

// (before, after) per spatial dimension from a ZeroPadding/Cropping config: an integer, a
// pair (1-d), or one pair per dimension.
std::vector<std::pair<int64_t, int64_t>> spatial_pairs(const LayerCall& c, const std::string& key) {
  const int spatial = c.rank() - 2;
  const Config& v = c.at(key);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int i = 0; i < spatial; ++i) {
    if (v.is_number_integer()) {
      out.emplace_back(v.get<int64_t>(), v.get<int64_t>());
    } else if (spatial == 1 && v.size() == 2 && v[0].is_number_integer()) {
      out.emplace_back(v[0].get<int64_t>(), v[1].get<int64_t>());
    } else if (v.size() == static_cast<size_t>(spatial)) {
      const Config& p = v[static_cast<size_t>(i)];
      if (p.is_number_integer())
        out.emplace_back(p.get<int64_t>(), p.get<int64_t>());
      else
        out.emplace_back(p[0].get<int64_t>(), p[1].get<int64_t>());
    } else {
      c.fail("its \"" + key + "\" is not one pair per spatial dimension");
    }
  }
  return out;
}

// The axis of spatial dimension i (0-based) in the layer's data format.
int64_t spatial_axis(const LayerCall& c, int i) { return channels_last(c) ? i + 1 : i + 2; }

Values zero_padding(LayerCall& c) {
  const int rank = c.rank();
  const auto pairs = spatial_pairs(c, "padding");
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank), 0);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto axis = static_cast<size_t>(spatial_axis(c, static_cast<int>(i)));
    pads[axis] = pairs[i].first;
    pads[axis + static_cast<size_t>(rank)] = pairs[i].second;
  }
  return {c.g.node("Pad", {c.inputs[0], c.g.constant_i64(c.scope() + "/pads", pads)}, {},
                   c.scope())};
}

Values cropping(LayerCall& c) {
  const auto pairs = spatial_pairs(c, "cropping");
  std::vector<int64_t> starts, ends, axes;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const int64_t axis = spatial_axis(c, static_cast<int>(i));
    const int64_t size = c.input_shapes[0][static_cast<size_t>(axis)];
    if (size < 0) c.fail("cropping needs the input's spatial size, which is unknown");
    starts.push_back(pairs[i].first);
    ends.push_back(size - pairs[i].second);
    axes.push_back(axis);
  }
  const std::string s = c.scope();
  return {c.g.node("Slice", {c.inputs[0], c.g.constant_i64(s + "/starts", starts),
                             c.g.constant_i64(s + "/ends", ends), c.g.constant_i64(s + "/axes", axes)},
                   {}, s)};
}

Values up_sampling(LayerCall& c) {
  const int rank = c.rank(), spatial = rank - 2;
  const auto size = int_tuple(c, "size", spatial);
  std::vector<float> scales(static_cast<size_t>(rank), 1.0f);
  for (int i = 0; i < spatial; ++i)
    scales[static_cast<size_t>(spatial_axis(c, i))] = static_cast<float>(size[static_cast<size_t>(i)]);
  const std::string interpolation = c.config.value("interpolation", "nearest");
  std::vector<Attribute> attrs;
  if (interpolation == "nearest") {
    // Repeat each element: the source index is floor(output index / size).
    attrs = {{"mode", std::string("nearest")},
             {"coordinate_transformation_mode", std::string("asymmetric")},
             {"nearest_mode", std::string("floor")}};
  } else if (interpolation == "bilinear") {
    attrs = {{"mode", std::string("linear")},
             {"coordinate_transformation_mode", std::string("half_pixel")}};
  } else {
    c.fail("interpolation \"" + interpolation + "\" has no ONNX mapping in the exporter");
  }
  const std::string s = c.scope();
  return {c.g.node("Resize", {c.inputs[0], "", c.g.constant_f32(s + "/scales", scales,
                                                               Shape{static_cast<int64_t>(rank)})},
                   attrs, s)};
}

// The image preprocessing layers: 4-d images, channels_last unless data_format says otherwise.
std::pair<int64_t, int64_t> hw_axes(const LayerCall& c) {
  if (c.rank() != 4) c.fail("the exporter handles batches of images (rank 4) only");
  return channels_last(c) ? std::pair<int64_t, int64_t>{1, 2} : std::pair<int64_t, int64_t>{2, 3};
}

// A crop of the centre when the image is at least the target size (Keras resizes smaller ones,
// which the exporter refuses).
Values center_crop(LayerCall& c) {
  const auto [h_axis, w_axis] = hw_axes(c);
  const Shape& in = c.input_shapes[0];
  const int64_t h = in[static_cast<size_t>(h_axis)], w = in[static_cast<size_t>(w_axis)];
  const int64_t th = c.at("height").get<int64_t>(), tw = c.at("width").get<int64_t>();
  if (h < th || w < tw) c.fail("its input (" + std::to_string(h) + "x" + std::to_string(w) +
                               ") is smaller than the crop, which Keras resizes first");
  const int64_t top = (h - th) / 2, left = (w - tw) / 2;
  const std::string s = c.scope();
  const std::string y = c.g.node(
      "Slice", {c.inputs[0], c.g.constant_i64(s + "/starts", {top, left}),
                c.g.constant_i64(s + "/ends", {top + th, left + tw}),
                c.g.constant_i64(s + "/axes", {h_axis, w_axis})},
      {}, s);
  return {c.g.node("Cast", {y}, {{"to", int64_t{1}}}, s)};
}

// Bilinear resizing with half-pixel centres (jax.image.resize without antialiasing, what Keras's
// Resizing does by default); the other interpolations and aspect-ratio options are refused.
Values resizing(LayerCall& c) {
  const auto [h_axis, w_axis] = hw_axes(c);
  if (c.config.value("interpolation", "bilinear") != "bilinear")
    c.fail("interpolation \"" + c.config.value("interpolation", std::string()) +
           "\" is not exported (bilinear is)");
  if (c.config.value("crop_to_aspect_ratio", false) || c.config.value("pad_to_aspect_ratio", false))
    c.fail("crop_to_aspect_ratio and pad_to_aspect_ratio are not exported");
  if (c.config.value("antialias", false)) c.fail("antialias=true is not exported");
  const int64_t height = c.at("height").get<int64_t>(), width = c.at("width").get<int64_t>();
  const std::string s = c.scope();
  const std::string x = c.g.node("Cast", {c.inputs[0]}, {{"to", int64_t{1}}}, s);
  // The batch (and an unknown channel count) comes from the input's own shape.
  const std::string in_shape = c.g.node("Shape", {x}, {}, s);
  std::vector<int64_t> keep_axes;
  for (int i = 0; i < 4; ++i)
    if (i != h_axis && i != w_axis) keep_axes.push_back(i);
  const std::string kept = c.g.node("Gather", {in_shape, c.g.constant_i64(s + "/kept", keep_axes)},
                                    {{"axis", int64_t{0}}}, s);
  const std::string hw = c.g.constant_i64(s + "/hw", {height, width});
  // (batch, height, width, channels) or (batch, channels, height, width).
  const auto part = [&](int64_t from) {
    return c.g.node("Slice", {kept, c.g.constant_i64(s + "/from", {from}),
                              c.g.constant_i64(s + "/to", {from + 1})},
                    {}, s);
  };
  const std::string size =
      channels_last(c)
          ? c.g.node("Concat", {part(0), hw, part(1)}, {{"axis", int64_t{0}}}, s)
          : c.g.node("Concat", {kept, hw}, {{"axis", int64_t{0}}}, s);
  return {c.g.node("Resize", {x, "", "", size},
                   {{"mode", std::string("linear")},
                    {"coordinate_transformation_mode", std::string("half_pixel")}},
                   s)};
}

}  // namespace

void register_conv(std::map<std::string, Converter>& t) {
  for (const char* d : {"1D", "2D", "3D"}) {
    const std::string n = d;
    t["Conv" + n] = conv;
    t["Conv" + n + "Transpose"] = conv_transpose;
    t["MaxPooling" + n] = max_pooling;
    t["AveragePooling" + n] = average_pooling;
    t["GlobalAveragePooling" + n] = global_average_pooling;
    t["GlobalMaxPooling" + n] = global_max_pooling;
    t["ZeroPadding" + n] = zero_padding;
    t["Cropping" + n] = cropping;
    t["UpSampling" + n] = up_sampling;
  }
  t["DepthwiseConv1D"] = depthwise_conv;
  t["DepthwiseConv2D"] = depthwise_conv;
  t["SeparableConv1D"] = separable_conv;
  t["SeparableConv2D"] = separable_conv;
  t["CenterCrop"] = center_crop;
  t["Resizing"] = resizing;
}

}  // namespace keras::onnx
