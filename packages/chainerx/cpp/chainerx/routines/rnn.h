#pragma once

#include <cstdint>
#include <vector>

#include "chainerx/array.h"

namespace chainerx {

// Multi-layer recurrent networks over a batch of variable-length sequences, as Chainer's
// n_step_* functions (without dropout). All differentiable, to any order.
//
// xs: B sequences of shape (T_i, in_size), sorted by non-increasing T_i.
// hx (and cx): (S, B, N) initial states, S = n_layers, or 2 * n_layers for the bi-directional
//   routines, whose state s = 2 * layer + direction (0 forward, 1 backward).
// ws[s], bs[s]: the weights (W_0.. of shape (N, in) acting on the layer's input, then the
//   same number of shape (N, N) acting on the previous hidden state) and biases (N,) of state s.
//   The input of layer 0 has in_size features; that of a later layer has N (2 * N when bi-directional).
// ys[i]: (T_i, N) outputs of the last layer for sequence i (forward and backward outputs
//   concatenated, (T_i, 2 * N), when bi-directional); hy (and cy): the final states, like hx.
//
// LSTM (8 weights): i = sigmoid(W_0 x + W_4 h + b_0 + b_4), f = sigmoid(W_1 x + W_5 h + b_1 + b_5),
//   a = tanh(W_2 x + W_6 h + b_2 + b_6), o = sigmoid(W_3 x + W_7 h + b_3 + b_7),
//   c' = f * c + i * a, h' = o * tanh(c').
// GRU (6 weights): r = sigmoid(W_0 x + W_3 h + b_0 + b_3), z = sigmoid(W_1 x + W_4 h + b_1 + b_4),
//   n = tanh(W_2 x + b_2 + r * (W_5 h + b_5)), h' = (1 - z) * n + z * h.
// RNN (2 weights): h' = activation(W_0 x + W_1 h + b_0 + b_1).

struct NStepLstmResult {
    Array hy;
    Array cy;
    std::vector<Array> ys;
};

struct NStepRnnResult {
    Array hy;
    std::vector<Array> ys;
};

enum class RnnActivation { kTanh, kRelu };

NStepLstmResult NStepLstm(int64_t n_layers, const Array& hx, const Array& cx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs);
NStepLstmResult NStepBiLstm(int64_t n_layers, const Array& hx, const Array& cx,
                            const std::vector<std::vector<Array>>& ws, const std::vector<std::vector<Array>>& bs,
                            const std::vector<Array>& xs);

NStepRnnResult NStepGru(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                        const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs);
NStepRnnResult NStepBiGru(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs);

NStepRnnResult NStepRnn(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                        const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs,
                        RnnActivation activation = RnnActivation::kTanh);
NStepRnnResult NStepBiRnn(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs,
                          RnnActivation activation = RnnActivation::kTanh);

}  // namespace chainerx
