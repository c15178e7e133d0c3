#pragma once
// keras::distribution::DeviceMesh and TensorLayout (Keras 3's keras.distribution.DeviceMesh and
// TensorLayout), and the sharding arithmetic: which part of a tensor laid out over a mesh this
// process holds.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/shape.h"

#pragma GCC visibility push(default)
namespace keras::distribution {

/// An N-d grid of devices with a name per axis (jax.sharding.Mesh).
class DeviceMesh {
 public:
  /// `devices` (default: list_devices()) laid out row-major in `shape`. ValueError when shape or
  /// axis_names is empty, their lengths differ, an axis name repeats, the product of shape is
  /// not the number of devices, or a device repeats or is not one of list_devices().
  DeviceMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names,
             std::vector<std::string> devices = {});

  /// The number of devices along each mesh axis (Keras's `shape`).
  const std::vector<int64_t>& shape() const { return shape_; }
  /// The name of each mesh axis (Keras's `axis_names`), as layouts refer to them.
  const std::vector<std::string>& axis_names() const { return axis_names_; }
  /// The devices, flat in row-major order of shape().
  const std::vector<std::string>& devices() const { return devices_; }
  /// The size of axis `name`; ValueError naming it and the mesh's axes when there is none.
  int64_t axis_size(const std::string& name) const;
  /// The position of axis `name` in axis_names(); ValueError as axis_size.
  int axis_index(const std::string& name) const;
  /// Keras's repr: "<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>".
  std::string to_string() const;

 private:
  std::vector<int64_t> shape_;
  std::vector<std::string> axis_names_;
  std::vector<std::string> devices_;
};

/// One mesh axis name, or std::nullopt (not sharded), per tensor dimension
/// (jax.sharding.NamedSharding).
class TensorLayout {
 public:
  /// ValueError when the mesh is known and an axis name is not one of its axes, or a mesh axis
  /// is used by two dimensions.
  explicit TensorLayout(std::vector<std::optional<std::string>> axes,
                        std::shared_ptr<const DeviceMesh> mesh = nullptr);

  /// The mesh axis each tensor dimension is sharded along, or std::nullopt for a replicated
  /// dimension (Keras's `axes`).
  const std::vector<std::optional<std::string>>& axes() const { return axes_; }
  /// The mesh the layout lives on; null until one is attached (with_mesh).
  const std::shared_ptr<const DeviceMesh>& device_mesh() const { return mesh_; }
  /// This layout on `mesh` (validated against it). As Keras, a layout that already has another
  /// mesh cannot be moved to a second one (ValueError).
  TensorLayout with_mesh(std::shared_ptr<const DeviceMesh> mesh) const;
  /// Keras's repr: "<TensorLayout axes=(None, 'model'), device_mesh=<DeviceMesh ...>>".
  std::string to_string() const;

 private:
  std::vector<std::optional<std::string>> axes_;
  std::shared_ptr<const DeviceMesh> mesh_;
};

/// A half-open range [begin, end) of indices along one dimension.
struct Slice {
  /// The first index.
  int64_t begin = 0, end = 0;
  /// Whether both ranges are the same.
  friend bool operator==(const Slice&, const Slice&) = default;
  /// \var end
  /// One past the last index.
};

/// The shards [begin, end) out of `count` (the size of the mesh axis; 1 for a dimension that is
/// not sharded) that a process holds along one dimension of a layout.
struct ShardRange {
  /// The first shard held.
  int64_t begin = 0, end = 1, count = 1;
  /// Whether both shard ranges are the same.
  friend bool operator==(const ShardRange&, const ShardRange&) = default;
  /// \var end
  /// One past the last shard held.
  /// \var count
  /// The number of shards along the dimension: the mesh axis's size, 1 when not sharded.
};

/// Per dimension of `layout`, the shards that `process` holds when every process holds
/// `devices_per_process` devices ("cpu:<i>" belongs to process i / devices_per_process).
/// ValueError when the layout has no mesh, the process holds none of the mesh's devices, or its
/// devices are not one block of the mesh along the sharded axes.
std::vector<ShardRange> local_shard_ranges_for(const TensorLayout& layout, int process,
                                               int devices_per_process);

/// Per dimension, the indices of a tensor of `shape` laid out as `layout` that `process` holds
/// (see local_shard_ranges_for). A dimension of size n sharded over a mesh axis of size m needs
/// n % m == 0, as JAX (ValueError naming the dimension, its size and the axis).
std::vector<Slice> local_slices_for(const TensorLayout& layout, const Shape& shape, int process,
                                    int devices_per_process);
/// local_slices_for this process: process_id(), local_device_count().
std::vector<Slice> local_slices(const TensorLayout& layout, const Shape& shape);

/// Rows [begin, end) of `rows` split as evenly as possible into range.count shards (the first
/// rows % count shards one row larger) that shards [range.begin, range.end) hold. Empty when
/// there are fewer rows than shards and these shards get none.
Slice even_split(int64_t rows, const ShardRange& range);

}  // namespace keras::distribution

#pragma GCC visibility pop
