#pragma once
// keras::distribution::Distribution, DataParallel and ModelParallel (Keras 3's
// keras.distribution), the current distribution, and the split of global batches between the
// processes of a job.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/core/shape.h"
#include "keras/data/dataset.h"
#include "keras/distribution/device_mesh.h"
#include "keras/distribution/layout_map.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::distribution {

class Distribution;

/// Makes a distribution current while it lives and restores the previous one when destroyed
/// (Keras's `with distribution.scope():`).
class DistributionScope {
 public:
  /// Makes `distribution` current (nullptr: none) until this scope is destroyed.
  explicit DistributionScope(std::shared_ptr<Distribution> distribution);
  DistributionScope(const DistributionScope&) = delete;
  DistributionScope& operator=(const DistributionScope&) = delete;
  ~DistributionScope();

 private:
  std::shared_ptr<Distribution> previous_;
};

/// How variables and data are laid out over a device mesh. Hold it in a std::shared_ptr
/// (std::make_shared<DataParallel>()) to use scope().
class Distribution : public std::enable_shared_from_this<Distribution> {
 public:
  virtual ~Distribution() = default;

  /// The mesh of devices the distribution lays tensors out on (Keras's `device_mesh`).
  const std::shared_ptr<const DeviceMesh>& device_mesh() const { return mesh_; }
  /// The mesh axis the batch dimension of the data is sharded over.
  const std::string& batch_dim_name() const { return batch_dim_name_; }
  /// Whether distribute_dataset splits the batches between processes (false: each process's
  /// dataset already yields its own part).
  bool auto_shard_dataset() const { return auto_shard_dataset_; }
  /// Sets auto_shard_dataset() (Keras's `auto_shard_dataset` attribute).
  void set_auto_shard_dataset(bool value) { auto_shard_dataset_ = value; }

  /// The layout of an input batch of shape `data_shape`: dimension 0 over batch_dim_name().
  virtual TensorLayout get_data_layout(const Shape& data_shape) const;
  /// The layout of the variable at `variable_path`; nullopt: replicated on every device.
  virtual std::optional<TensorLayout> get_variable_layout(const std::string& variable_path,
                                                          const Shape& shape) const = 0;
  /// The layout of the intermediate tensor at `path`; nullopt: left as it is.
  virtual std::optional<TensorLayout> get_tensor_layout(const std::string& path) const = 0;
  /// `dataset` (of global batches, batch dimension first) as this process sees it: in a job of
  /// several processes with auto_shard_dataset(), each batch cut to the rows of this process
  /// (local_batch_rows); otherwise `dataset` itself.
  virtual data::Dataset distribute_dataset(const data::Dataset& dataset) const;

  /// Makes this distribution current until the returned guard is destroyed. ValueError when it
  /// is not held by a std::shared_ptr.
  [[nodiscard]] DistributionScope scope();

  /// Keras's repr: "<DataParallel device_mesh=<DeviceMesh ...>>".
  std::string to_string() const;

 protected:
  /// For subclasses: the mesh, the mesh axis the batch is split over, and whether
  /// distribute_dataset() splits batches between processes.
  Distribution(std::shared_ptr<const DeviceMesh> device_mesh, std::string batch_dim_name,
               bool auto_shard_dataset);
  /// The Keras class name ("DataParallel"), for to_string().
  virtual const char* class_name() const = 0;

 private:
  std::shared_ptr<const DeviceMesh> mesh_;
  std::string batch_dim_name_;
  bool auto_shard_dataset_;
};

/// Data parallelism: the batch is split over a 1-D mesh, the variables are replicated.
class DataParallel : public Distribution {
 public:
  /// With neither argument a 1-D mesh "batch" over list_devices(); with `devices`, a 1-D mesh
  /// "batch" over them; with `device_mesh`, that mesh (1-D: ValueError otherwise), its axis
  /// being the batch axis.
  explicit DataParallel(std::shared_ptr<const DeviceMesh> device_mesh = nullptr,
                        std::vector<std::string> devices = {}, bool auto_shard_dataset = true);

  std::optional<TensorLayout> get_variable_layout(const std::string& variable_path,
                                                  const Shape& shape) const override;
  std::optional<TensorLayout> get_tensor_layout(const std::string& path) const override;

 protected:
  const char* class_name() const override { return "DataParallel"; }
};

/// Model parallelism: variables laid out by a LayoutMap, the batch split over one mesh axis.
class ModelParallel : public Distribution {
 public:
  /// The mesh is the layout map's (ValueError when it has none); batch_dim_name defaults to its
  /// first axis and must be one of its axes. In a job of more processes than model replicas (the
  /// size of the batch axis) the processes must divide evenly between them (ValueError).
  explicit ModelParallel(LayoutMap layout_map, std::string batch_dim_name = "",
                         bool auto_shard_dataset = true);

  /// The variable layouts by path pattern (Keras's `layout_map`).
  const LayoutMap& layout_map() const { return layout_map_; }
  std::optional<TensorLayout> get_variable_layout(const std::string& variable_path,
                                                  const Shape& shape) const override;
  std::optional<TensorLayout> get_tensor_layout(const std::string& path) const override;

 protected:
  const char* class_name() const override { return "ModelParallel"; }

 private:
  LayoutMap layout_map_;
};

/// Makes `value` the current distribution (nullptr: none), for the whole process.
void set_distribution(std::shared_ptr<Distribution> value);
/// The current distribution, or nullptr.
std::shared_ptr<Distribution> distribution();

/// This process's part of `tensor` laid out as `layout` (local_slices), a slice of it.
Tensor distribute_tensor(const Tensor& tensor, const TensorLayout& layout);
/// distribution()->distribute_dataset(dataset), or `dataset` when there is no distribution.
data::Dataset distribute_dataset(const data::Dataset& dataset);

/// The rows [first, second) of a global batch of `global_batch` rows that this process gets
/// under the current distribution: the batch split as evenly as possible between the shards of
/// the batch axis (the first global_batch % shards shards one row larger; a process may get no
/// rows), this process taking those of the shards its devices hold. The whole range with no
/// distribution, in a job of one process, or when auto_shard_dataset() is false.
std::pair<int64_t, int64_t> local_batch_rows(int64_t global_batch);

/// Rows of a global batch for `process` of a job whose processes hold `devices_per_process`
/// devices each, under `dist`'s data layout (local_batch_rows' arithmetic).
Slice batch_rows_for(const Distribution& dist, int64_t global_batch, int process,
                     int devices_per_process);

namespace detail {
/// Every batch of `dataset` cut to batch_rows_for(dist, rows, process, devices_per_process).
data::Dataset shard_batches(const data::Dataset& dataset, const Distribution& dist, int process,
                            int devices_per_process);
}  // namespace detail

}  // namespace keras::distribution

#pragma GCC visibility pop
