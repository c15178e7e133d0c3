// BackupAndRestore (keras/src/callbacks/backup_and_restore.py), with the shuffle generator's
// state and one atomic file holding weights and training state.

#include "keras/callbacks/backup_and_restore.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "callbacks/format.h"
#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "keras/random/random.h"
#include "keras/saving/archive.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/save_weights.h"
#include "trainers/sharded_variables.h"
#include "keras/distribution/runtime.h"
#include "keras/saving/weights.h"

namespace keras::callbacks {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kStateAttribute = "keras_cpp_training_metadata";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  check<IOError>(static_cast<bool>(in), "Cannot read ", path, ".");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Copies `from` over `to` atomically: on a full disk `to` stays as it was, no temporary is left
// and the IOError names the file and the cause.
void copy_atomic(const std::string& from, const std::string& to) {
  saving::write_file_atomically(to, saving::read_file_bytes(from));
}

json parse_metadata(const std::string& text, const std::string& where) {
  try {
    json j = json::parse(text);
    check<IOError>(j.is_object() && j.contains("epoch") && j["epoch"].is_number_integer(),
                   where, " is not BackupAndRestore training metadata.");
    return j;
  } catch (const json::exception& e) {
    throw IOError(where + " is not valid JSON: " + e.what());
  }
}

}  // namespace

BackupAndRestore::BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options)
    : backup_dir_(std::move(backup_dir)), options_(options) {
  check(!backup_dir_.empty(), "Empty `backup_dir` argument passed");
  weights_path_ = (fs::path(backup_dir_) / "latest.weights.h5").string();
  metadata_path_ = (fs::path(backup_dir_) / "training_metadata.json").string();
  prev_weights_path_ = weights_path_ + ".bkp";
  prev_metadata_path_ = metadata_path_ + ".bkp";
}

void BackupAndRestore::on_train_begin(const Logs&) {
  restored_epoch_.reset();
  current_epoch_ = 0;
  last_batch_seen_ = 0;
  counter_ = BatchSaveCounter();
  try {
    load_model();
  } catch (const IOError&) {
    if (!fs::exists(prev_weights_path_)) throw;
    copy_atomic(prev_weights_path_, weights_path_);
    if (fs::exists(prev_metadata_path_)) {
      copy_atomic(prev_metadata_path_, metadata_path_);
    } else if (fs::exists(metadata_path_)) {
      fs::remove(metadata_path_);
    }
    load_model();
  }
}

void BackupAndRestore::load_model() {
  Model& m = *model();
  check(m.built(), "To use the BackupAndRestore callback, your model must be built before you "
                   "call `fit()`. Model '", m.name(), "' is unbuilt. You can build it "
                   "beforehand by calling it on a batch of data.");
  std::optional<json> metadata;
  if (fs::exists(weights_path_)) {
    // Reading the state first also checks the file is readable HDF5 (IOError otherwise).
    saving::H5File file = saving::H5File::open(weights_path_);
    if (auto state = file.string_attribute("", kStateAttribute))
      metadata = parse_metadata(*state, weights_path_);
    saving::load_weights(m, weights_path_, {.optimizer = true});
  }
  if (!metadata && fs::exists(metadata_path_))  // a backup written by Python Keras
    metadata = parse_metadata(read_text(metadata_path_), metadata_path_);
  if (!metadata) return;
  int epoch = (*metadata)["epoch"].get<int>();
  m.set_resume_epoch(epoch);
  restored_epoch_ = epoch;
  current_epoch_ = epoch;
  if (metadata->contains("shuffle_generator") && m.shuffle_generator() != nullptr) {
    const json& g = (*metadata)["shuffle_generator"];
    m.shuffle_generator()->set_state(g.at(0).get<uint64_t>(), g.at(1).get<uint64_t>());
  }
}

void BackupAndRestore::on_epoch_begin(int, const Logs&) {
  // Called before fit starts the epoch's pass (and its shuffle).
  if (random::SeedGenerator* g = model()->shuffle_generator()) generator_at_epoch_start_ = g->state();
}

void BackupAndRestore::on_epoch_end(int epoch, const Logs&) {
  current_epoch_ = epoch + 1;
  last_batch_seen_ = 0;
  // The next epoch starts from the generator's current state.
  if (random::SeedGenerator* g = model()->shuffle_generator()) generator_at_epoch_start_ = g->state();
  if (options_.save_freq.per_epoch()) save_model();
}

void BackupAndRestore::on_train_batch_end(int64_t batch, const Logs&) {
  if (options_.save_freq.per_epoch()) return;
  if (counter_.should_save(batch, options_.save_freq.batches())) {
    last_batch_seen_ = batch;
    save_model();
  }
}

void BackupAndRestore::save_model() {
  // In a job of several processes the replicas are equal; process 0 alone writes the backup
  // (every process reads it when the job restarts); sharded variables are gathered whole first.
  trainers::WholeValuesScope whole(model());
  if (distribution::process_id() != 0) return;
  std::error_code ec;
  if (!fs::exists(backup_dir_)) fs::create_directories(backup_dir_, ec);
  check<IOError>(!ec, "BackupAndRestore: cannot create the backup folder ", backup_dir_, ": ",
                 ec.message(), ".");
  if (options_.double_checkpoint && fs::exists(weights_path_))
    copy_atomic(weights_path_, prev_weights_path_);
  if (options_.double_checkpoint && fs::exists(metadata_path_))
    copy_atomic(metadata_path_, prev_metadata_path_);
  json metadata = {{"epoch", current_epoch_}, {"batch", last_batch_seen_}};
  json with_state = metadata;
  if (generator_at_epoch_start_)
    with_state["shuffle_generator"] = {generator_at_epoch_start_->first,
                                       generator_at_epoch_start_->second};
  saving::save_weights(*model(), weights_path_, {.root_attributes = {{kStateAttribute,
                                                                      with_state.dump()}}});
  // Keras's file (json.dumps layout: ", " and ": " separators).
  std::ostringstream text;
  text << "{\"epoch\": " << current_epoch_ << ", \"batch\": " << last_batch_seen_ << "}";
  detail::write_file_atomic(metadata_path_, text.str());
}

void BackupAndRestore::on_train_end(const Logs&) {
  if (options_.delete_checkpoint && distribution::process_id() == 0 && fs::exists(backup_dir_))
    fs::remove_all(backup_dir_);
}

}  // namespace keras::callbacks
