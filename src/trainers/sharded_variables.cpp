#include "trainers/sharded_variables.h"

#include <cstring>
#include <map>
#include <mutex>

#include "autograd/variable_storage.h"
#include "keras/core/errors.h"
#include "keras/distribution/collectives.h"
#include "keras/distribution/distributions.h"
#include "keras/distribution/runtime.h"
#include "keras/models/model.h"
#include "keras/ops/ops.h"

namespace keras::trainers {

namespace dist = keras::distribution;

namespace {

bool whole_range(const std::vector<dist::Slice>& slices, const Shape& shape) {
  for (size_t d = 0; d < slices.size(); ++d)
    if (slices[d].begin != 0 || slices[d].end != shape[static_cast<int>(d)]) return false;
  return true;
}

Shape shape_of(const std::vector<dist::Slice>& slices) {
  std::vector<int64_t> dims;
  for (const auto& s : slices) dims.push_back(s.end - s.begin);
  return Shape(dims);
}

// A copy of the block `slices` of `t` (its own storage: a view would keep the whole alive).
Tensor block_of(const Tensor& t, const std::vector<dist::Slice>& slices) {
  std::vector<int64_t> start;
  for (const auto& s : slices) start.push_back(s.begin);
  return ops::copy(ops::slice(t, start, shape_of(slices)).contiguous());
}

// Copies a row-major block of shape `block` (item bytes each) into `whole` (row-major, shape
// `whole_shape`) at the offsets of `slices`.
void place_block(const char* block, char* whole, const Shape& whole_shape,
                 const std::vector<dist::Slice>& slices, size_t item) {
  const int rank = whole_shape.rank();
  if (rank == 0) {
    std::memcpy(whole, block, item);
    return;
  }
  std::vector<int64_t> whole_strides(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d)
    whole_strides[static_cast<size_t>(d)] =
        whole_strides[static_cast<size_t>(d + 1)] * whole_shape[d + 1];
  const Shape block_shape = shape_of(slices);
  const int64_t run = block_shape[rank - 1];  // contiguous elements per innermost row
  const int64_t rows = block_shape.numel() / std::max<int64_t>(run, 1);
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  for (int64_t r = 0; r < rows && run > 0; ++r) {
    int64_t offset = 0;
    for (int d = 0; d < rank; ++d)
      offset += (slices[static_cast<size_t>(d)].begin + (d == rank - 1 ? 0 : index[static_cast<size_t>(d)])) *
                whole_strides[static_cast<size_t>(d)];
    std::memcpy(whole + offset * static_cast<int64_t>(item), block + r * run * static_cast<int64_t>(item),
                static_cast<size_t>(run) * item);
    for (int d = rank - 2; d >= 0; --d) {  // next row of the block
      if (++index[static_cast<size_t>(d)] < block_shape[d]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
}

std::string underscored(std::string path) {
  for (char& c : path)
    if (c == '/') c = '_';
  return path;
}

std::mutex registry_mutex;
std::map<const Model*, ShardedVariables*>& registry() {
  static std::map<const Model*, ShardedVariables*> active;
  return active;
}

}  // namespace

ShardedVariables::ShardedVariables(Model& model) : model_(model) {
  auto* mp = dynamic_cast<const dist::ModelParallel*>(dist::distribution().get());
  if (!mp || dist::num_processes() == 1) return;
  for (const Variable& v : model.weights()) {
    auto layout = mp->get_variable_layout(v.path(), v.shape());
    if (!layout) continue;
    std::vector<dist::Slice> slices = dist::local_slices(*layout, v.shape());
    if (whole_range(slices, v.shape())) continue;
    entries_.push_back(Entry{v, *layout, v.shape(), slices, false});
  }
  if (entries_.empty() || !model.compiled()) return;
  const auto& options = model.optimizer()->options();
  check(!options.clipnorm && !options.global_clipnorm,
        "ModelParallel: clipnorm and global_clipnorm are not supported with sharded variables "
        "yet (each process would clip by the norm of its own slices); use clipvalue, or leave "
        "the variables unsharded.");
}

void ShardedVariables::shard_entry(Entry& e) {
  if (e.sharded) return;
  autograd::detail::VariableReshapeScope reshape;
  e.variable.exchange_value(block_of(e.variable.value(), e.slices));
  e.sharded = true;
}

void ShardedVariables::gather_entry(Entry& e) {
  if (!e.sharded) return;
  const Tensor mine = e.variable.value().contiguous();
  const DType dtype = mine.dtype();
  const size_t item = itemsize(dtype), bytes = static_cast<size_t>(mine.size()) * item;
  const int n = dist::num_processes();
  std::vector<char> local(bytes), all(bytes * static_cast<size_t>(n));
  mine.copy_to_host(local.data(), dtype);
  dist::collectives().all_gather(local.data(), all.data(), bytes,
                                 "the all-gather of " + e.variable.path());
  std::vector<char> whole(static_cast<size_t>(e.whole.numel()) * item);
  for (int p = 0; p < n; ++p)
    place_block(all.data() + static_cast<size_t>(p) * bytes, whole.data(), e.whole,
                dist::local_slices_for(e.layout, e.whole, p, dist::local_device_count()), item);
  autograd::detail::VariableReshapeScope reshape;
  e.variable.exchange_value(Tensor::from_host(whole.data(), dtype, e.whole,
                                              static_cast<size_t>(e.whole.numel()),
                                              mine.backend_name()));
  e.sharded = false;
}

void ShardedVariables::find_optimizer_slots() {
  if (slots_found_ || !model_.compiled()) return;
  const auto& optimizer = model_.optimizer();
  if (optimizer->trainable_variables().empty()) return;  // built at the first update
  slots_found_ = true;
  const std::string prefix = optimizer->name() + "/";
  for (const Variable& slot : optimizer->variables()) {
    const Entry* owner = nullptr;
    size_t longest = 0;
    for (const Entry& e : entries_) {
      const std::string stem = prefix + underscored(e.variable.path()) + "_";
      const Shape now = e.sharded ? shape_of(e.slices) : e.whole;
      if (slot.path().rfind(stem, 0) == 0 && stem.size() > longest && slot.shape() == now) {
        owner = &e;
        longest = stem.size();
      }
    }
    if (owner)
      slots_.push_back(Entry{slot, owner->layout, owner->whole, owner->slices,
                             slot.shape() != owner->whole});
  }
}

// (The slots are matched to their variables by shape before the variables change.)
void ShardedVariables::shard(bool optimizer) {
  if (optimizer) find_optimizer_slots();
  for (Entry& e : entries_) shard_entry(e);
  if (optimizer)
    for (Entry& e : slots_) shard_entry(e);
}

void ShardedVariables::gather(bool optimizer) {
  if (optimizer) find_optimizer_slots();
  for (Entry& e : entries_) gather_entry(e);
  if (optimizer)
    for (Entry& e : slots_) gather_entry(e);
}

std::vector<Tensor> ShardedVariables::local_gradients(const std::vector<Tensor>& grads,
                                                      const std::vector<Variable>& variables) const {
  std::vector<Tensor> out = grads;
  for (size_t i = 0; i < variables.size() && i < out.size(); ++i) {
    if (!out[i].defined()) continue;
    for (const Entry& e : entries_)
      if (e.variable.is_same(variables[i])) out[i] = block_of(out[i], e.slices);
  }
  return out;
}

ShardedVariables* active_sharding(const Model* model) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = registry().find(model);
  return it == registry().end() ? nullptr : it->second;
}

ActiveShardingScope::ActiveShardingScope(const Model* model, ShardedVariables* sharding)
    : model_(model), previous_(active_sharding(model)) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (sharding && !sharding->empty()) registry()[model] = sharding;
}

ActiveShardingScope::~ActiveShardingScope() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (previous_) registry()[model_] = previous_;
  else registry().erase(model_);
}

WholeValuesScope::WholeValuesScope(const Model* model, bool optimizer)
    : sharding_(active_sharding(model)), optimizer_(optimizer) {
  if (sharding_) sharding_->gather(optimizer_);
}

WholeValuesScope::~WholeValuesScope() {
  if (sharding_) sharding_->shard(optimizer_);
}

}  // namespace keras::trainers
