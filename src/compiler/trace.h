#pragma once
// A Trace listens while one call of a function runs eagerly on this thread and keeps what it
// did as instructions over numbered slots of memory (see instruction.h). Two traces of the
// same signature are compared before either is trusted (jit.cpp).

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/instruction.h"
#include "keras/autograd/variable.h"
#include "keras/backend/trace_hook.h"
#include "keras/tensor/tensor.h"

namespace keras::compiler::detail {

class RecordingBackend;

class Trace final : public backend::TraceObserver {
 public:
  /// Starts tracing on this thread. `inputs` are the call's inputs, private copies the
  /// function reads: their memory becomes the input slots.
  explicit Trace(const TensorList& inputs);
  ~Trace() override;
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  /// Stops listening (idempotent).
  void stop();
  /// Records the function's results (after stop()).
  void set_outputs(const TensorList& outputs);

  // ---- TraceObserver ----
  backend::Backend& route(backend::Backend& inner) override;
  void on_host_access(const backend::Array& array) override;
  void on_host_kernel(std::string_view name, std::span<const backend::Array> arrays,
                      size_t num_outputs, const backend::HostKernel& kernel) override;
  void on_host_check(const backend::Array& array,
                     const std::function<void(const void* host)>& check) override;
  void on_variable(const Variable& variable, const backend::Array& current) override;
  void on_variable_created() override { created_variables = true; }
  void on_layer(std::string_view name) override;
  void on_untraceable(std::string_view reason) override { fail(std::string(reason)); }
  void on_draw(uint64_t seed, uint64_t counter,
               std::function<std::pair<uint64_t, uint64_t>()> redraw) override;
  int new_label() override { return next_label_++; }
  void on_control(backend::ControlOp op, int label, const backend::Array* pred) override;
  void on_region(bool enter) override;
  void drop_labels(std::span<const int> labels) override;

  // ---- from the recording backend ----
  void record(KeyWriter key, std::initializer_list<const backend::Array*> outs,
              std::initializer_list<const backend::Array*> ins, Runner run,
              bool reads_outputs = false,
              std::optional<backend::ElementwiseStep> elementwise = std::nullopt);
  void record_random(const backend::Array& out, backend::RandomKind kind, uint64_t seed,
                     uint64_t counter);
  void note_allocated(const Ref<backend::Storage>& storage);
  /// copy_from_host from `src`: a traced tensor read through host memory cannot replay.
  void check_host_source(const void* src, size_t nbytes);
  /// copy_to_host outside a guard: the function reads a value on the host.
  void note_host_read(size_t nbytes);
  /// The first reason this call cannot be replayed wins; later ones are dropped.
  void fail(const std::string& reason);

  struct VariableState {
    Variable variable;
    backend::Array home;  // its array when the step first touched it
    int slot = -1;
  };
  struct Draw {
    uint64_t seed = 0, counter = 0;
    std::function<std::pair<uint64_t, uint64_t>()> redraw;
  };

  std::vector<Instruction> instructions;
  std::vector<Ref<backend::Storage>> slots;
  std::vector<SlotKind> kinds;
  std::vector<int> owner;  // per slot: the input or variable index, else -1
  std::vector<VariableState> variables;
  std::vector<Draw> draws;
  std::vector<backend::Array> outputs;
  std::vector<int> output_slots;
  TensorList inputs;
  std::string problem;  // empty when the call can be replayed
  bool created_variables = false;

  int slot_of(const backend::Array& array, bool written);

  /// Lets go of the step's own buffers (kept: their sizes), for a trace kept only to be
  /// compared with the next one: a trace holds every buffer of the step alive, and two at once
  /// would double the step's memory while it compiles.
  void release_buffers();
  /// The size of slot `s`'s memory (also after release_buffers()).
  size_t slot_nbytes(int s) const {
    return slot_bytes_.empty() ? slots[s]->nbytes() : slot_bytes_[s];
  }

 private:
  std::unordered_map<const backend::Storage*, int> slot_index_;
  std::vector<RecordingBackend*> wrappers_;
  std::unordered_map<const void*, int> variable_index_;
  std::vector<std::string> layers_;
  backend::TraceObserver* previous_ = nullptr;
  bool stopped_ = false;
  std::vector<size_t> slot_bytes_;  // filled by release_buffers()
  int next_label_ = 0;
  int region_depth_ = 0;
  // Per open region: each touched variable's storage when it opened (an assign inside
  // rebinds it).
  std::vector<std::vector<const backend::Storage*>> region_variables_;
};

/// "" when the two traces made the same calls on the same memory; else the first difference.
std::string difference(const Trace& a, const Trace& b);

}  // namespace keras::compiler::detail
