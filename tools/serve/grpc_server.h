#pragma once
// keras::serving::GrpcServer: TensorFlow Serving's gRPC API on a ModelRegistry, beside the REST
// API (HttpServer) and on the same models, queues and batching: PredictionService.Predict and
// GetModelMetadata, ModelService.GetModelStatus (the messages: serve/proto, TF Serving's field
// numbers). A client of TF Serving (tensorflow-serving-api's PredictionServiceStub, or one
// generated from TF Serving's protos in any language) talks to it unchanged. Classify, Regress,
// MultiInference (tf.Example inputs) and HandleReloadConfigRequest answer UNIMPLEMENTED.
// Errors are gRPC statuses with TF Serving's codes: INVALID_ARGUMENT (the request), NOT_FOUND
// (the model or version), RESOURCE_EXHAUSTED (a full queue), DEADLINE_EXCEEDED, UNAVAILABLE
// (shutting down).

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "serve/model_registry.h"

namespace keras::serving {

struct GrpcOptions {
  std::string host = "0.0.0.0";
  int port = 8500;  // TF Serving's gRPC port; 0: any free port (port() says which)
  /// A Predict not answered this long after it arrived (or by the client's deadline, if
  /// sooner) ends DEADLINE_EXCEEDED.
  std::chrono::milliseconds request_timeout{30000};
  /// The largest request message (gRPC's receive limit) and, four times over, the largest
  /// input a request may make (a short typed list fills its shape).
  int max_message_bytes = 64 << 20;
  /// TLS (TF Serving's ssl_config): the server's certificate chain and private key, PEM files;
  /// both empty: plain TCP.
  std::string ssl_cert_file, ssl_key_file;
  /// With TLS: a PEM file of the certificate authorities whose client certificates are
  /// accepted; every client must then present one (mutual TLS). Empty: no client certificate.
  std::string ssl_client_ca_file;
};

class GrpcServer {
 public:
  /// Listens on `options.host`:`options.port` and serves until shutdown(). IOError when
  /// the port cannot be bound or a TLS file cannot be read or used; ValueError for a
  /// certificate without its key (or the reverse), or client CAs without TLS.
  GrpcServer(ModelRegistry& models, GrpcOptions options = {});
  /// shutdown().
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  /// The port it listens on.
  int port() const;
  /// Refuses new Predict calls (UNAVAILABLE), waits for those in flight (up to the request
  /// timeout), then closes every connection. Idempotent.
  void shutdown();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keras::serving
