// keras-cpp launch -n N [--hosts h1,h2] [--port P] [...] [--] PROGRAM [ARGS...]: starts a job
// of N copies of PROGRAM that find each other through Keras's three distribution variables
// (keras::distribution::initialize reads them), here or over ssh, and supervises them: the
// first rank that fails stops the others, and the launcher exits with its code.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>

#include "commands.h"
#include "common.h"
#include "process_group.h"

namespace keras::cli {
namespace {

constexpr std::chrono::seconds kGrace{5};

struct LaunchArgs {
  int64_t processes = 0;
  std::string hosts, timeout;
  std::string device_backend;  // each rank on its own device of this backend
  int port = 0;
  int64_t devices_per_process = 0;
  bool tag_output = false;
};

// A port nobody listens on now (bind port 0, read it, close); process 0 binds it a moment
// later, so another program could take it in between (then pass --port).
int free_local_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  const int error = errno;
  if (fd >= 0) close(fd);
  if (!ok) throw UserError(std::string("cannot find a free port: ") + std::strerror(error));
  return ntohs(address.sin_port);
}

std::vector<std::string> split_hosts(const std::string& text) {
  std::vector<std::string> hosts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(',', start);
    std::string host = text.substr(start, end == std::string::npos ? end : end - start);
    if (host.empty() || host[0] == '-' ||
        host.find_first_of(" \t\n:'\"\\$`;&|<>()") != std::string::npos)
      throw UserError("--hosts '" + text + "': '" + host +
                      "' is not a host name (give them comma separated: h1,h2)");
    hosts.push_back(host);
    if (end == std::string::npos) return hosts;
    start = end + 1;
  }
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "127.0.0.1";
}

// A host that names this machine: its processes start here, without ssh.
bool is_this_machine(const std::string& host) {
  if (is_loopback(host)) return true;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return false;
  const std::string full = name;
  return host == full || host == full.substr(0, full.find('.'));
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `ssh -o BatchMode=yes HOST 'cd DIR && exec env VAR=... PROGRAM ARGS'`, each word quoted for
// the remote shell.
ChildCommand ssh_command(const std::string& host, const std::vector<std::string>& program,
                         const std::vector<std::string>& env) {
  const char* ssh = std::getenv("KERAS_LAUNCH_SSH");
  std::string remote =
      "cd " + shell_quote(std::filesystem::current_path().string()) + " && exec env";
  for (const auto& e : env) remote += " " + shell_quote(e);
  for (const auto& word : program) remote += " " + shell_quote(word);
  return {{ssh && *ssh ? ssh : "ssh", "-o", "BatchMode=yes", host, remote}, {}};
}

// The backend of the `local`-th rank on its machine with --device-backend NAME: NAME for the
// first (its first device: "cuda", "torch:cuda"), NAME:1, NAME:2, ... for the next, as the
// backends name their devices.
std::string rank_backend(const std::string& name, int64_t local) {
  return local == 0 ? name : name + ":" + std::to_string(local);
}

int run_launch(const LaunchArgs& args, std::vector<std::string> program) {
  // CLI11 leaves PROGRAM and what follows (an unknown option too) unparsed, after the "--"
  // that may separate them from launch's own options.
  if (!program.empty() && program[0] == "--") {
    program.erase(program.begin());
  } else if (!program.empty() && program[0].size() > 1 && program[0][0] == '-') {
    throw UserError("launch has no option " + program[0] +
                    " (see keras-cpp launch --help; put -- before a PROGRAM that starts with -)");
  }
  if (program.empty() || program[0].empty())
    throw UserError(
        "launch needs the PROGRAM to run: keras-cpp launch -n N [--] PROGRAM [ARGS...]");

  std::vector<std::string> hosts;
  std::string coordinator;
  int port = args.port;
  if (!args.hosts.empty()) {
    hosts = split_hosts(args.hosts);
    if (port == 0)
      throw UserError("--hosts needs --port: the port process 0 listens on at " + hosts[0] +
                      " for the others (one free on that host)");
    for (const auto& h : hosts)
      if (is_loopback(hosts[0]) && !is_this_machine(h))  // the others would dial themselves
        throw UserError("--hosts: the coordinator '" + hosts[0] + "' is this machine's loopback " +
                        "name, which '" + h + "' cannot reach: name this machine as the others " +
                        "know it");
    coordinator = hosts[0];
  } else {
    coordinator = "127.0.0.1";
    if (port == 0) port = free_local_port();
  }

  // The cores of this machine shared between its ranks, as torchrun sets OMP_NUM_THREADS:
  // ranks with a thread per core each would compete for the cores (and the waiting ones spin),
  // unless the user chose KERAS_CPU_THREADS.
  int64_t local_ranks = 0;
  for (int64_t rank = 0; rank < args.processes; ++rank)
    local_ranks += hosts.empty() || is_this_machine(hosts[rank % hosts.size()]);
  std::string threads;
  if (!std::getenv("KERAS_CPU_THREADS") && local_ranks > 0)
    threads = std::to_string(std::max<int64_t>(
        1, static_cast<int64_t>(std::thread::hardware_concurrency()) / local_ranks));

  ProcessGroup group(args.tag_output);
  for (int64_t rank = 0; rank < args.processes; ++rank) {
    std::vector<std::string> env = {
        "KERAS_DISTRIBUTION_JOB_ADDRESSES=" + coordinator + ":" + std::to_string(port),
        "KERAS_DISTRIBUTION_NUM_PROCESSES=" + std::to_string(args.processes),
        "KERAS_DISTRIBUTION_PROCESS_ID=" + std::to_string(rank)};
    if (args.devices_per_process > 0)
      env.push_back("KERAS_CPU_DEVICES_PER_PROCESS=" + std::to_string(args.devices_per_process));
    if (!args.timeout.empty()) env.push_back("KERAS_DISTRIBUTION_TIMEOUT=" + args.timeout);
    // Ranks go round-robin over the hosts, so rank r is the (r / hosts)-th on its machine.
    const int64_t local = hosts.empty() ? rank : rank / static_cast<int64_t>(hosts.size());
    if (!args.device_backend.empty())
      env.push_back("KERAS_BACKEND=" + rank_backend(args.device_backend, local));
    const std::string host = hosts.empty() ? "" : hosts[rank % hosts.size()];
    if (host.empty() || is_this_machine(host)) {
      if (!threads.empty()) env.push_back("KERAS_CPU_THREADS=" + threads);
      group.start({program, env});
    }
    else
      group.start(ssh_command(host, program, env));
  }
  return group.wait(kGrace);
}

}  // namespace

