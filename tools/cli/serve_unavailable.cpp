// `keras-cpp serve` in a build without the server (-DKERAS_BUILD_SERVING=OFF, for machines
// without Boost and gRPC): the command exists, takes any arguments, and says what is missing.
#include <string>
#include <vector>

#include "commands.h"
#include "common.h"

namespace keras::cli {

void add_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Serve a model (not in this build: see its error)");
  cmd->allow_extras();
  cmd->callback([] {
    throw UserError(
        "this keras-cpp was built without its model server "
        "(-DKERAS_BUILD_SERVING=OFF): rebuild with it ON, which needs Boost and gRPC "
        "(apt-get install -y libboost-dev libgrpc++-dev protobuf-compiler "
        "protobuf-compiler-grpc)");
  });
}

}  // namespace keras::cli
