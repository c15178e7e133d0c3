// DeviceMesh, TensorLayout and the sharding arithmetic (see device_mesh.h).
#include "keras/distribution/device_mesh.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "keras/core/errors.h"
#include "keras/distribution/runtime.h"

namespace keras::distribution {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < names.size(); ++i) out << (i ? ", '" : "'") << names[i] << "'";
  out << "]";
  return out.str();
}

std::string shape_string(const std::vector<int64_t>& shape) {
  return Shape(shape).to_string();
}

/// The N of "cpu:N".
int64_t device_number(const std::string& device) {
  const size_t colon = device.rfind(':');
  check(colon != std::string::npos && colon + 1 < device.size() &&
            std::all_of(device.begin() + static_cast<std::ptrdiff_t>(colon) + 1, device.end(),
                        [](char c) { return c >= '0' && c <= '9'; }),
        "'", device, "' is not a device name of the form 'cpu:<index>'");
  return std::stoll(device.substr(colon + 1));
}

}  // namespace

DeviceMesh::DeviceMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                       std::vector<std::string> devices)
    : shape_(std::move(shape)), axis_names_(std::move(axis_names)), devices_(std::move(devices)) {
  check(!shape_.empty() && !axis_names_.empty(),
        "Shape and axis_names cannot be empty. Received: shape=", shape_string(shape_),
        ", axis_names=", quoted_list(axis_names_));
  check(shape_.size() == axis_names_.size(),
        "Shape and axis_names should have same size. Received: shape=", shape_string(shape_),
        ", axis_names=", quoted_list(axis_names_));
  std::set<std::string> names(axis_names_.begin(), axis_names_.end());
  check(names.size() == axis_names_.size(), "DeviceMesh axis names must be unique. Received: ",
        "axis_names=", quoted_list(axis_names_));
  int64_t product = 1;
  for (int64_t d : shape_) {
    check(d >= 1, "DeviceMesh shape entries must be >= 1. Received: shape=", shape_string(shape_));
    product *= d;
  }
  const std::vector<std::string> known = list_devices();
  if (devices_.empty()) devices_ = known;
  check(product == static_cast<int64_t>(devices_.size()),
        "Shape does not match the number of devices. Received: shape=", shape_string(shape_),
        "; devices.shape=(", devices_.size(), ",)");
  std::set<std::string> seen;
  for (const std::string& device : devices_) {
    check(std::find(known.begin(), known.end(), device) != known.end(), "Device not found: '",
          device, "' is not one of the job's devices ", quoted_list(known), " (list_devices())");
    check(seen.insert(device).second, "DeviceMesh devices must be distinct; '", device,
          "' appears twice in ", quoted_list(devices_));
  }
}

int DeviceMesh::axis_index(const std::string& name) const {
  auto it = std::find(axis_names_.begin(), axis_names_.end(), name);
  check(it != axis_names_.end(), "'", name, "' is not an axis of the device mesh; its axes are ",
        quoted_list(axis_names_));
  return static_cast<int>(it - axis_names_.begin());
}

int64_t DeviceMesh::axis_size(const std::string& name) const {
  return shape_[static_cast<size_t>(axis_index(name))];
}

std::string DeviceMesh::to_string() const {
  return keras::detail::cat("<DeviceMesh shape=", shape_string(shape_),
                            ", axis_names=", quoted_list(axis_names_), ">");
}

TensorLayout::TensorLayout(std::vector<std::optional<std::string>> axes,
                           std::shared_ptr<const DeviceMesh> mesh)
    : axes_(std::move(axes)), mesh_(std::move(mesh)) {
  if (!mesh_) return;
  std::set<std::string> used;
  for (const auto& axis : axes_) {
    if (!axis) continue;
    const auto& valid = mesh_->axis_names();
    check(std::find(valid.begin(), valid.end(), *axis) != valid.end(),
          "Invalid axis names for Layout. Valid axis names: ", quoted_list(valid), ", Got '", *axis,
          "' in ", to_string());
    check(used.insert(*axis).second, "A layout can map each mesh axis to at most one dimension, ",
          "but ", to_string(), " uses '", *axis, "' twice");
  }
}

TensorLayout TensorLayout::with_mesh(std::shared_ptr<const DeviceMesh> mesh) const {
  check(!mesh_ || mesh_ == mesh, "Cannot override device mesh value. Existing value is ",
        mesh_ ? mesh_->to_string() : "");
  return TensorLayout(axes_, std::move(mesh));
}

