// Distribution, DataParallel, ModelParallel and the current distribution (see distributions.h).
#include "keras/distribution/distributions.h"

#include <algorithm>
#include <mutex>

#include "keras/core/errors.h"
#include "keras/distribution/runtime.h"
#include "keras/ops/core/updates.h"

namespace keras::distribution {
namespace {

std::mutex current_mutex;
std::shared_ptr<Distribution> current;  // guarded by current_mutex

/// DataParallel's mesh from its arguments, as Keras: the mesh, else the devices, else all.
std::shared_ptr<const DeviceMesh> data_parallel_mesh(std::shared_ptr<const DeviceMesh> mesh,
                                                     std::vector<std::string> devices) {
  if (mesh) {
    check(mesh->shape().size() == 1, "DataParallel expects a 1-D device mesh; received ",
          mesh->to_string(), ". Use ModelParallel for a mesh of several axes.");
    return mesh;
  }
  if (devices.empty()) devices = list_devices();
  const auto n = static_cast<int64_t>(devices.size());
  return std::make_shared<const DeviceMesh>(std::vector<int64_t>{n},
                                            std::vector<std::string>{"batch"}, std::move(devices));
}

const std::shared_ptr<const DeviceMesh>& mesh_of(const LayoutMap& layout_map) {
  check(layout_map.device_mesh() != nullptr,
        "ModelParallel needs a LayoutMap with a device mesh (LayoutMap(mesh))");
  return layout_map.device_mesh();
}

}  // namespace

DistributionScope::DistributionScope(std::shared_ptr<Distribution> distribution)
    : previous_(keras::distribution::distribution()) {
  set_distribution(std::move(distribution));
}

DistributionScope::~DistributionScope() {
  set_distribution(std::move(previous_));
}

Distribution::Distribution(std::shared_ptr<const DeviceMesh> device_mesh,
                           std::string batch_dim_name, bool auto_shard_dataset)
    : mesh_(std::move(device_mesh)),
      batch_dim_name_(std::move(batch_dim_name)),
      auto_shard_dataset_(auto_shard_dataset) {
  check(mesh_ != nullptr, "A distribution needs a device mesh");
  // Keras: the batch axis defaults to the mesh's first axis.
  if (batch_dim_name_.empty()) batch_dim_name_ = mesh_->axis_names()[0];
  check(std::find(mesh_->axis_names().begin(), mesh_->axis_names().end(), batch_dim_name_) !=
            mesh_->axis_names().end(),
        "batch_dim_name '", batch_dim_name_, "' is not an axis of ", mesh_->to_string());
}

TensorLayout Distribution::get_data_layout(const Shape& data_shape) const {
  check(data_shape.rank() >= 1, "The input data needs a batch dimension; got shape ", data_shape);
  std::vector<std::optional<std::string>> axes(data_shape.size());
  axes[0] = batch_dim_name_;
  return TensorLayout(std::move(axes), mesh_);
}

data::Dataset Distribution::distribute_dataset(const data::Dataset& dataset) const {
  if (num_processes() == 1 || !auto_shard_dataset_) return dataset;
  return detail::shard_batches(dataset, *this, process_id(), local_device_count());
}

DistributionScope Distribution::scope() {
  std::shared_ptr<Distribution> self = weak_from_this().lock();
  check(self != nullptr, class_name(), "::scope() needs the distribution held by a ",
        "std::shared_ptr (std::make_shared<", class_name(), ">(...))");
  return DistributionScope(std::move(self));
}

std::string Distribution::to_string() const {
  return keras::detail::cat("<", class_name(), " device_mesh=", mesh_->to_string(), ">");
}

DataParallel::DataParallel(std::shared_ptr<const DeviceMesh> device_mesh,
                           std::vector<std::string> devices, bool auto_shard_dataset)
    : Distribution(data_parallel_mesh(std::move(device_mesh), std::move(devices)), "",
                   auto_shard_dataset) {}

std::optional<TensorLayout> DataParallel::get_variable_layout(const std::string&,
                                                              const Shape&) const {
  return std::nullopt;
}

std::optional<TensorLayout> DataParallel::get_tensor_layout(const std::string&) const {
  return std::nullopt;
}

ModelParallel::ModelParallel(LayoutMap layout_map, std::string batch_dim_name,
                             bool auto_shard_dataset)
    : Distribution(mesh_of(layout_map), std::move(batch_dim_name), auto_shard_dataset),
      layout_map_(std::move(layout_map)) {
  const int processes = num_processes();
  const int64_t replicas = device_mesh()->axis_size(this->batch_dim_name());
  check(processes <= replicas || processes % replicas == 0,
        "If `num_processes` is greater than `num_model_replicas`, `num_processes` must be ",
        "divisible by `num_model_replicas`. Got num_processes=", processes,
        ", num_model_replicas=", replicas, ".");
}

std::optional<TensorLayout> ModelParallel::get_variable_layout(const std::string& variable_path,
                                                               const Shape&) const {
  return layout_map_.get(variable_path);
}

std::optional<TensorLayout> ModelParallel::get_tensor_layout(const std::string& path) const {
  return layout_map_.get(path);
}

void set_distribution(std::shared_ptr<Distribution> value) {
  std::lock_guard<std::mutex> lock(current_mutex);
  current = std::move(value);
}

std::shared_ptr<Distribution> distribution() {
  std::lock_guard<std::mutex> lock(current_mutex);
  return current;
}

Tensor distribute_tensor(const Tensor& tensor, const TensorLayout& layout) {
  const Shape shape = tensor.shape();
  const std::vector<Slice> slices = local_slices(layout, shape);
  std::vector<int64_t> starts;
  Shape sizes;
  bool whole = true;
  for (size_t d = 0; d < slices.size(); ++d) {
    starts.push_back(slices[d].begin);
    sizes.push_back(slices[d].end - slices[d].begin);
    whole = whole && sizes[d] == shape[d];
  }
  return whole ? tensor : ops::slice(tensor, starts, sizes);
}

data::Dataset distribute_dataset(const data::Dataset& dataset) {
  const std::shared_ptr<Distribution> d = distribution();
  return d ? d->distribute_dataset(dataset) : dataset;
}

Slice batch_rows_for(const Distribution& dist, int64_t global_batch, int process,
                     int devices_per_process) {
  const TensorLayout layout = dist.get_data_layout(Shape{global_batch});
  return even_split(global_batch, local_shard_ranges_for(layout, process, devices_per_process)[0]);
}

std::pair<int64_t, int64_t> local_batch_rows(int64_t global_batch) {
  const std::shared_ptr<Distribution> d = distribution();
  if (!d || num_processes() == 1 || !d->auto_shard_dataset()) return {0, global_batch};
  const Slice rows = batch_rows_for(*d, global_batch, process_id(), local_device_count());
  return {rows.begin, rows.end};
}

namespace detail {

data::Dataset shard_batches(const data::Dataset& dataset, const Distribution& dist, int process,
                            int devices_per_process) {
  // The shards of the batch axis this process holds; checked once, before any batch.
  const ShardRange range =
      local_shard_ranges_for(dist.get_data_layout(Shape{1}), process, devices_per_process)[0];
  return dataset.map([range](const data::Element& batch) {
    const Slice rows = even_split(batch.x.num_samples("x"), range);
    data::Element out;
    out.x = batch.x.slice(rows.begin, rows.end);
    if (batch.y.defined()) out.y = batch.y.slice(rows.begin, rows.end);
    if (batch.sample_weight.defined())
      out.sample_weight = batch.sample_weight.slice(rows.begin, rows.end);
    return out;
  });
}

}  // namespace detail

}  // namespace keras::distribution
