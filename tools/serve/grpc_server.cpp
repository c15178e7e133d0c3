#include "serve/grpc_server.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "keras/core/errors.h"
#include "serve/tensor_proto.h"
#include "tensorflow/core/protobuf/error_codes.pb.h"
#include "tensorflow_serving/apis/model_service.grpc.pb.h"
#include "tensorflow_serving/apis/prediction_service.grpc.pb.h"

namespace keras::serving {
namespace {

namespace tfs = tensorflow::serving;

// A call's failure: the gRPC status it ends with.
struct CallError {
  grpc::StatusCode code;
  std::string message;
};

std::string quoted_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out.empty() ? "none" : out;
}

// The served version a ModelSpec names, by TF Serving's rules: its version, else its label,
// else the highest.
ServedModel resolve(ModelRegistry& models, const tfs::ModelSpec& spec) {
  const std::string& name = spec.name();
  const std::string served = " (served models: " + quoted_names(models.names()) + ")";
  if (name.empty())
    throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                    "model_spec.name is empty: name the model to run" + served};
  std::optional<ServedModel> model;
  if (spec.has_version()) {
    const int64_t version = spec.version().value();
    model = models.find(name, version);
    if (!model)
      throw CallError{grpc::StatusCode::NOT_FOUND, "Servable not found for request: Specific(" +
                                                       name + ", " + std::to_string(version) + ")" +
                                                       served};
  } else if (spec.version_choice_case() == tfs::ModelSpec::kVersionLabel) {
    std::optional<int64_t> version = models.label_version(name, spec.version_label());
    if (version) model = models.find(name, *version);
    if (!model)
      throw CallError{grpc::StatusCode::NOT_FOUND, "Servable not found for request: label '" +
                                                       spec.version_label() + "' of model '" +
                                                       name + "'" + served};
  } else {
    model = models.find(name);
    if (!model)
      throw CallError{grpc::StatusCode::NOT_FOUND,
                      "Servable not found for request: Latest(" + name + ")" + served};
  }
  return *model;
}

void check_signature_name(const std::string& signature_name) {
  if (!signature_name.empty() && signature_name != "serving_default")
    throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                    "Serving signature name: \"" + signature_name +
                        "\" not found in signature def: keras-cpp serves \"serving_default\""};
}

void set_spec(tfs::ModelSpec& out, const ServedModel& model) {
  out.set_name(model.name);
  out.mutable_version()->set_value(model.version);
  out.set_signature_name("serving_default");
}

// The name of a gRPC status code ("OK", "NOT_FOUND"): gRPC's codes are TensorFlow's.
std::string code_name(const grpc::Status& status) {
  const auto code = static_cast<tensorflow::error::Code>(status.error_code());
  return tensorflow::error::Code_IsValid(code) ? tensorflow::error::Code_Name(code)
                                               : std::to_string(status.error_code());
}

