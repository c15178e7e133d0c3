#pragma once
// Replays a layer fixture (tools/golden/layers_*.py): inputs, weights in Keras layout and an
// upstream gradient in; the output and the gradients of sum(output * upstream) with respect to
// every input and every trainable weight out, for the golden runner to compare.
//
// Fixture layout (kwargs): "n_inputs" tensors, then "n_weights" weights in the order of
// layer->weights(), then one upstream gradient per output. Expected: the outputs, then the
// input gradients, then the gradients of the trainable weights. "training" sets the call's
// training flag; "list_call" calls the layer with a list.

#include "golden.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/layers/layer.h"

namespace keras::test {

/// Runs the fixture through `layer` (built here from the inputs' shapes).
TensorList run_layer_fixture(Layer& layer, const TensorList& fixture_inputs, const json& kwargs);

/// What a layer case expects, from a call already made under `tape` on `watched`: the
/// outputs, the gradients of sum(output * upstream) (floating outputs, in float64) with respect
/// to the floating watched inputs and the trainable weights, then, with `updated_weights`,
/// every weight after the call.
TensorList outputs_and_gradients(Layer& layer, GradientTape& tape, const TensorList& watched,
                                 const TensorList& outputs, const TensorList& upstream,
                                 bool updated_weights);

}  // namespace keras::test