void add_launch(CLI::App& app) {
  auto args = std::make_shared<LaunchArgs>();
  auto* cmd = app.add_subcommand(
      "launch",
      "Start N processes of PROGRAM as one distributed job (KERAS_DISTRIBUTION_* set for "
      "keras::distribution::initialize), here or over ssh, and supervise them");
  cmd->add_option("-n,--num-processes", args->processes, "Number of processes (ranks)")
      ->required()
      ->check(whole_number(1));
  cmd->add_option("--hosts", args->hosts,
                  "Comma-separated hosts, ranks placed round-robin, rank 0 on the first; the "
                  "others started over ssh (default: all here)");
  cmd->add_option("--port", args->port,
                  "Port rank 0 listens on for the rendezvous (default: a free one; required "
                  "with --hosts)")
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--devices-per-process", args->devices_per_process,
                  "Virtual cpu devices per process (KERAS_CPU_DEVICES_PER_PROCESS)")
      ->check(whole_number(1));
  cmd->add_option("--device-backend", args->device_backend,
                  "Each rank on its own device of this backend (KERAS_BACKEND): NAME for the "
                  "first rank on a machine, NAME:1, NAME:2, ... for the next (cuda, torch:cuda)");
  cmd->add_option("--timeout", args->timeout,
                  "Seconds a collective waits for the other ranks (KERAS_DISTRIBUTION_TIMEOUT)")
      ->check(CLI::Validator(
          [](std::string& text) {
            char* end = nullptr;
            const double seconds = std::strtod(text.c_str(), &end);
            return end != text.c_str() && *end == '\0' && seconds > 0
                       ? std::string()
                       : "'" + text + "' is not a number of seconds > 0";
          },
          "SECONDS", ""));
  cmd->add_flag("--tag-output", args->tag_output,
                "Prefix each line a process writes with [rank r]");
  // PROGRAM and its arguments stay unparsed (prefix_command). The positional below never takes
  // a value (its check refuses all, validate_positionals skips it): it names PROGRAM in --help
  // and keeps the "--" before PROGRAM in this subcommand (CLI11 2.1 hands what follows "--" to
  // the parent app when a subcommand has no positional left).
  cmd->add_option("PROGRAM", "The program to run (looked up on PATH), then its arguments")
      ->check(CLI::Validator([](std::string&) { return std::string("unparsed"); }, "", ""));
  cmd->validate_positionals();
  cmd->prefix_command();
  cmd->callback([args, cmd] {
    const int code = run_launch(*args, cmd->remaining());
    if (code != 0) throw ExitCode{code};
  });
}

}  // namespace keras::cli
