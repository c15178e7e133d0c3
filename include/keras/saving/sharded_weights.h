#pragma once
// Sharded weights as Keras 3 writes them (keras/src/saving/saving_lib.py ShardedH5IOStore):
// a JSON index "<base>.weights.json" next to the shards "<base>_00000.weights.h5",
// "<base>_00001.weights.h5", ...
//
//   keras::saving::save_weights(*model, "run/x.weights.json", {.max_shard_size = 0.5});  // GB
//   keras::saving::load_weights(*model, "run/x.weights.json");
//
// The index, written with json.dumps(indent=4) as Keras does:
//   {"metadata": {"total_size": <bytes of all variables, a float>},
//    "weight_map": {"/vars": ..., "/layers/dense/vars": "x_00000.weights.h5",
//                   "/layers/dense_1/vars": ["x_00000.weights.h5", "x_00001.weights.h5"], ...}}
// A key is the HDF5 path of a "vars" group; its value is the shard holding it, or the list of
// shards when the group's datasets are split across several. Each shard has the layout of a
// .weights.h5 file (groups only for objects that have variables, as Keras 3.11+ writes).
// A new shard starts when adding a variable would take the current one past max_shard_size;
// one variable larger than max_shard_size is a ValueError (as in Keras).

#include <string>

#include "keras/layers/layer.h"
#include "keras/saving/weights.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// Options of a sharded `.weights.json` save, as Keras's save_weights(max_shard_size=...).
struct ShardedWeightsOptions {
  /// The largest shard, in GB (1024^3 bytes), as Keras's max_shard_size.
  double max_shard_size = 5.0;
  /// Also write the optimizer's variables (when the model is compiled and the optimizer built).
  bool optimizer = true;
};

/// Writes `model`'s weights as a sharded index `path` ("*.weights.json"; a "*.weights.h5" name
/// becomes "*.weights.json", as Keras renames it) plus its shards in the same folder.
/// ValueError for another name, an unbuilt model, a bad max_shard_size or a variable larger
/// than one shard; IOError when a file cannot be written.
void save_weights(const Layer& model, const std::string& path,
                  const ShardedWeightsOptions& options);

/// Loads a sharded index written by save_weights above or by Keras. Shard names must be plain
/// file names in the index's folder. IOError naming the index and the entry for a malformed
/// index, a shard name with a path in it ("../x.h5"), or a missing shard; ValueError for
/// variables that do not match (unless skip_mismatch).
void load_sharded_weights(Layer& model, const std::string& path,
                          const LoadWeightsOptions& options = {});

/// True when `bytes` look like a JSON index (the first non-blank byte is '{').
bool is_json_index(const std::vector<uint8_t>& bytes);

}  // namespace keras::saving

#pragma GCC visibility pop
