#include "keras/layers/keras_tensor.h"

#include <ostream>
#include <sstream>

#include "keras/layers/layer.h"

namespace keras {

struct KerasTensor::State {
  Shape shape;
  DType dtype;
  std::string name;
  std::shared_ptr<Node> node;
  int index;
};

std::string shape_string(const Shape& shape) {
  std::ostringstream out;
  out << '(';
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) out << ", ";
    if (shape[i] < 0) out << "None";
    else out << shape[i];
  }
  if (shape.rank() == 1) out << ',';
  out << ')';
  return out.str();
}

KerasTensor KerasTensor::make(Shape shape, DType dtype, std::shared_ptr<Node> node, int index,
                              std::string name) {
  KerasTensor t;
  if (name.empty()) name = unique_name("keras_tensor");
  t.state_ = std::make_shared<const State>(
      State{std::move(shape), dtype, std::move(name), std::move(node), index});
  return t;
}

const KerasTensor::State& KerasTensor::state() const {
  check(defined(), "KerasTensor: this handle is undefined.");
  return *state_;
}
const Shape& KerasTensor::shape() const { return state().shape; }
DType KerasTensor::dtype() const { return state().dtype; }
const std::string& KerasTensor::name() const { return state().name; }
const std::shared_ptr<Node>& KerasTensor::node() const { return state().node; }
int KerasTensor::tensor_index() const { return state().index; }

std::shared_ptr<Layer> KerasTensor::producer() const {
  return node() ? node()->layer : nullptr;
}

std::ostream& operator<<(std::ostream& out, const KerasTensor& t) {
  if (!t.defined()) return out << "<KerasTensor undefined>";
  return out << "<KerasTensor shape=" << shape_string(t.shape()) << ", dtype=" << t.dtype()
             << ", name=" << t.name() << ">";
}

}  // namespace keras
