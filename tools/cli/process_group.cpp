// ProcessGroup: fork/exec with an exec-failure pipe, process groups, PR_SET_PDEATHSIG, a
// self-pipe for signals, and optional "[rank r] " tagging of the children's lines.

#include "process_group.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "common.h"

extern char** environ;

namespace keras::cli {
namespace {

// Signals reach the supervision loop through a pipe: all a handler may safely do.
int signal_pipe[2] = {-1, -1};
constexpr std::array<int, 4> kCaught = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  if (write(signal_pipe[1], &byte, 1) != 1) {
  }
  errno = saved;
}

std::string signal_name(int sig) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
  if (const char* abbrev = sigabbrev_np(sig)) return std::string("SIG") + abbrev;
#endif
  return "signal " + std::to_string(sig);
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// The launcher's environment with `overrides` ("NAME=value") replacing or added to it.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const auto& o : overrides) replaced = replaced || o.compare(0, name.size(), name) == 0;
    if (!replaced) out.push_back(std::move(entry));
  }
  out.insert(out.end(), overrides.begin(), overrides.end());
  return out;
}

// In the forked child: async-signal-safe calls only (the launcher may have other threads).
[[noreturn]] void exec_child(char* const* argv, char* const* envp, pid_t launcher, int status_fd,
                             int out_fd, int err_fd, const sigset_t& mask) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != launcher) _exit(127);  // the launcher died before prctl took effect
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig : kCaught) sigaction(sig, &default_action, nullptr);
  sigaction(SIGPIPE, &default_action, nullptr);
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd > 0) {
    dup2(null_fd, 0);
    close(null_fd);
  }
  if (out_fd >= 0) dup2(out_fd, 1);
  if (err_fd >= 0) dup2(err_fd, 2);
  execvpe(argv[0], argv, envp);
  const int error = errno;
  if (write(status_fd, &error, sizeof error) != sizeof error) {
  }
  _exit(127);
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // stdout closed: the text is lost, the job goes on
    done += static_cast<size_t>(n);
  }
}

}  // namespace

struct ProcessGroup::State {
  // One of a child's output pipes (with tag_output), and its unfinished last line.
  struct Stream {
    int fd = -1;
    int target = 1;
    std::string pending;
  };
  struct Child {
    pid_t pid = -1;
    bool running = true;
    Stream out, err;
  };
  bool tag_output = false;
  std::vector<Child> children;
  std::array<struct sigaction, kCaught.size()> previous{};
  struct sigaction previous_pipe {};

  // Writes the complete lines of `s` (all of it at the end), each prefixed with the rank.
  void emit(Stream& s, int rank, bool at_end) {
    const std::string prefix = "[rank " + std::to_string(rank) + "] ";
    size_t start = 0, end;
    while ((end = s.pending.find('\n', start)) != std::string::npos) {
      write_all(s.target, prefix + s.pending.substr(start, end - start + 1));
      start = end + 1;
    }
    s.pending.erase(0, start);
    if ((at_end || s.pending.size() > (1u << 20)) && !s.pending.empty()) {
      write_all(s.target, prefix + s.pending + "\n");
      s.pending.clear();
    }
  }

  // Reads what `s` holds now (its fd is non-blocking); closes it at end of file.
  void drain(Stream& s, int rank) {
    char buffer[65536];
    while (s.fd >= 0) {
      const ssize_t n = read(s.fd, buffer, sizeof buffer);
      if (n > 0) {
        s.pending.append(buffer, static_cast<size_t>(n));
        emit(s, rank, false);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
          close_fd(s.fd);
          emit(s, rank, true);
        }
        return;
      }
    }
  }

  // Sends `sig` to every running child's process group (it reaches what the child started
  // too), and to that of `also`, a child just reaped (what it left running).
  void signal_all(int sig, pid_t also = -1) {
    for (const auto& c : children)
      if (c.running || c.pid == also) kill(-c.pid, sig);
  }
};

ProcessGroup::ProcessGroup(bool tag_output) : state_(std::make_unique<State>()) {
  state_->tag_output = tag_output;
  if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    throw UserError(std::string("cannot create a pipe: ") + std::strerror(errno));
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  for (size_t i = 0; i < kCaught.size(); ++i) sigaction(kCaught[i], &action, &state_->previous[i]);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &state_->previous_pipe);  // a closed stdout must not kill the job
}