// Runs `body`, turning what it throws into the call's status.
template <typename Body>
grpc::Status answer(Body body) {
  try {
    body();
    return grpc::Status::OK;
  } catch (const CallError& e) {
    return {e.code, e.message};
  } catch (const QueueFullError& e) {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, e.what()};
  } catch (const ShuttingDownError& e) {
    return {grpc::StatusCode::UNAVAILABLE, e.what()};
  } catch (const DeadlineExceededError& e) {
    return {grpc::StatusCode::DEADLINE_EXCEEDED, e.what()};
  } catch (const ValueError& e) {
    return {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
  } catch (const TypeError& e) {
    return {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
  } catch (const std::exception& e) {
    return {grpc::StatusCode::INTERNAL, std::string("internal error: ") + e.what()};
  }
}

// The Predict calls being answered, so that a shutdown drains them before it closes the
// connections (gRPC's own graceful Shutdown() also waits for idle clients to acknowledge it).
class Drain {
 public:
  // Counts a call in; false once draining (the call is then refused).
  bool enter() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (draining_) return false;
    ++calls_;
    return true;
  }
  void leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--calls_ == 0) idle_.notify_all();
  }
  // Refuses new calls and waits (up to `limit`) for the calls in flight.
  void drain(std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    draining_ = true;
    idle_.wait_for(lock, limit, [this] { return calls_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable idle_;
  int64_t calls_ = 0;
  bool draining_ = false;
};

// Predict answers from the batching worker (gRPC's callback API: no thread waits for the
// model); the other calls answer at once.
class PredictionService final
    : public tfs::PredictionService::WithCallbackMethod_Predict<tfs::PredictionService::Service> {
 public:
  PredictionService(ModelRegistry& models, const GrpcOptions& options, Drain& drain)
      : models_(models), options_(options), drain_(drain) {}

  grpc::ServerUnaryReactor* Predict(grpc::CallbackServerContext* context,
                                    const tfs::PredictRequest* request,
                                    tfs::PredictResponse* response) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (!drain_.enter()) {
      models_.metrics().record_grpc_call("Predict", "UNAVAILABLE");
      reactor->Finish({grpc::StatusCode::UNAVAILABLE, "the server is shutting down"});
      return reactor;
    }
    const auto arrived = std::chrono::steady_clock::now();
    Finish finish = [this, reactor, arrived](grpc::Status status) {
      std::chrono::duration<double> took = std::chrono::steady_clock::now() - arrived;
      models_.metrics().record_latency(took.count());
      models_.metrics().record_grpc_call("Predict", code_name(status));
      reactor->Finish(std::move(status));
      drain_.leave();
    };
    // Failures before the request is queued end the call here; after, the worker ends it.
    grpc::Status status = answer([&] { predict(*context, *request, *response, arrived, finish); });
    if (!status.ok()) finish(std::move(status));
    return reactor;
  }

  grpc::Status GetModelMetadata(grpc::ServerContext*, const tfs::GetModelMetadataRequest* request,
                                tfs::GetModelMetadataResponse* response) override {
    grpc::Status status = answer([&] { metadata(*request, *response); });
    models_.metrics().record_grpc_call("GetModelMetadata", code_name(status));
    return status;
  }

 private:
  using Finish = std::function<void(grpc::Status)>;

  // Checks and queues the request; `finish` ends the call once the model answered.
  void predict(const grpc::ServerContextBase& context, const tfs::PredictRequest& request,
               tfs::PredictResponse& response, std::chrono::steady_clock::time_point arrived,
               const Finish& finish) {
    const ServedModel model = resolve(models_, request.model_spec());
    check_signature_name(request.model_spec().signature_name());
    const Signature& signature = model.server->signature();
    // The inputs by name, each as the model takes it.
    std::vector<std::string> input_names;
    for (const TensorSpec& spec : signature.inputs) input_names.push_back(spec.name);
    for (const auto& [name, tensor] : request.inputs())
      if (std::find(input_names.begin(), input_names.end(), name) == input_names.end())
        throw CallError{
            grpc::StatusCode::INVALID_ARGUMENT,
            "unknown input '" + name + "': the model's inputs are " + quoted_names(input_names)};
    const size_t max_bytes = 4 * static_cast<size_t>(options_.max_message_bytes);
    std::vector<HostArray> inputs;
    for (const TensorSpec& spec : signature.inputs) {
      auto it = request.inputs().find(spec.name);
      if (it == request.inputs().end())
        throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                        "input '" + spec.name + "' is missing: the model's inputs are " +
                            quoted_names(input_names)};
      inputs.push_back(host_array_from_proto(it->second, spec, max_bytes));
      if (inputs.back().rows() != inputs.front().rows())
        throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                        "input '" + spec.name + "' has " + std::to_string(inputs.back().rows()) +
                            " rows and '" + signature.inputs[0].name + "' has " +
                            std::to_string(inputs.front().rows()) +
                            ": every input needs the same number of rows"};
    }
    // The outputs asked for (all when none is named).
    std::vector<size_t> wanted;
    for (const std::string& name : request.output_filter()) {
      auto it = std::find_if(signature.outputs.begin(), signature.outputs.end(),
                             [&](const TensorSpec& s) { return s.name == name; });
      if (it == signature.outputs.end()) {
        std::vector<std::string> names;
        for (const TensorSpec& s : signature.outputs) names.push_back(s.name);
        throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                        "output_filter names '" + name +
                            "', not an output: the model's outputs are " + quoted_names(names)};
      }
      wanted.push_back(static_cast<size_t>(it - signature.outputs.begin()));
    }
    if (wanted.empty())
      for (size_t i = 0; i < signature.outputs.size(); ++i) wanted.push_back(i);
    // The request's deadline: the server's timeout, or the client's if sooner.
    auto deadline = arrived + options_.request_timeout;
    const auto client_left = context.deadline() - std::chrono::system_clock::now();
    if (client_left < options_.request_timeout)
      deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(client_left);
    model.server->submit(std::move(inputs), deadline,
                         [model, wanted, &response, finish](std::vector<HostArray> outputs,
                                                            std::exception_ptr error) {
                           finish(answer([&] {
                             if (error) std::rethrow_exception(error);
                             const Signature& signature = model.server->signature();
                             auto& out = *response.mutable_outputs();
                             for (size_t i : wanted)
                               out[signature.outputs[i].name] =
                                   proto_from_host_array(outputs[i], signature.outputs[i]);
                             set_spec(*response.mutable_model_spec(), model);
                           }));
                         });
  }

  void metadata(const tfs::GetModelMetadataRequest& request,
                tfs::GetModelMetadataResponse& response) {
    const ServedModel model = resolve(models_, request.model_spec());
    bool signature_def = false;
    for (const std::string& field : request.metadata_field()) {
      if (field != "signature_def")
        throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                        "Metadata field " + field + " is not supported: ask for signature_def"};
      signature_def = true;
    }
    if (!signature_def)
      throw CallError{grpc::StatusCode::INVALID_ARGUMENT,
                      "GetModelMetadataRequest must specify at least one metadata_field: "
                      "signature_def"};
    const Signature& signature = model.server->signature();
    auto tensors = [](const std::vector<TensorSpec>& specs,
                      google::protobuf::Map<std::string, tensorflow::TensorInfo>& out) {
      for (const TensorSpec& spec : specs) {
        tensorflow::TensorInfo& info = out[spec.name];
        info.set_name(spec.name);
        info.set_dtype(wire_dtype(spec.dtype));
        for (int64_t d : spec.shape) info.mutable_tensor_shape()->add_dim()->set_size(d);
      }
    };
    tfs::SignatureDefMap map;
    tensorflow::SignatureDef& def = (*map.mutable_signature_def())["serving_default"];
    tensors(signature.inputs, *def.mutable_inputs());
    tensors(signature.outputs, *def.mutable_outputs());
    def.set_method_name("tensorflow/serving/predict");
    (*response.mutable_metadata())["signature_def"].PackFrom(map);
    set_spec(*response.mutable_model_spec(), model);
  }

  ModelRegistry& models_;
  const GrpcOptions& options_;
  Drain& drain_;
};

