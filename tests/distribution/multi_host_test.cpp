// Two "hosts" on one machine: network namespaces joined by a virtual Ethernet pair, each with its
// own address. `keras-cpp launch --hosts A,B` starts one process in each through a stand-in for
// ssh (`ip netns exec`), and the data-parallel MLP trains as on one process. Needs root and
// `ip netns` (skipped with one line otherwise).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "job_runner.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

int sh(const std::string& command) {
  int status = std::system((command + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Two namespaces, a veth pair between them, addresses 10.213.N.1 and 10.213.N.2.
struct TwoHosts {
  std::string a, b, ip_a, ip_b;
  bool ready = false;
  TwoHosts() {
    const int id = ::getpid() % 250;
    a = "keras_a" + std::to_string(::getpid());
    b = "keras_b" + std::to_string(::getpid());
    ip_a = "10.213." + std::to_string(id) + ".1";
    ip_b = "10.213." + std::to_string(id) + ".2";
    const std::string veth_a = "kva" + std::to_string(::getpid() % 100000);
    const std::string veth_b = "kvb" + std::to_string(::getpid() % 100000);
    ready = ::geteuid() == 0 && sh("ip netns add " + a) == 0 && sh("ip netns add " + b) == 0 &&
            sh("ip link add " + veth_a + " type veth peer name " + veth_b) == 0 &&
            sh("ip link set " + veth_a + " netns " + a) == 0 &&
            sh("ip link set " + veth_b + " netns " + b) == 0 &&
            sh("ip -n " + a + " addr add " + ip_a + "/24 dev " + veth_a) == 0 &&
            sh("ip -n " + b + " addr add " + ip_b + "/24 dev " + veth_b) == 0 &&
            sh("ip -n " + a + " link set " + veth_a + " up") == 0 &&
            sh("ip -n " + b + " link set " + veth_b + " up") == 0 &&
            sh("ip -n " + a + " link set lo up") == 0 && sh("ip -n " + b + " link set lo up") == 0;
  }
  ~TwoHosts() {
    sh("ip netns del " + a);  // removes the veth pair with it
    sh("ip netns del " + b);
  }
};

TEST(DataParallelJob, TwoHostsInNetworkNamespacesMatchOneProcess) {
  TwoHosts hosts;
  if (!hosts.ready) GTEST_SKIP() << "needs root and `ip netns` to make two hosts";
  // The launcher's ssh: runs the command in the namespace that owns the host's address (and
  // keeps this environment, which real ssh would not: KERAS_JOB_MODEL reaches the processes).
  const fs::path ssh = fs::temp_directory_path() / ("keras_netns_ssh_" + std::to_string(::getpid()));
  {
    std::ofstream script(ssh);
    script << "#!/bin/sh\n"
           << "# fake ssh: -o BatchMode=yes HOST COMMAND\n"
           << "host=\"$3\"; shift 3\n"
           << "case \"$host\" in " << hosts.ip_a << ") ns=" << hosts.a << ";; " << hosts.ip_b
           << ") ns=" << hosts.b << ";; *) exit 255;; esac\n"
           << "exec ip netns exec \"$ns\" sh -c \"$*\"\n";
  }
  fs::permissions(ssh, fs::perms::owner_all);
  const std::string out = (fs::temp_directory_path() / ("keras_netns_" + std::to_string(::getpid()))).string();
  const std::string command =
      "KERAS_LAUNCH_SSH=" + test::quoted(ssh.string()) + " KERAS_JOB_MODEL=mlp timeout -s KILL 120 " +
      test::quoted(KERAS_CLI_PATH) + " launch --tag-output -n 2 --hosts " + hosts.ip_a + "," +
      hosts.ip_b + " --port 29513 -- " + test::quoted(test::self_path()) +
      " --gtest_also_run_disabled_tests --gtest_brief=1 --gtest_filter=DISABLED_Job.MatchesOneProcess > " +
      out + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(out);
  fs::remove(ssh);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text.str();
  EXPECT_NE(text.str().find("[rank 1] max |weights - one process's|"), std::string::npos)
      << text.str();
}

}  // namespace
}  // namespace keras
