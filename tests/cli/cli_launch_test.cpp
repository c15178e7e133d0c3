// keras-cpp launch: the variables each rank gets, --tag-output, supervision (a failed or killed
// rank stops the others, none survives, the launcher exits with its code; SIGTERM forwarded),
// exec failures, bad arguments, and --hosts through a fake ssh that runs the command here.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "cli_runner.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the CLI helpers

const std::string kPrintVariables =
    "echo $KERAS_DISTRIBUTION_PROCESS_ID $KERAS_DISTRIBUTION_NUM_PROCESSES "
    "$KERAS_DISTRIBUTION_JOB_ADDRESSES";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> sorted_lines(const std::string& text) {
  auto out = lines(text);
  std::sort(out.begin(), out.end());
  return out;
}

// A fresh, empty file the ranks append their pids to.
std::string pid_file(const std::string& name) {
  const std::string path = cli_path(name);
  std::filesystem::remove(path);
  return path;
}

// The pids in `path` (one per line), each checked gone (kill(pid, 0) fails).
void expect_all_gone(const std::string& path, size_t expected) {
  auto pids = lines(read_text(path));
  EXPECT_EQ(pids.size(), expected) << read_text(path);
  for (const auto& p : pids) {
    const pid_t pid = std::stoi(p);
    EXPECT_NE(::kill(pid, 0), 0) << "rank process " << pid << " survived the launcher";
    if (::kill(pid, 0) == 0) ::kill(pid, SIGKILL);
  }
}