class ModelService final : public tfs::ModelService::Service {
 public:
  explicit ModelService(ModelRegistry& models) : models_(models) {}

  grpc::Status GetModelStatus(grpc::ServerContext*, const tfs::GetModelStatusRequest* request,
                              tfs::GetModelStatusResponse* response) override {
    grpc::Status result = answer([&] {
      const tfs::ModelSpec& spec = request->model_spec();
      const ServedModel model = resolve(models_, spec);
      // A version or a label: that version; neither: every served version.
      const bool one =
          spec.has_version() || spec.version_choice_case() == tfs::ModelSpec::kVersionLabel;
      for (int64_t v : one ? std::vector<int64_t>{model.version} : models_.versions(spec.name())) {
        tfs::ModelVersionStatus& status = *response->add_model_version_status();
        status.set_version(v);
        status.set_state(tfs::ModelVersionStatus::AVAILABLE);
        status.mutable_status()->set_error_code(tensorflow::error::OK);
      }
    });
    models_.metrics().record_grpc_call("GetModelStatus", code_name(result));
    return result;
  }

 private:
  ModelRegistry& models_;
};

std::string read_pem(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in || text.str().find("-----BEGIN") == std::string::npos)
    throw IOError("cannot read " + what + " '" + path + "' as a PEM file");
  return text.str();
}