ProcessGroup::~ProcessGroup() {
  for (auto& c : state_->children) {
    if (c.running) {
      kill(-c.pid, SIGKILL);
      while (waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    close_fd(c.out.fd);
    close_fd(c.err.fd);
  }
  for (size_t i = 0; i < kCaught.size(); ++i) sigaction(kCaught[i], &state_->previous[i], nullptr);
  sigaction(SIGPIPE, &state_->previous_pipe, nullptr);
  close_fd(signal_pipe[0]);
  close_fd(signal_pipe[1]);
}

void ProcessGroup::start(const ChildCommand& command) {
  // Everything the child needs is built before fork: after it, it may not allocate.
  std::vector<std::string> argv_strings = command.argv;
  std::vector<std::string> env_strings = merged_environment(command.env);
  std::vector<char*> argv = pointers(argv_strings), envp = pointers(env_strings);
  int status[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  auto close_all = [&] {
    for (int* fd : {&status[0], &status[1], &out[0], &out[1], &err[0], &err[1]}) close_fd(*fd);
  };
  if (pipe2(status, O_CLOEXEC) != 0 ||
      (state_->tag_output && (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0))) {
    close_all();
    throw UserError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  // The child runs no handler of the launcher's: signals stay blocked until it resets them.
  sigset_t all, mask;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &mask);
  const pid_t launcher = getpid();
  const pid_t pid = fork();
  if (pid == 0) exec_child(argv.data(), envp.data(), launcher, status[1], out[1], err[1], mask);
  const int fork_error = errno;
  pthread_sigmask(SIG_SETMASK, &mask, nullptr);
  if (pid < 0) {
    close_all();
    throw UserError(std::string("cannot start a process: ") + std::strerror(fork_error));
  }
  setpgid(pid, pid);  // the child does it too: whichever runs first
  close_fd(status[1]);
  close_fd(out[1]);
  close_fd(err[1]);
  State::Child child;
  child.pid = pid;
  child.out = {out[0], 1, {}};
  child.err = {err[0], 2, {}};
  for (int fd : {out[0], err[0]})
    if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  state_->children.push_back(child);  // from here on the destructor reaps it

  // The status pipe closes on a successful exec; an errno comes through it otherwise.
  int exec_error = 0;
  ssize_t n;
  while ((n = read(status[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  close_fd(status[0]);
  if (n == sizeof exec_error) {
    auto& c = state_->children.back();
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    c.running = false;
    close_fd(c.out.fd);
    close_fd(c.err.fd);
    throw UserError("cannot run " + command.argv[0] + ": " + std::strerror(exec_error));
  }
}

int ProcessGroup::wait(std::chrono::milliseconds grace) {
  using Clock = std::chrono::steady_clock;
  auto& children = state_->children;
  int result = 0;
  bool stopping = false, killed = false;
  Clock::time_point deadline;
  auto stop = [&](int sig, pid_t also) {
    stopping = true;
    deadline = Clock::now() + grace;
    state_->signal_all(sig, also);
  };
  auto running = [&] {
    for (const auto& c : children)
      if (c.running) return true;
    return false;
  };

  while (running()) {
    std::vector<pollfd> fds{{signal_pipe[0], POLLIN, 0}};
    std::vector<std::pair<State::Stream*, int>> streams;
    for (size_t r = 0; r < children.size(); ++r)
      for (auto* s : {&children[r].out, &children[r].err})
        if (s->fd >= 0) {
          fds.push_back({s->fd, POLLIN, 0});
          streams.emplace_back(s, static_cast<int>(r));
        }
    int timeout_ms = -1;
    if (stopping && !killed)
      timeout_ms = static_cast<int>(std::max<int64_t>(
          0,
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count() +
              1));
    if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR)
      throw UserError(std::string("poll failed: ") + std::strerror(errno));

    unsigned char sig;
    while (read(signal_pipe[0], &sig, 1) == 1) {
      if (sig == SIGCHLD) continue;
      if (!stopping) {
        std::cerr << "keras-cpp launch: got " << signal_name(sig) << ": stopping the job"
                  << std::endl;
        result = 128 + sig;
        stop(sig, -1);
      } else if (!killed && (sig == SIGINT || sig == SIGTERM)) {
        state_->signal_all(SIGKILL);  // a second one: no more grace
        killed = true;
      }
    }
    for (size_t i = 0; i < streams.size(); ++i)
      if (fds[i + 1].revents) state_->drain(*streams[i].first, streams[i].second);

    for (size_t r = 0; r < children.size(); ++r) {
      auto& c = children[r];
      int st = 0;
      if (!c.running || waitpid(c.pid, &st, WNOHANG) != c.pid) continue;
      c.running = false;
      const bool failed = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
      if (!failed || stopping) continue;
      if (WIFSIGNALED(st)) {
        std::cerr << "keras-cpp launch: rank " << r << " was killed by signal "
                  << signal_name(WTERMSIG(st)) << std::endl;
        result = 128 + WTERMSIG(st);
      } else {
        std::cerr << "keras-cpp launch: rank " << r << " exited with code " << WEXITSTATUS(st)
                  << std::endl;
        result = WEXITSTATUS(st);
      }
      stop(SIGTERM, c.pid);
    }
    if (stopping && !killed && Clock::now() >= deadline) {
      state_->signal_all(SIGKILL);
      killed = true;
    }
  }
  // What the children wrote last (a pipe still held by something they started is left).
  for (size_t r = 0; r < children.size(); ++r)
    for (auto* s : {&children[r].out, &children[r].err}) {
      state_->drain(*s, static_cast<int>(r));
      state_->emit(*s, static_cast<int>(r), true);
      close_fd(s->fd);
    }
  return result;
}

}  // namespace keras::cli
