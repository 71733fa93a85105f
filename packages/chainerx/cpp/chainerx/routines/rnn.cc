#include "chainerx/routines/rnn.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chainerx/error.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// The recurrent state of a batch of sequences: h, and c for the LSTM; each (batch, N).
using State = std::vector<Array>;

// One step of a cell: gx and gh are the gate pre-activations from the input and from the hidden
// state, (batch, G * N) with the gate blocks stacked in Cell::order.
using StepFunction = std::function<State(const Array& gx, const Array& gh, const State& state)>;

struct Cell {
    // G: ws[s][0..G) act on the layer's input, ws[s][G..2G) on the hidden state (biases alike).
    int64_t gates;
    // The gate blocks are stacked in this order, which puts gates of one activation side by side.
    std::vector<int64_t> order;
    // The GRU multiplies a hidden-state term with its bias by r; the other cells only ever add the
    // two biases of a gate, so they are added once for all steps.
    bool separate_hidden_bias;
    StepFunction step;
};

// Stacked i, f, o (sigmoid), a (tanh).
State LstmStep(const Array& gx, const Array& gh, const State& state) {
    int64_t n = state[0].shape()[1];
    std::vector<Array> pre = Split(Add(gx, gh), std::vector<int64_t>{3 * n}, 1);
    std::vector<Array> ifo = Split(Sigmoid(pre[0]), 3, 1);
    Array c = Add(Multiply(ifo[1], state[1]), Multiply(ifo[0], Tanh(pre[1])));
    return {Multiply(ifo[2], Tanh(c)), c};
}

// Stacked r, z (sigmoid), then the candidate.
State GruStep(const Array& gx, const Array& gh, const State& state) {
    int64_t n = state[0].shape()[1];
    std::vector<Array> x = Split(gx, std::vector<int64_t>{2 * n}, 1);
    std::vector<Array> h = Split(gh, std::vector<int64_t>{2 * n}, 1);
    std::vector<Array> rz = Split(Sigmoid(Add(x[0], h[0])), 2, 1);
    Array candidate = Tanh(Add(x[1], Multiply(rz[0], h[1])));
    // (1 - z) * candidate + z * h, with one product fewer.
    return {Add(candidate, Multiply(rz[1], Subtract(state[0], candidate)))};
}

const Cell& LstmCell() {
    static const Cell cell{4, {0, 1, 3, 2}, false, LstmStep};
    return cell;
}

const Cell& GruCell() {
    static const Cell cell{3, {0, 1, 2}, true, GruStep};
    return cell;
}

Cell RnnCell(RnnActivation activation) {
    Array (*f)(const Array&) = activation == RnnActivation::kRelu ? &Relu : &Tanh;
    return Cell{1, {0}, false, [f](const Array& gx, const Array& gh, const State&) { return State{f(Add(gx, gh))}; }};
}

// The batch laid out time-major, as the recurrence consumes it: the rows of step t are the t-th
// elements of the batch[t] sequences longer than t (sorted by decreasing length, these are the first ones).
struct Packing {
    std::vector<int64_t> batch;
    // The packed row where each step after the first begins.
    std::vector<int64_t> step_starts;
    // The row of the concatenated sequences where each sequence after the first begins.
    std::vector<int64_t> sequence_starts;
    // Row indices (int64) from the concatenated sequences to the packed rows, and back.
    Array to_packed;
    Array to_sequences;
};

Packing MakePacking(const std::vector<Array>& xs) {
    Packing p;
    std::vector<int64_t> first_row{0};
    for (const Array& x : xs) first_row.push_back(first_row.back() + x.shape()[0]);
    p.sequence_starts.assign(first_row.begin() + 1, first_row.end() - 1);
    int64_t steps = xs[0].shape()[0];
    std::vector<int64_t> to_packed;
    std::vector<int64_t> to_sequences(first_row.back());
    for (int64_t t = 0; t < steps; ++t) {
        if (t > 0) p.step_starts.push_back(static_cast<int64_t>(to_packed.size()));
        int64_t b = 0;
        while (b < static_cast<int64_t>(xs.size()) && xs[b].shape()[0] > t) {
            to_sequences[first_row[b] + t] = static_cast<int64_t>(to_packed.size());
            to_packed.push_back(first_row[b] + t);
            ++b;
        }
        p.batch.push_back(b);
    }
    Device& device = xs[0].device();
    p.to_packed = FromContiguousHostData(Shape{first_row.back()}, Dtype::kInt64, to_packed.data(), device);
    p.to_sequences = FromContiguousHostData(Shape{first_row.back()}, Dtype::kInt64, to_sequences.data(), device);
    return p;
}

