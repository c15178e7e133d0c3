// `keras-cpp serve --grpc-port` as a process: it prints its gRPC port beside the REST one,
// answers Predict with the model's outputs (over TLS with --grpc-ssl-cert and --grpc-ssl-key),
// exits 0 on SIGTERM, and exits 1 with the reason when the gRPC port is taken or TLS files come
// without --grpc-port.

#include <filesystem>

#include "grpc_test_helpers.h"
#include "serve_process.h"

namespace keras::grpc_test {
namespace {

std::string model_file() {
  auto x = Input({4}, {.name = "x"});
  auto path = std::filesystem::temp_directory_path() / "keras_cli_grpc_test.keras";
  Functional(x, layers::Dense(2, {.name = "y"})(x))->save(path.string());
  return path.string();
}

TEST(CliGrpc, ServesPredictAndStopsOnSigterm) {
  const std::string file = model_file();
  ServeProcess p({"serve", file, "--name", "tiny", "--port", "0", "--grpc-port", "0", "--host",
                  "127.0.0.1", "--poll-interval-s", "0"});
  std::smatch m = p.wait_for(std::regex("grpc listening on port (\\d+)"));
  ASSERT_FALSE(m.empty()) << p.text;
  const std::string port = m[1];
  auto channel = grpc::CreateChannel("127.0.0.1:" + port, grpc::InsecureChannelCredentials());
  auto stub = tfs::PredictionService::NewStub(channel);
  tfs::PredictRequest request;
  request.mutable_model_spec()->set_name("tiny");
  Tensor x = random::normal({3, 4}, 0, 1, float32, 8);
  (*request.mutable_inputs())["x"] = float_tensor(x);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  tfs::PredictResponse response;
  grpc::Status status = stub->Predict(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  auto model = saving::load_model(file, {.compile = false});
  EXPECT_EQ(floats_of(response.outputs().at("y")),
            model->predict(x, {.verbose = 0}).single().to_vector<float>());
  kill(p.pid, SIGTERM);
  EXPECT_EQ(p.wait_exit(), 0) << p.text;

  // Its gRPC port taken by another server: exit 1, naming the flag.
  Served holder;
  holder.models.add("tiny", model);
  holder.start();
  ServeProcess busy({"serve", file, "--port", "0", "--grpc-port",
                     std::to_string(holder.server->port()), "--host", "127.0.0.1"});
  EXPECT_EQ(busy.wait_exit(), 1) << busy.text;
  EXPECT_NE(busy.text.find("pick another --grpc-port"), std::string::npos) << busy.text;
  std::filesystem::remove(file);
}

TEST(CliGrpc, TlsFlags) {
  const std::string file = model_file();
  ServeProcess p({"serve", file, "--name", "tiny", "--port", "0", "--grpc-port", "0", "--host",
                  "127.0.0.1", "--poll-interval-s", "0", "--grpc-ssl-cert", tls_file("server.crt"),
                  "--grpc-ssl-key", tls_file("server.key")});
  std::smatch m = p.wait_for(std::regex("grpc listening on port (\\d+)"));
  ASSERT_FALSE(m.empty()) << p.text;
  grpc::SslCredentialsOptions trust;
  trust.pem_root_certs = read_file(tls_file("server.crt"));
  grpc::Status status = predict_through(grpc::SslCredentials(trust), std::stoi(m[1].str()), "tiny");
  EXPECT_TRUE(status.ok()) << status.error_message();
  kill(p.pid, SIGTERM);
  EXPECT_EQ(p.wait_exit(), 0) << p.text;
  // TLS files without --grpc-port: exit 1, saying so.
  ServeProcess alone({"serve", file, "--port", "0", "--grpc-ssl-cert", tls_file("server.crt")});
  EXPECT_EQ(alone.wait_exit(), 1) << alone.text;
  EXPECT_NE(alone.text.find("give --grpc-port too"), std::string::npos) << alone.text;
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace keras::grpc_test
