// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/core/dense.h"
#include "keras/layers/rnn/bidirectional.h"
#include "keras/layers/rnn/gru.h"
#include "keras/layers/rnn/lstm.h"
#include "keras/layers/rnn/rnn.h"
#include "keras/layers/rnn/simple_rnn.h"
#include "keras/layers/rnn/stacked_rnn_cells.h"
#include "keras/layers/rnn/time_distributed.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"Bidirectional", BidirectionalLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"GRU", GRULayer::from_config},
      {"GRUCell", GRUCellLayer::from_config},
      {"LSTM", LSTMLayer::from_config},
      {"LSTMCell", LSTMCellLayer::from_config},
      {"RNN", RNNLayer::from_config},
      {"SimpleRNN", SimpleRNNLayer::from_config},
      {"SimpleRNNCell", SimpleRNNCellLayer::from_config},
      {"StackedRNNCells", StackedRNNCellsLayer::from_config},
      {"TimeDistributed", TimeDistributedLayer::from_config},
  };
}

}  // namespace keras::layers::detail
