// bench_grpc_load ADDRESS MODEL INPUT CONNECTIONS SECONDS: the gRPC side of bench/serve.sh, a
// load generator for TF Serving's PredictionService.Predict (there is no gRPC load tool in
// Debian). CONNECTIONS channels (one TCP connection each), each keeping one call in flight, as
// wrk's connections do; each call one Fashion-MNIST test image (scaled to [0, 1], 256 images
// round robin) as a float32 tensor_content of shape (1, 28, 28, 1). Prints
// "rps p50_ms p99_ms errors" after SECONDS (calls still in flight then are waited for, not
// counted).
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "tensorflow_serving/apis/prediction_service.grpc.pb.h"

namespace {

namespace tfs = tensorflow::serving;
using Clock = std::chrono::steady_clock;

// One connection's loop: a call, and at its end the next, until the time is up.
struct Connection {
  std::unique_ptr<tfs::PredictionService::Stub> stub;
  const std::vector<tfs::PredictRequest>* requests = nullptr;
  size_t next = 0;
  Clock::time_point end, started;
  std::unique_ptr<grpc::ClientContext> context;
  tfs::PredictResponse response;
  std::vector<double> latencies_ms;
  int errors = 0;
  std::mutex* mutex = nullptr;
  std::condition_variable* done = nullptr;
  int* running = nullptr;

  void call() {
    context = std::make_unique<grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    started = Clock::now();
    const tfs::PredictRequest& request = (*requests)[next++ % requests->size()];
    stub->async()->Predict(context.get(), &request, &response, [this](grpc::Status status) {
      const auto now = Clock::now();
      if (now <= end) {
        if (status.ok())
          latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - started).count());
        else
          ++errors;
      }
      if (now < end) {
        call();
        return;
      }
      std::lock_guard<std::mutex> lock(*mutex);
      if (--*running == 0) done->notify_all();
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: bench_grpc_load ADDRESS MODEL INPUT CONNECTIONS SECONDS\n";
    return 2;
  }
  const std::string address = argv[1], model = argv[2], input = argv[3];
  const int connections = std::stoi(argv[4]);
  const double seconds = std::stod(argv[5]);
  auto [train, test] = keras::datasets::fashion_mnist::load_data();
  const int n = 256;
  std::vector<float> pixels =
      (test.first.slice({{0, n}}).astype(keras::float32) / 255.0f).to_vector<float>();
  std::vector<tfs::PredictRequest> requests(n);
  for (int i = 0; i < n; ++i) {
    requests[i].mutable_model_spec()->set_name(model);
    tensorflow::TensorProto& t = (*requests[i].mutable_inputs())[input];
    t.set_dtype(tensorflow::DT_FLOAT);
    for (int64_t d : {1, 28, 28, 1}) t.mutable_tensor_shape()->add_dim()->set_size(d);
    t.set_tensor_content(pixels.data() + i * 784, 784 * sizeof(float));
  }
  std::mutex mutex;
  std::condition_variable done;
  int running = connections;
  std::vector<Connection> conns(static_cast<size_t>(connections));
  for (int c = 0; c < connections; ++c) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);  // a TCP connection of its own
    auto channel = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
    Connection& k = conns[static_cast<size_t>(c)];
    k.stub = tfs::PredictionService::NewStub(channel);
    k.requests = &requests;
    k.next = static_cast<size_t>(c) * 7;
    k.mutex = &mutex;
    k.done = &done;
    k.running = &running;
    // A first call outside the timed window: the connection is up before the clock starts.
    grpc::ClientContext warm;
    tfs::PredictResponse r;
    if (!k.stub->Predict(&warm, requests[0], &r).ok()) {
      std::cerr << "bench_grpc_load: no answer from " << address << "\n";
      return 1;
    }
  }
  const auto start = Clock::now();
  const auto end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (Connection& k : conns) {
    k.end = end;
    k.call();
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return running == 0; });
  }
  std::vector<double> all;
  int errors = 0;
  for (Connection& k : conns) {
    all.insert(all.end(), k.latencies_ms.begin(), k.latencies_ms.end());
    errors += k.errors;
  }
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) {
    return all.empty() ? 0.0 : all[static_cast<size_t>(p * static_cast<double>(all.size() - 1))];
  };
  std::printf("%.1f %.3f %.3f %d\n", static_cast<double>(all.size()) / seconds, pct(0.5), pct(0.99),
              errors);
  return 0;
}