State Rows(const State& s, int64_t start, int64_t stop) {
    State out;
    for (const Array& a : s) out.push_back(internal::AxisSlice(a, 0, start, stop));
    return out;
}

// Row-wise concatenation of the states, component by component.
State ConcatRows(const std::vector<State>& parts) {
    State out;
    for (size_t k = 0; k < parts[0].size(); ++k) {
        std::vector<Array> pieces;
        for (const State& part : parts) pieces.push_back(part[k]);
        out.push_back(pieces.size() == 1 ? pieces[0] : Concatenate(pieces, 0));
    }
    return out;
}

// The per-step input terms of one direction of one layer (one GEMM for all steps), and what the
// recurrence multiplies the hidden state with.
struct Projections {
    std::vector<Array> gx;
    Array wh_t;
    std::optional<Array> bh;
};

Projections Project(const Cell& cell, const Array& x, const std::vector<Array>& w, const std::vector<Array>& b,
                    const Packing& p) {
    auto stack = [&cell](const std::vector<Array>& arrays, int64_t first) {
        std::vector<Array> blocks;
        for (int64_t g : cell.order) blocks.push_back(arrays[first + g]);
        return blocks.size() == 1 ? blocks[0] : Concatenate(blocks, 0);
    };
    Array bx = stack(b, 0);
    Array bh = stack(b, cell.gates);
    if (!cell.separate_hidden_bias) bx = Add(bx, bh);
    Array gx = Add(Dot(x, Transpose(stack(w, 0))), bx);
    return {Split(gx, p.step_starts, 0), Transpose(stack(w, cell.gates)),
            cell.separate_hidden_bias ? std::optional<Array>{bh} : std::nullopt};
}

// Runs one direction of one layer from the initial state (all B rows). Returns the packed outputs
// and sets `last` to the final state of every sequence.
Array RunDirection(const Cell& cell, const Projections& proj, const State& initial, const Packing& p, bool reverse,
                   State& last) {
    int64_t steps = static_cast<int64_t>(p.batch.size());
    int64_t total_batch = initial[0].shape()[0];
    if (steps == 0) {
        // Every sequence is empty: the states stay as given.
        last = initial;
        return Zeros(Shape{0, initial[0].shape()[1]}, initial[0].dtype(), initial[0].device());
    }
    std::vector<Array> outputs(steps);
    // Forward, the batch shrinks as sequences end; their final states are kept here, last-ended
    // (lowest rows) last. Backward, it grows, taking new sequences' rows from the initial state.
    std::vector<State> ended;
    State state = reverse ? Rows(initial, 0, p.batch.back()) : initial;
    for (int64_t k = 0; k < steps; ++k) {
        int64_t t = reverse ? steps - 1 - k : k;
        int64_t b = p.batch[t];
        int64_t rows = state[0].shape()[0];
        if (b < rows) {
            State kept;
            State rest;
            for (const Array& a : state) {
                std::vector<Array> halves = Split(a, std::vector<int64_t>{b}, 0);
                kept.push_back(halves[0]);
                rest.push_back(halves[1]);
            }
            ended.push_back(std::move(rest));
            state = std::move(kept);
        } else if (b > rows) {
            state = ConcatRows({state, Rows(initial, rows, b)});
        }
        Array gh = Dot(state[0], proj.wh_t);
        if (proj.bh.has_value()) gh = Add(gh, *proj.bh);
        state = cell.step(proj.gx[t], gh, state);
        outputs[t] = state[0];
    }
    std::vector<State> parts{state};
    parts.insert(parts.end(), ended.rbegin(), ended.rend());
    // Only sequences of length 0 are still missing (backward): their state is the initial one.
    int64_t rows = 0;
    for (const State& part : parts) rows += part[0].shape()[0];
    if (rows < total_batch) parts.push_back(Rows(initial, rows, total_batch));
    last = ConcatRows(parts);
    return Concatenate(outputs, 0);
}

