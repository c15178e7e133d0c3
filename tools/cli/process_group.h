#pragma once
// The processes of a `keras-cpp launch` job: started with fork/exec in process groups of their
// own (so a signal reaches what they start in turn) that die with the launcher
// (PR_SET_PDEATHSIG), then supervised until all exit or one fails.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace keras::cli {

/// One process of the job.
struct ChildCommand {
  /// The program and its arguments; argv[0] is looked up on PATH, as a shell would.
  std::vector<std::string> argv;
  /// "NAME=value" entries set on top of the launcher's environment.
  std::vector<std::string> env;
};

/// The job's processes; the destructor kills (SIGKILL) and reaps any still running.
class ProcessGroup {
 public:
  /// With tag_output, each line a process writes is prefixed "[rank r] " (its stdout and
  /// stderr read through pipes); otherwise processes write to the launcher's stdout/stderr.
  /// SIGINT, SIGTERM and SIGHUP are caught from here on (forwarded by wait()).
  explicit ProcessGroup(bool tag_output);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  /// Starts `command` as the next rank; UserError "cannot run PROGRAM: <reason>" when it
  /// cannot be executed (the processes already started are then killed by the destructor).
  void start(const ChildCommand& command);

  /// Waits for every process. When one exits non-zero or dies of a signal, or the launcher gets
  /// SIGINT/SIGTERM/SIGHUP, the others get SIGTERM (or that signal), then SIGKILL after `grace`.
  /// Returns 0 when all exited 0, else the failed rank's code (128 + signal when it was killed)
  /// or 128 + the signal the launcher got; says which on stderr in one line.
  int wait(std::chrono::milliseconds grace);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace keras::cli