// Plain TCP, or TLS (with client certificates when client CAs are given).
std::shared_ptr<grpc::ServerCredentials> server_credentials(const GrpcOptions& o) {
  if (o.ssl_cert_file.empty() != o.ssl_key_file.empty())
    throw ValueError(
        "TLS needs both a certificate and its private key (--grpc-ssl-cert and "
        "--grpc-ssl-key); one was given without the other");
  if (o.ssl_cert_file.empty()) {
    if (!o.ssl_client_ca_file.empty())
      throw ValueError("--grpc-ssl-client-ca needs TLS: give --grpc-ssl-cert and --grpc-ssl-key");
    return grpc::InsecureServerCredentials();
  }
  const bool verify = !o.ssl_client_ca_file.empty();
  grpc::SslServerCredentialsOptions ssl(
      verify ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
             : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  if (verify) ssl.pem_root_certs = read_pem(o.ssl_client_ca_file, "the client CA file");
  ssl.pem_key_cert_pairs.push_back({read_pem(o.ssl_key_file, "the TLS private key"),
                                    read_pem(o.ssl_cert_file, "the TLS certificate")});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

struct GrpcServer::Impl {
  GrpcOptions options;
  Drain drain;
  PredictionService prediction;
  ModelService model_service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  std::once_flag stopped;

  Impl(ModelRegistry& models, GrpcOptions opts)
      : options(std::move(opts)), prediction(models, options, drain), model_service(models) {}
};

GrpcServer::GrpcServer(ModelRegistry& models, GrpcOptions options)
    : impl_(std::make_unique<Impl>(models, std::move(options))) {
  const GrpcOptions& o = impl_->options;
  if (o.port < 0 || o.port > 65535)
    throw ValueError("gRPC port " + std::to_string(o.port) + " is not a TCP port (0 to 65535)");
  grpc::ServerBuilder builder;
  // IPv6 literals need brackets in a gRPC address.
  const std::string host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  builder.AddListeningPort(host + ":" + std::to_string(o.port), server_credentials(o),
                           &impl_->port);
  builder.SetMaxReceiveMessageSize(o.max_message_bytes);
  // gRPC shares a port with SO_REUSEPORT by default: a second server on a busy port would then
  // take some of the first one's calls instead of failing to start.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(&impl_->prediction);
  builder.RegisterService(&impl_->model_service);
  impl_->server = builder.BuildAndStart();
  if (!impl_->server || impl_->port == 0)
    throw IOError("gRPC could not listen on " + host + ":" + std::to_string(o.port) +
                  (o.ssl_cert_file.empty()
                       ? " (in use, or not an address of this machine): pick another --grpc-port"
                       : " (in use, not an address of this machine, or " + o.ssl_cert_file +
                             " and " + o.ssl_key_file +
                             " are not a PEM certificate and its key): pick another "
                             "--grpc-port, or check the files"));
}

GrpcServer::~GrpcServer() {
  shutdown();
}

int GrpcServer::port() const {
  return impl_->port;
}

void GrpcServer::shutdown() {
  std::call_once(impl_->stopped, [this] {
    if (!impl_->server) return;
    // Predict calls in flight get their answers (the models still run); then every
    // connection closes at once.
    impl_->drain.drain(impl_->options.request_timeout);
    impl_->server->Shutdown(std::chrono::system_clock::now());
  });
}

}  // namespace keras::serving
