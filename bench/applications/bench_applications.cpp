// bench_applications MODEL --batch B --iters N [--threads T] [--export FILE.onnx]
// Inference of a keras.applications architecture (random weights, fixed seed) with keras-cpp:
// predict_on_batch on B images of the architecture's default size, N timed calls after 3
// warm-up calls; prints `ms_per_batch: x` and `samples_per_s: y` for bench/applications.sh.
// --export writes the same model (same weights) as ONNX for the ONNX Runtime peer and exits.
// MODEL: resnet50, mobilenet_v2, efficientnet_b0.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include <keras/keras.h>

namespace apps = keras::applications;

namespace {

using Factory = std::function<keras::ModelPtr<keras::FunctionalModel>()>;

const std::map<std::string, Factory>& models() {
  static const std::map<std::string, Factory> table = {
      {"resnet50", [] { return apps::ResNet50({.weights = ""}); }},
      {"mobilenet_v2", [] { return apps::MobileNetV2({.weights = ""}); }},
      {"efficientnet_b0", [] { return apps::EfficientNetB0({.weights = ""}); }},
  };
  return table;
}

int usage() {
  std::fprintf(stderr, "usage: bench_applications MODEL --batch B --iters N [--threads T] "
                       "[--export FILE.onnx]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string name = argv[1];
  int batch = 1, iters = 20;
  std::string export_path;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--batch") batch = std::atoi(argv[i + 1]);
    else if (flag == "--iters") iters = std::atoi(argv[i + 1]);
    else if (flag == "--threads") setenv("KERAS_CPU_THREADS", argv[i + 1], 1);
    else if (flag == "--export") export_path = argv[i + 1];
    else return usage();
  }
  auto it = models().find(name);
  if (it == models().end()) {
    std::fprintf(stderr, "bench_applications: unknown model %s\n", name.c_str());
    return 2;
  }
  keras::utils::set_random_seed(1234);
  auto model = it->second();
  if (!export_path.empty()) {
    model->export_(export_path);
    return 0;
  }
  const keras::Tensor images =
      keras::random::uniform({batch, 224, 224, 3}, -1.0, 1.0, keras::DType::Float32, 7);
  for (int i = 0; i < 3; ++i) model->predict_on_batch(images);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) model->predict_on_batch(images);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("ms_per_batch: %.6g\nsamples_per_s: %.6g\n", 1e3 * seconds / iters,
              batch * iters / seconds);
  return 0;
}
