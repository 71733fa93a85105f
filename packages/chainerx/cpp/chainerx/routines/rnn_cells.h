#pragma once

#include <utility>
#include <vector>

#include "chainerx/array.h"

namespace chainerx {

// The recurrent cells of Chainer's activation functions. Each returns (c, h): the new cell state
// and the output. Inputs share one floating dtype; x has (gates x units) channels on axis 1 for
// cell states of shape (batch, units, rest...). Composed of differentiable routines.

// LSTM: x (batch, 4 * units, rest...) holds the gates interleaved per unit: channel 4 * u + g is
// gate g of unit u, in the order a, i, f, o. With
//   c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev,  h = sigmoid(o) * tanh(c).
// x's batch may be smaller than c_prev's: the rows of c past it are c_prev's own, and h has x's
// batch.
std::pair<Array, Array> Lstm(const Array& c_prev, const Array& x);

// S-LSTM, merging two LSTMs: x1, x2 are laid out as lstm's x, and with a = a1 + a2, i = i1 + i2,
// o = o1 + o2,
//   c = tanh(a) * sigmoid(i) + sigmoid(f1) * c_prev1 + sigmoid(f2) * c_prev2,  h = sigmoid(o) * tanh(c).
std::pair<Array, Array> Slstm(const Array& c_prev1, const Array& c_prev2, const Array& x1, const Array& x2);

// Tree-LSTM over n children: inputs are c_1..c_n and x (batch, (3 + n) * units, rest...), whose
// gates are consecutive blocks of units channels in the order a, i, o, f_1..f_n. With
//   c = tanh(a) * sigmoid(i) + sum_k sigmoid(f_k) * c_k,  h = sigmoid(o) * tanh(c).
std::pair<Array, Array> TreeLstm(const std::vector<Array>& inputs);

}  // namespace chainerx