std::string Item(const char* list, size_t i) { return internal::MakeMessage(list, "[", i, "]"); }

std::string Item(const char* list, size_t i, size_t j) { return internal::MakeMessage(list, "[", i, "][", j, "]"); }

// Every array must have the dtype and device of xs[0].
void CheckLike(const char* name, const Array& a, const std::string& what, const Array& x0) {
    if (a.dtype() != x0.dtype()) {
        throw DtypeError{name,
                         ": ",
                         what,
                         " has dtype ",
                         GetDtypeName(a.dtype()),
                         ", expected ",
                         GetDtypeName(x0.dtype()),
                         " like xs[0]"};
    }
    CheckEqualDevices(a.device(), x0.device());
}

void CheckArray(const char* name, const Array& a, const std::string& what, const Shape& shape, const Array& x0) {
    CheckLike(name, a, what, x0);
    if (a.shape() != shape) throw DimensionError{name, ": ", what, " must have shape ", shape, ", got ", a.shape()};
}

void CheckArguments(const char* name, const Cell& cell, int64_t n_layers, int64_t directions, const State& initial,
                    const std::vector<std::vector<Array>>& ws, const std::vector<std::vector<Array>>& bs,
                    const std::vector<Array>& xs) {
    static const char* const kStateNames[] = {"hx", "cx"};
    if (n_layers <= 0) throw DimensionError{name, ": n_layers must be positive, got ", n_layers};
    if (xs.empty()) throw DimensionError{name, ": xs must not be empty"};
    const Array& x0 = xs[0];
    internal::CheckFloating(x0, name);
    if (x0.ndim() != 2) throw DimensionError{name, ": xs[0] must have shape (length, in_size), got ", x0.shape()};
    int64_t in_size = x0.shape()[1];
    for (size_t i = 1; i < xs.size(); ++i) {
        CheckLike(name, xs[i], Item("xs", i), x0);
        if (xs[i].ndim() != 2 || xs[i].shape()[1] != in_size) {
            throw DimensionError{name,         ": xs[", i, "] must have shape (length, ", in_size, ") like xs[0], got ",
                                 xs[i].shape()};
        }
        if (xs[i].shape()[0] > xs[i - 1].shape()[0]) {
            throw DimensionError{name,
                                 ": xs must be sorted by decreasing length, but xs[",
                                 i,
                                 "] has length ",
                                 xs[i].shape()[0],
                                 " and xs[",
                                 i - 1,
                                 "] has ",
                                 xs[i - 1].shape()[0]};
        }
    }
    int64_t n_states = n_layers * directions;
    const Array& hx = initial[0];
    if (hx.ndim() != 3 || hx.shape()[0] != n_states || hx.shape()[1] != static_cast<int64_t>(xs.size())) {
        throw DimensionError{name,      ": hx must have shape (", n_states,  ", ",
                             xs.size(), ", units) for ",          n_layers,  " layer(s) and ",
                             xs.size(), " sequence(s), got ",     hx.shape()};
    }
    for (size_t k = 0; k < initial.size(); ++k) CheckArray(name, initial[k], kStateNames[k], hx.shape(), x0);
    int64_t units = hx.shape()[2];
    if (static_cast<int64_t>(ws.size()) != n_states || static_cast<int64_t>(bs.size()) != n_states) {
        throw DimensionError{name,      ": ws and bs must hold ",
                             n_states,  " lists (one per layer and direction), got ",
                             ws.size(), " and ",
                             bs.size()};
    }
    size_t per_layer = static_cast<size_t>(2 * cell.gates);
    for (int64_t s = 0; s < n_states; ++s) {
        if (ws[s].size() != per_layer) {
            throw DimensionError{name, ": ws[", s, "] must hold ", per_layer, " weights, got ", ws[s].size()};
        }
        if (bs[s].size() != per_layer) {
            throw DimensionError{name, ": bs[", s, "] must hold ", per_layer, " biases, got ", bs[s].size()};
        }
        int64_t layer_in = s < directions ? in_size : directions * units;
        for (size_t j = 0; j < per_layer; ++j) {
            int64_t cols = static_cast<int64_t>(j) < cell.gates ? layer_in : units;
            CheckArray(name, ws[s][j], Item("ws", s, j), Shape{units, cols}, x0);
            CheckArray(name, bs[s][j], Item("bs", s, j), Shape{units}, x0);
        }
    }
}

