// gRPC over TLS (GrpcOptions' ssl_* files, keras-cpp serve's --grpc-ssl-*): a client that trusts
// the server's certificate gets Predict's answer, a plaintext client gets none; with client CAs,
// only a client presenting a certificate they signed is served; a certificate without its key, an
// unreadable file or client CAs without TLS are clear errors. The certificates are test-only
// (tests/serving_grpc/tls/README.md).

#include "grpc_test_helpers.h"
#include "serving_models.h"

namespace keras::grpc_test {
namespace {

grpc::SslCredentialsOptions trusting_the_server() {
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = read_file(tls_file("server.crt"));
  return options;
}

TEST(GrpcTls, ServesTrustingClientsOnly) {
  serving::ModelRegistry models;
  models.add("small", serving_test::small_model());
  serving::GrpcServer server(models, {.host = "127.0.0.1",
                                      .port = 0,
                                      .ssl_cert_file = tls_file("server.crt"),
                                      .ssl_key_file = tls_file("server.key")});
  grpc::Status ok =
      predict_through(grpc::SslCredentials(trusting_the_server()), server.port(), "small");
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_FALSE(predict_through(grpc::InsecureChannelCredentials(), server.port(), "small").ok());
  // A client that trusts another authority (the client certificate's) refuses the server.
  grpc::SslCredentialsOptions other;
  other.pem_root_certs = read_file(tls_file("client.crt"));
  EXPECT_FALSE(predict_through(grpc::SslCredentials(other), server.port(), "small").ok());
}

TEST(GrpcTls, ClientCertificatesWhenClientCasAreGiven) {
  serving::ModelRegistry models;
  models.add("small", serving_test::small_model());
  serving::GrpcServer server(models, {.host = "127.0.0.1",
                                      .port = 0,
                                      .ssl_cert_file = tls_file("server.crt"),
                                      .ssl_key_file = tls_file("server.key"),
                                      .ssl_client_ca_file = tls_file("client.crt")});
  grpc::SslCredentialsOptions with_certificate = trusting_the_server();
  with_certificate.pem_private_key = read_file(tls_file("client.key"));
  with_certificate.pem_cert_chain = read_file(tls_file("client.crt"));
  grpc::Status ok = predict_through(grpc::SslCredentials(with_certificate), server.port(), "small");
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_FALSE(
      predict_through(grpc::SslCredentials(trusting_the_server()), server.port(), "small").ok());
  // A certificate the client CAs did not sign (the server's own) is refused too.
  grpc::SslCredentialsOptions wrong = trusting_the_server();
  wrong.pem_private_key = read_file(tls_file("server.key"));
  wrong.pem_cert_chain = read_file(tls_file("server.crt"));
  EXPECT_FALSE(predict_through(grpc::SslCredentials(wrong), server.port(), "small").ok());
}

TEST(GrpcTls, ConfigurationErrorsSayWhatIsWrong) {
  serving::ModelRegistry models;
  models.add("small", serving_test::small_model());
  auto start = [&](serving::GrpcOptions options) {
    options.host = "127.0.0.1";
    options.port = 0;
    serving::GrpcServer server(models, options);
  };
  auto message = [&](serving::GrpcOptions options) {
    try {
      start(std::move(options));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THROW(start({.ssl_cert_file = tls_file("server.crt")}), ValueError);
  EXPECT_NE(message({.ssl_cert_file = tls_file("server.crt")}).find("--grpc-ssl-key"),
            std::string::npos);
  EXPECT_THROW(start({.ssl_client_ca_file = tls_file("client.crt")}), ValueError);
  EXPECT_THROW(start({.ssl_cert_file = "/no/such.crt", .ssl_key_file = tls_file("server.key")}),
               IOError);
  EXPECT_NE(
      message({.ssl_cert_file = tls_file("README.md"), .ssl_key_file = tls_file("server.key")})
          .find("as a PEM file"),
      std::string::npos);
  // A PEM certificate with the other certificate's key: gRPC cannot use the pair.
  EXPECT_THROW(
      start({.ssl_cert_file = tls_file("server.crt"), .ssl_key_file = tls_file("client.key")}),
      IOError);
}

}  // namespace
}  // namespace keras::grpc_test