// Shell code that waits (at most 5 s) until `path` has `n` lines.
std::string wait_for_lines(const std::string& path, int n) {
  return "i=0; while [ $(cat " + shell_quote(path) + " 2>/dev/null | wc -l) -lt " +
         std::to_string(n) + " ] && [ $i -lt 250 ]; do sleep 0.02; i=$((i+1)); done; ";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(CliLaunch, EveryRankGetsTheVariables) {
  auto r = run_cli({"launch", "-n", "3", "sh", "-c", kPrintVariables});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto out = sorted_lines(r.out);
  ASSERT_EQ(out.size(), 3u) << r.out;
  const std::string address = out[0].substr(out[0].rfind(' ') + 1);
  ASSERT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  const int port = std::stoi(address.substr(10));
  EXPECT_GT(port, 0);
  EXPECT_LE(port, 65535);
  for (int rank = 0; rank < 3; ++rank) EXPECT_EQ(out[rank], std::to_string(rank) + " 3 " + address);

  r = run_cli({"launch", "-n", "2", "--port", "29511", "--devices-per-process", "4", "--timeout",
               "2.5", "--", "sh", "-c",
               kPrintVariables + " $KERAS_CPU_DEVICES_PER_PROCESS $KERAS_DISTRIBUTION_TIMEOUT"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out),
            (std::vector<std::string>{"0 2 127.0.0.1:29511 4 2.5", "1 2 127.0.0.1:29511 4 2.5"}));
}

TEST(CliLaunch, ArgumentsAfterTheProgramAreItsOwn) {
  // -n and --tag-output after PROGRAM go to it, as do those after a "--" that follows it.
  auto r = run_cli({"launch", "-n", "1", "sh", "-c", "printf '%s|' \"$@\"", "x", "-n", "5",
                    "--tag-output", "--", "y"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "-n|5|--tag-output|--|y|");
}

TEST(CliLaunch, TagOutputPrefixesWholeLines) {
  auto r = run_cli({"launch", "-n", "2", "--tag-output", "--", "sh", "-c",
                    "echo one; echo two >&2; echo three; printf unfinished"});
  ASSERT_EQ(r.code, 0) << r.err;
  // The ranks' lines interleave in any order, each whole, each rank's in its order; the
  // unfinished last line is ended.
  auto of_rank = [](const std::string& text, const std::string& rank) {
    std::vector<std::string> out;
    for (const auto& line : lines(text)) {
      EXPECT_EQ(line.rfind("[rank ", 0), 0u) << line;
      if (line.rfind("[rank " + rank + "] ", 0) == 0) out.push_back(line.substr(9));
    }
    return out;
  };
  for (const std::string rank : {"0", "1"}) {
    EXPECT_EQ(of_rank(r.out, rank), (std::vector<std::string>{"one", "three", "unfinished"}))
        << r.out;
    EXPECT_EQ(of_rank(r.err, rank), std::vector<std::string>{"two"}) << r.err;
  }
  EXPECT_EQ(r.out.back(), '\n');
}

TEST(CliLaunch, AFailingRankStopsTheOthers) {
  // Ranks 0 and 2 write their pid and sleep; rank 1 waits for both pids, then exits 3.
  const std::string pids = pid_file("launch_fail_pids.txt");
  const std::string script = "if [ $KERAS_DISTRIBUTION_PROCESS_ID = 1 ]; then " +
                             wait_for_lines(pids, 2) + "exit 3; fi; echo $$ >> " +
                             shell_quote(pids) + "; exec sleep 30";
  const auto start = std::chrono::steady_clock::now();
  auto r = run_cli({"launch", "-n", "3", "sh", "-c", script});
  EXPECT_LT(seconds_since(start), 4.0);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(r.err, "keras-cpp launch: rank 1 exited with code 3\n");
  expect_all_gone(pids, 2);
}

TEST(CliLaunch, ARankThatIgnoresSigtermIsKilledAfterTheGracePeriod) {
  const std::string pids = pid_file("launch_grace_pids.txt");
  const std::string script = "if [ $KERAS_DISTRIBUTION_PROCESS_ID = 1 ]; then " +
                             wait_for_lines(pids, 1) + "exit 5; fi; trap '' TERM; echo $$ >> " +
                             shell_quote(pids) + "; exec sleep 30";
  const auto start = std::chrono::steady_clock::now();
  auto r = run_cli({"launch", "-n", "2", "sh", "-c", script});
  const double took = seconds_since(start);
  EXPECT_GT(took, 4.5);  // the 5 s grace
  EXPECT_LT(took, 9.0);
  EXPECT_EQ(r.code, 5) << r.err;
  expect_all_gone(pids, 1);
}

TEST(CliLaunch, ARankKilledByASignal) {
  auto r = run_cli({"launch", "-n", "2", "sh", "-c",
                    "if [ $KERAS_DISTRIBUTION_PROCESS_ID = 0 ]; then kill -KILL $$; fi; sleep 30"});
  EXPECT_EQ(r.code, 128 + SIGKILL);
  EXPECT_EQ(r.err, "keras-cpp launch: rank 0 was killed by signal SIGKILL\n");
}

TEST(CliLaunch, SigtermIsForwardedToEveryRank) {
  const std::string pids = pid_file("launch_term_pids.txt");
  const std::string launch =
      shell_quote(KERAS_CLI_PATH) + " launch -n 3 sh -c 'echo $$ >> " + pids + "; exec sleep 30'";
  const std::string cmd = launch + " 2>" + shell_quote(cli_path("stderr.txt")) + " & L=$!; " +
                          wait_for_lines(pids, 3) + "kill -TERM $L; wait $L";
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(cmd.c_str());
  EXPECT_LT(seconds_since(start), 4.0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_EQ(read_text(cli_path("stderr.txt")), "keras-cpp launch: got SIGTERM: stopping the job\n");
  expect_all_gone(pids, 3);
}

TEST(CliLaunch, AProgramThatCannotRunIsAUserError) {
  auto r = run_cli({"launch", "-n", "2", "no_such_program_for_keras_launch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "keras-cpp: error: cannot run no_such_program_for_keras_launch: No such file or "
            "directory\n");
  const std::string not_executable = cli_path("not_executable.txt");
  std::ofstream(not_executable) << "data\n";
  r = run_cli({"launch", "-n", "1", not_executable});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "keras-cpp: error: cannot run " + not_executable + ": Permission denied\n");
}

TEST(CliLaunch, BadArgumentsAreOneLineUserErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"launch", "sh"}, "--num-processes"},
      {{"launch", "-n", "0", "sh"}, "0"},
      {{"launch", "-n", "two", "sh"}, "two"},
      {{"launch", "-n", "2"}, "PROGRAM"},
      {{"launch", "-n", "2", "--"}, "PROGRAM"},
      {{"launch", "-n", "2", "--port", "0", "sh"}, "--port"},
      {{"launch", "-n", "2", "--port", "65536", "sh"}, "--port"},
      {{"launch", "-n", "2", "--timeout", "0", "sh"}, "--timeout"},
      {{"launch", "-n", "2", "--devices-per-process", "0", "sh"}, "--devices-per-process"},
      {{"launch", "-n", "2", "--hosts", "a,b", "sh"}, "--port"},
      {{"launch", "-n", "2", "--hosts", "a,,b", "--port", "5000", "sh"}, "a,,b"},
      {{"launch", "-n", "2", "--hosts", "localhost,elsewhere", "--port", "5000", "sh"},
       "localhost"},
      {{"launch", "-n", "2", "--no-such-flag", "sh"}, "--no-such-flag"},
  };
  for (const auto& [args, mentions] : cases) {
    auto r = run_cli(args);
    std::string what;
    for (const auto& a : args) what += a + " ";
    EXPECT_EQ(r.code, 1) << what << r.err;
    EXPECT_TRUE(one_line(r.err)) << what << "[" << r.err << "]";
    EXPECT_EQ(r.err.rfind("keras-cpp: error: ", 0), 0u) << what << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << what << r.err;
    EXPECT_EQ(r.out, "") << what;
  }
}