std::string TensorLayout::to_string() const {
  std::ostringstream out;
  out << "<TensorLayout axes=(";
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (i) out << ", ";
    out << (axes_[i] ? "'" + *axes_[i] + "'" : "None");
  }
  out << (axes_.size() == 1 ? ",)" : ")")
      << ", device_mesh=" << (mesh_ ? mesh_->to_string() : "None") << ">";
  return out.str();
}

std::vector<ShardRange> local_shard_ranges_for(const TensorLayout& layout, int process,
                                               int devices_per_process) {
  const auto& mesh = layout.device_mesh();
  check(mesh != nullptr, "The layout ", layout.to_string(),
        " has no device mesh, so where its shards live is not known; give it one ",
        "(TensorLayout(axes, mesh) or layout.with_mesh(mesh))");
  check(devices_per_process >= 1, "devices_per_process must be >= 1; got ", devices_per_process);
  const auto& shape = mesh->shape();
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t a = shape.size() - 1; a > 0; --a) strides[a - 1] = strides[a] * shape[a];
  std::vector<int64_t> mine;  // flat positions in the mesh of this process's devices
  for (size_t f = 0; f < mesh->devices().size(); ++f)
    if (device_number(mesh->devices()[f]) / devices_per_process == process)
      mine.push_back(static_cast<int64_t>(f));
  check(!mine.empty(), "Process ", process, " holds none of the devices of ", mesh->to_string(),
        " (", quoted_list(mesh->devices()), ")");

  std::vector<ShardRange> ranges(layout.axes().size());
  std::vector<size_t> sharded_axes;
  int64_t block = 1;
  for (size_t dim = 0; dim < ranges.size(); ++dim) {
    if (!layout.axes()[dim]) continue;
    const auto a = static_cast<size_t>(mesh->axis_index(*layout.axes()[dim]));
    std::set<int64_t> coords;
    for (int64_t f : mine) coords.insert((f / strides[a]) % shape[a]);
    const int64_t lo = *coords.begin(), hi = *coords.rbegin() + 1;
    check(static_cast<int64_t>(coords.size()) == hi - lo, "The devices of process ", process,
          " are not one contiguous block of ", mesh->to_string(), " along axis '",
          mesh->axis_names()[a], "' that dimension ", dim, " of ", layout.to_string(),
          " is sharded over; order the mesh's devices so that each process's are adjacent");
    ranges[dim] = {lo, hi, shape[a]};
    sharded_axes.push_back(a);
    block *= hi - lo;
  }
  // The devices must cover every combination of the shards they hold (a rectangle of the mesh).
  std::set<std::vector<int64_t>> tuples;
  for (int64_t f : mine) {
    std::vector<int64_t> t;
    for (size_t a : sharded_axes) t.push_back((f / strides[a]) % shape[a]);
    tuples.insert(t);
  }
  check(static_cast<int64_t>(tuples.size()) == block, "The devices of process ", process,
        " do not form one block of ", mesh->to_string(), " along the axes that ",
        layout.to_string(), " shards over; order the mesh's devices so that each process's are ",
        "adjacent");
  return ranges;
}

std::vector<Slice> local_slices_for(const TensorLayout& layout, const Shape& shape, int process,
                                    int devices_per_process) {
  check(static_cast<int>(layout.axes().size()) == shape.rank(), "The layout ", layout.to_string(),
        " has ", layout.axes().size(), " axes but the tensor has shape ", shape, " (rank ",
        shape.rank(), ")");
  const std::vector<ShardRange> ranges =
      local_shard_ranges_for(layout, process, devices_per_process);
  std::vector<Slice> slices(ranges.size());
  for (size_t dim = 0; dim < ranges.size(); ++dim) {
    const int64_t n = shape[dim], m = ranges[dim].count;
    check(n % m == 0, "Dimension ", dim, " of shape ", shape, " has size ", n,
          ", which cannot be sharded evenly over mesh axis '", layout.axes()[dim].value_or(""),
          "' of size ", m, " (the size must be divisible by it, as JAX requires)");
    slices[dim] = {ranges[dim].begin * (n / m), ranges[dim].end * (n / m)};
  }
  return slices;
}

std::vector<Slice> local_slices(const TensorLayout& layout, const Shape& shape) {
  return local_slices_for(layout, shape, process_id(), local_device_count());
}

Slice even_split(int64_t rows, const ShardRange& range) {
  auto start = [&](int64_t s) {
    return s * (rows / range.count) + std::min(s, rows % range.count);
  };
  return {start(range.begin), start(range.end)};
}

}  // namespace keras::distribution
