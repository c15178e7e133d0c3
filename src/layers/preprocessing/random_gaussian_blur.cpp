#include "keras/layers/preprocessing/random_gaussian_blur.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// The normalized 1-d Gaussian exp(-(x / sigma)^2 / 2) at x = i - (size - 1) / 2, with sigma a
// 0-d tensor (so the kernel follows the drawn sigma without a host read), as Keras's
// gaussian_blur computes it.
Tensor gaussian_1d(int64_t size, const Tensor& sigma, DType dtype) {
  Tensor x = ops::subtract(ops::cast(ops::arange(int64_t{0}, size), dtype),
                           ops::cast(Tensor(static_cast<double>(size - 1) / 2.0), dtype));
  Tensor g = ops::exp(ops::multiply(ops::square(ops::divide(x, sigma)), -0.5));
  return ops::divide(g, ops::sum(g));
}

}  // namespace

RandomGaussianBlurLayer::RandomGaussianBlurLayer(Factor factor, RandomGaussianBlurOptions options)
    : RandomImageLayer(base_options(options), "random_gaussian_blur", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 0.0, 1.0);
  // Keras checks sigma against the factor's bounds too, so sigma is at most 1.
  try {
    sigma_ = base_factor(options_.sigma, 0.0, 1.0);
  } catch (const ValueError&) {
    throw ValueError("RandomGaussianBlur '" + name() +
                     "': the sigma argument should be a number (or a list of two numbers) in the "
                     "range [0, 1]; got sigma=" +
                     options_.sigma.to_config().dump() + ".");
  }
  for (int64_t k : options_.kernel_size)
    check(k > 0 && k % 2 == 1, "RandomGaussianBlur '", name(),
          "': kernel_size must be odd positive numbers; got kernel_size=(", options_.kernel_size[0],
          ", ", options_.kernel_size[1], ").");
}

RandomGaussianBlurLayer::Transformation RandomGaussianBlurLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  if (!training) return {};
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  // One seed for the three draws, as Keras passes it: a generator advances between them.
  random::Seed s = resolve_seed(images, seed);
  Tensor probability =
      random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt, s);
  Tensor threshold = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, s);
  Tensor sigma = random::uniform(Shape{2}, sigma_.first, sigma_.second, compute_dtype(), s);
  return {{"should_apply_blur", ops::less(threshold, probability)},
          {"blur_factor", ops::add(sigma, 1e-6)}};
}

// The base transform_images has cast the images to the compute dtype.
Tensor RandomGaussianBlurLayer::transform(const Tensor& images, const Transformation& t) {
  auto apply = t.find("should_apply_blur"), sigma = t.find("blur_factor");
  if (apply == t.end() || sigma == t.end()) return images;
  const DType dtype = images.dtype();
  Tensor s = ops::cast(sigma->second, dtype);
  // Keras's kernel is outer(g(size[1], sigma[1]), g(size[0], sigma[0])): rows (the height)
  // from the second entries.
  const auto& size = options_.kernel_size;
  Tensor kernel = ops::outer(gaussian_1d(size[1], ops::take(s, Tensor(int64_t{1})), dtype),
                             gaussian_1d(size[0], ops::take(s, Tensor(int64_t{0})), dtype));
  const int64_t channels = images.shape()[data_format_ == "channels_last" ? 3 : 1];
  kernel = ops::tile(ops::reshape(kernel, Shape{size[1], size[0], 1, 1}), {1, 1, channels, 1});
  Tensor blurred =
      ops::depthwise_conv(images, kernel, {.padding = "same", .data_format = data_format_});
  const int64_t batch = images.shape()[0];
  Tensor out = ops::where(ops::reshape(apply->second, Shape{batch, 1, 1, 1}), blurred, images);
  out = ops::clip(out, options_.value_range.first, options_.value_range.second);
  return ops::cast(out, compute_dtype());
}

Config RandomGaussianBlurLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["kernel_size"] = Config::array({options_.kernel_size[0], options_.kernel_size[1]});
  c["sigma"] = Config::array({sigma_.first, sigma_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomGaussianBlurLayer::from_config(const Config& c) {
  RandomGaussianBlurOptions o;
  read_base_config(c, o);
  if (c.contains("kernel_size")) {
    const Config& k = c["kernel_size"];
    auto odd_int = [&](const Config& v) {
      check(v.is_number() && v.get<double>() == static_cast<double>(v.get<int64_t>()),
            "RandomGaussianBlur kernel_size must be an odd number or a list of two; got ", k.dump(),
            ".");
      return v.get<int64_t>();
    };
    if (k.is_array()) {
      check(k.size() == 2, "RandomGaussianBlur kernel_size must be an odd number or a list of ",
            "two; got ", k.dump(), ".");
      o.kernel_size = {odd_int(k[0]), odd_int(k[1])};
    } else {
      o.kernel_size = {odd_int(k), odd_int(k)};
    }
  }
  if (c.contains("sigma")) o.sigma = Factor::from_config(c["sigma"], "RandomGaussianBlur sigma");
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomGaussianBlur value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  const Factor factor = c.contains("factor")
                            ? Factor::from_config(c["factor"], "RandomGaussianBlur factor")
                            : Factor(1.0);
  return std::make_shared<RandomGaussianBlurLayer>(factor, o);
}

LayerPtr<RandomGaussianBlurLayer> RandomGaussianBlur(Factor factor,
                                                     RandomGaussianBlurOptions options) {
  return make_layer<RandomGaussianBlurLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