// The driver shared by every cell: n_layers layers of one or two directions over the packed batch.
std::pair<State, std::vector<Array>> RunLayers(const char* name, const Cell& cell, int64_t n_layers, bool bidirectional,
                                               const State& initial, const std::vector<std::vector<Array>>& ws,
                                               const std::vector<std::vector<Array>>& bs,
                                               const std::vector<Array>& xs) {
    int64_t directions = bidirectional ? 2 : 1;
    CheckArguments(name, cell, n_layers, directions, initial, ws, bs, xs);
    Packing p = MakePacking(xs);
    int64_t n_states = n_layers * directions;
    Array x = Take(Concatenate(xs, 0), p.to_packed, 0);
    std::vector<State> last(n_states);
    for (int64_t layer = 0; layer < n_layers; ++layer) {
        std::vector<Array> outputs;
        for (int64_t d = 0; d < directions; ++d) {
            int64_t s = layer * directions + d;
            State start;
            for (const Array& a : initial) start.push_back(At(a, {ArrayIndex{s}}));
            outputs.push_back(RunDirection(cell, Project(cell, x, ws[s], bs[s], p), start, p, d == 1, last[s]));
        }
        x = directions == 1 ? outputs[0] : Concatenate(outputs, 1);
    }
    State final_states;
    for (size_t k = 0; k < initial.size(); ++k) {
        std::vector<Array> per_state;
        for (const State& s : last) per_state.push_back(s[k]);
        final_states.push_back(Stack(per_state, 0));
    }
    return {final_states, Split(Take(x, p.to_sequences, 0), p.sequence_starts, 0)};
}

NStepLstmResult Lstm(const char* name, bool bidirectional, int64_t n_layers, const Array& hx, const Array& cx,
                     const std::vector<std::vector<Array>>& ws, const std::vector<std::vector<Array>>& bs,
                     const std::vector<Array>& xs) {
    auto [last, ys] = RunLayers(name, LstmCell(), n_layers, bidirectional, {hx, cx}, ws, bs, xs);
    return {last[0], last[1], std::move(ys)};
}

NStepRnnResult Run(const char* name, const Cell& cell, bool bidirectional, int64_t n_layers, const Array& hx,
                   const std::vector<std::vector<Array>>& ws, const std::vector<std::vector<Array>>& bs,
                   const std::vector<Array>& xs) {
    auto [last, ys] = RunLayers(name, cell, n_layers, bidirectional, {hx}, ws, bs, xs);
    return {last[0], std::move(ys)};
}

}  // namespace

NStepLstmResult NStepLstm(int64_t n_layers, const Array& hx, const Array& cx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs) {
    return Lstm("n_step_lstm", false, n_layers, hx, cx, ws, bs, xs);
}

NStepLstmResult NStepBiLstm(int64_t n_layers, const Array& hx, const Array& cx,
                            const std::vector<std::vector<Array>>& ws, const std::vector<std::vector<Array>>& bs,
                            const std::vector<Array>& xs) {
    return Lstm("n_step_bilstm", true, n_layers, hx, cx, ws, bs, xs);
}

NStepRnnResult NStepGru(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                        const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs) {
    return Run("n_step_gru", GruCell(), false, n_layers, hx, ws, bs, xs);
}

NStepRnnResult NStepBiGru(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs) {
    return Run("n_step_bigru", GruCell(), true, n_layers, hx, ws, bs, xs);
}

NStepRnnResult NStepRnn(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                        const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs,
                        RnnActivation activation) {
    return Run("n_step_rnn", RnnCell(activation), false, n_layers, hx, ws, bs, xs);
}

NStepRnnResult NStepBiRnn(int64_t n_layers, const Array& hx, const std::vector<std::vector<Array>>& ws,
                          const std::vector<std::vector<Array>>& bs, const std::vector<Array>& xs,
                          RnnActivation activation) {
    return Run("n_step_birnn", RnnCell(activation), true, n_layers, hx, ws, bs, xs);
}

}  // namespace chainerx
