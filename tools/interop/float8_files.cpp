#include "float8_files.h"

#include <keras/saving/save_model.h>
#include <keras/utils/npy.h>

void write_float8_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add,
    const std::function<void(const std::string& name, keras::Model& model,
                             const keras::TensorList& data)>& resume) {
  namespace ops = keras::ops;
  auto arrays = keras::utils::load_npz(fixtures_dir + "/quantize_float8.npz");
  for (const std::string name : {"mlp", "einsum"}) {
    keras::backend::clear_session();
    auto model =
        keras::saving::load_model(fixtures_dir + "/quantize_float8/" + name + "_float8.keras");
    model->compile({.optimizer = keras::optimizers::Adam(0.01), .loss = "mean_squared_error"});
    const keras::Tensor& x = arrays.at(name + ".x");
    const keras::Tensor& y = arrays.at(name + ".y");
    model->fit(keras::TensorStruct(x), keras::TensorStruct(y),
               {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
    add("cpp_float8_" + name, "quantize_float8:" + name, *model, {x});
    auto rows = [](const keras::Tensor& t, int64_t from) {
      std::vector<int64_t> start(static_cast<size_t>(t.ndim()), 0);
      start[0] = from;
      keras::Shape shape = t.shape();
      shape[0] = 4;
      return ops::slice(t, start, shape);
    };
    resume("cpp_float8_" + name, *model, {rows(x, 0), rows(y, 0), rows(x, 4), rows(y, 4), x});
  }
}
