#pragma once
// A Program is a checked Trace made replayable: variables written back to their home memory,
// constant work and dead work removed, runs of elementwise calls fused into one pass over
// memory, assigned values computed straight into their variables, the step's own buffers
// planned into a reusable arena.
// Replay runs the planned backend calls with no front end and no autograd in between, taking
// the jumps of recorded control flow (ops::cond, ops::while_loop) as their predicates say.
// On a backend that can record its calls (backend/capture.h: the cuda backend's CUDA graphs), a
// step without host work (control flow, host kernels) is recorded once its memory has stayed
// put for one replay, and later replays launch the recording: inputs are copied into the
// program's own buffers instead of read in place, guards (host checks of input values, such as
// a label range) run with the calls they read from before the launch, random draws read their
// keys from device memory written before it, and a variable that moved makes it record again.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/trace.h"
#include "keras/backend/capture.h"

namespace keras::compiler::detail {

/// What the passes did, for tests and the benchmark.
struct ProgramStats {
  size_t traced_calls = 0;    // backend calls the trace recorded
  size_t forwarded_copies = 0;  // variable write-backs made unnecessary
  size_t folded_calls = 0;    // constant work, done once at build time
  size_t dead_calls = 0;      // work nothing reads
  size_t fused_chains = 0;    // elementwise calls made of runs of them
  size_t fused_calls = 0;     // elementwise calls those replaced
  size_t chain_copies_in_place = 0;      // copies in chains: the step before writes the target
  size_t folded_batch_norms = 0;         // inference normalizations folded into a conv
  size_t fused_linears = 0;              // matmul or conv + bias (+ activation) made one call
  size_t fused_conv_pools = 0;           // conv + max pool pairs made one call
  size_t fused_conv_pool_backwards = 0;  // and their backward chains
  size_t assigns_in_place = 0;           // assigned values written straight into the variable
  size_t replayed_calls = 0;  // what a replay runs
  size_t traced_bytes = 0;    // the step's own buffers as traced
  size_t arena_bytes = 0;     // the same after planning
  size_t graph_captures = 0;  // recordings of the whole step made (backend/capture.h)
  size_t graph_launches = 0;  // replays that were one launch of a recording
  std::string graph_problem;  // why a backend that records runs this step call by call
};

class Program {
 public:
  /// Takes over `trace` (stopped, outputs set). Leaves the variables on their home memory
  /// with the values the traced call gave them.
  explicit Program(std::unique_ptr<Trace> trace);

  /// Runs the step on `inputs` (same signature as the trace) and returns fresh outputs.
  TensorList replay(const TensorList& inputs);

  /// Fresh copies of the traced call's own results (which later replays overwrite).
  TensorList traced_results() const;

  /// True when a replay writes nothing outside this Program: it assigns no variable and draws
  /// no random numbers. Two Programs of such a step may then replay at the same time (one
  /// Program never replays twice at once: the arena, inputs and outputs are its own).
  bool read_only() const { return read_only_; }

  const ProgramStats& stats() const { return stats_; }

 private:
  struct Home {
    Variable variable;
    backend::Array array;
    std::vector<backend::Array*> uses;  // every instruction array and result on the home memory
    int expected_refs = 0;              // references to the home storage when nobody else holds it
    bool written = false;               // some instruction writes the variable
  };

  void write_back_variables();
  void forward_variable_copies();
  void fold_constants(std::vector<bool>& constant_slot);
  void remove_dead_calls();
  void plan_memory(const std::vector<bool>& constant_slot);
  void bind_backends_and_homes();
  // Where the step reads input i: every instruction array (and result) on its memory. A
  // replay points them at the caller's tensor instead of copying it in, when the step never
  // writes that memory and the caller's tensor is laid out as the traced one.
  struct InputUses {
    std::vector<backend::Array*> uses;
    std::vector<int64_t> offsets;  // each use's offset from the input's first element
    bool read_only = true;
  };

  void bind_inputs(const TensorList& inputs, bool in_place);
  // Runs the program's calls; while recording, without the guards and with random calls
  // reading their keys from draw_keys_.
  void run_instructions(bool recording = false);
  std::string plan_guard_prefix();
  // Recording the step (capture.h; program_recording.cpp): whether it can be (the reason it
  // cannot, or ""; plans the guard prefix), the addresses a recording depends on, and a replay
  // through one.
  std::string prepare_recording();
  std::vector<std::pair<const void*, int64_t>> bindings() const;
  TensorList replay_recorded();
  void write_draw_keys();
  void unbind_inputs();
  void adopt_home(Home& home, const Tensor& current);
  void follow_variable(size_t v);
  TensorList copies_of_outputs() const;

  std::unique_ptr<Trace> trace_;
  std::vector<backend::Backend*> backends_;  // per instruction, the backend it runs on
  std::vector<int> targets_;                 // per instruction, where its jump goes (else -1)
  std::vector<backend::Array> input_homes_;
  std::vector<InputUses> input_uses_;
  std::vector<Home> homes_;
  std::vector<std::pair<uint64_t, uint64_t>> draw_values_;
  bool read_only_ = false;
  ProgramStats stats_;
  backend::GraphCapture* recorder_ = nullptr;  // the backend, while the step may be recorded
  // The guards and the calls they read from, run call by call before each launch, so that a
  // replay that must fail fails before the recording changes anything (plan_guard_prefix).
  std::vector<size_t> guard_prefix_;
  // Per random draw, its (seed, counter) in device memory (two int64 each), written before each
  // launch: a recording reads them there, so every launch draws new numbers.
  backend::Array draw_keys_;
  std::vector<std::pair<const void*, int64_t>> recorded_at_;  // bindings() of recording_
  // bindings() of the last plain replay (none before the first)
  std::optional<std::vector<std::pair<const void*, int64_t>>> last_plain_at_;
  // Declared last, so destroyed first: before the memory it reads.
  std::unique_ptr<backend::CapturedWork> recording_;
};

}  // namespace keras::compiler::detail