// A fake ssh: logs its arguments as <a><b>... (one line per call, written at once: the ranks
// run side by side), then runs the remote command (its last argument) here.
std::string write_fake_ssh(const std::string& log) {
  const std::string path = cli_path("fake_ssh.sh");
  std::ofstream(path) << "#!/bin/sh\n"
                      << "line=; for a in \"$@\"; do line=\"$line<$a>\"; last=$a; done\n"
                      << "printf '%s\\n' \"$line\" >> " << shell_quote(log) << "\n"  // one write
                      << "exec sh -c \"$last\"\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(CliLaunch, HostsStartRemoteRanksOverSsh) {
  const std::string log = pid_file("fake_ssh_log.txt");
  const std::string ssh = write_fake_ssh(log);
  const std::string script = kPrintVariables + " $KERAS_CPU_DEVICES_PER_PROCESS $(pwd)";
  auto r = run_cli({"launch", "-n", "3", "--hosts", "node-a,node-b", "--port", "29512",
                    "--devices-per-process", "2", "sh", "-c", script},
                   {{"KERAS_LAUNCH_SSH", ssh}});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(sorted_lines(r.out),
            (std::vector<std::string>{"0 3 node-a:29512 2 " + cwd, "1 3 node-a:29512 2 " + cwd,
                                      "2 3 node-a:29512 2 " + cwd}));
  // Round-robin: ranks 0 and 2 on node-a, rank 1 on node-b; each command cds first.
  auto calls = sorted_lines(read_text(log));
  ASSERT_EQ(calls.size(), 3u) << read_text(log);
  auto expected = [&](const std::string& host, int rank) {
    return "<-o><BatchMode=yes><" + host + "><cd " + shell_quote(cwd) +
           " && exec env 'KERAS_DISTRIBUTION_JOB_ADDRESSES=node-a:29512' "
           "'KERAS_DISTRIBUTION_NUM_PROCESSES=3' 'KERAS_DISTRIBUTION_PROCESS_ID=" +
           std::to_string(rank) + "' 'KERAS_CPU_DEVICES_PER_PROCESS=2' 'sh' '-c' " +
           shell_quote(script) + ">";
  };
  EXPECT_EQ(calls, (std::vector<std::string>{expected("node-a", 0), expected("node-a", 2),
                                             expected("node-b", 1)}));
}

// One GPU per rank: the first rank on a machine gets the backend's first device, the next ones
// NAME:1, NAME:2, ... (round-robin over --hosts: ranks 0 and 2 are node-a's first and second).
TEST(CliLaunch, DeviceBackendGivesEachRankOfAMachineItsOwnDevice) {
  auto r = run_cli({"launch", "-n", "3", "--device-backend", "torch:cuda", "sh", "-c",
                    "echo $KERAS_DISTRIBUTION_PROCESS_ID $KERAS_BACKEND"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out),
            (std::vector<std::string>{"0 torch:cuda", "1 torch:cuda:1", "2 torch:cuda:2"}));

  const std::string log = pid_file("fake_ssh_log_devices.txt");
  r = run_cli(
      {"launch", "-n", "3", "--hosts", "node-a,node-b", "--port", "29513", "--device-backend",
       "cuda", "sh", "-c", "echo $KERAS_DISTRIBUTION_PROCESS_ID $KERAS_BACKEND"},
      {{"KERAS_LAUNCH_SSH", write_fake_ssh(log)}});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out), (std::vector<std::string>{"0 cuda", "1 cuda", "2 cuda:1"}));
  EXPECT_NE(read_text(log).find("'KERAS_BACKEND=cuda:1'"), std::string::npos) << read_text(log);
}

TEST(CliLaunch, ThisMachineInHostsRunsWithoutSsh) {
  char name[256] = {};
  ASSERT_EQ(::gethostname(name, sizeof name - 1), 0);
  const std::string here = name;
  const std::string log = pid_file("fake_ssh_log_here.txt");
  const std::string ssh = write_fake_ssh(log);
  auto r = run_cli({"launch", "-n", "2", "--hosts", here + ",node-b", "--port", "29513", "--", "sh",
                    "-c", kPrintVariables},
                   {{"KERAS_LAUNCH_SSH", ssh}});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out),
            (std::vector<std::string>{"0 2 " + here + ":29513", "1 2 " + here + ":29513"}));
  auto calls = lines(read_text(log));
  ASSERT_EQ(calls.size(), 1u) << read_text(log);  // rank 1 only
  EXPECT_EQ(calls[0].rfind("<-o><BatchMode=yes><node-b><cd ", 0), 0u) << calls[0];
}

}  // namespace
}  // namespace keras
