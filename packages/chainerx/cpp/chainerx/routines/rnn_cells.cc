#include "chainerx/routines/rnn_cells.h"

#include "chainerx/error.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// Checks one cell state / gate input pair: one floating dtype and device, x of c's shape but
// with n_gates times the channels; x's batch may be smaller than c's when allowed.
void CheckCellPair(const char* name, const Array& c, const Array& x, int64_t n_gates, bool smaller_batch_ok) {
    internal::CheckFloating(c, name);
    if (c.dtype() != x.dtype()) {
        throw DtypeError{name, ": cell states and inputs must share one dtype, got ", c.dtype(), " and ", x.dtype()};
    }
    CheckEqualDevices(c.device(), x.device());
    if (c.ndim() < 2) {
        throw DimensionError{name, ": cell states need at least 2 axes (batch, units, ...), got shape ", c.shape()};
    }
    bool fits = x.ndim() == c.ndim() && x.shape()[1] == n_gates * c.shape()[1];
    fits = fits && (smaller_batch_ok ? x.shape()[0] <= c.shape()[0] : x.shape()[0] == c.shape()[0]);
    for (int d = 2; fits && d < c.ndim(); ++d) fits = x.shape()[d] == c.shape()[d];
    if (!fits) {
        throw DimensionError{name,
                             ": x of shape ",
                             x.shape(),
                             " does not fit the cell state of shape ",
                             c.shape(),
                             ": x needs ",
                             n_gates,
                             " * ",
                             c.shape()[1],
                             " channels on axis 1, the state's other axes and ",
                             smaller_batch_ok ? "at most its batch" : "its batch"};
    }
}

// x (batch, n_gates * units, rest...) split into n_gates views (batch, units, rest...). Interleaved
// gates take channel u * n_gates + g for gate g of unit u; blocked ones g * units + u.
std::vector<Array> ExtractGates(const Array& x, int64_t n_gates, bool interleaved) {
    int64_t units = x.shape()[1] / n_gates;
    Shape shape{x.shape()[0]};
    shape.push_back(interleaved ? units : n_gates);
    shape.push_back(interleaved ? n_gates : units);
    for (int d = 2; d < x.ndim(); ++d) shape.push_back(x.shape()[d]);
    Array r = Reshape(x, shape);
    std::vector<Array> gates;
    for (int64_t g = 0; g < n_gates; ++g) {
        gates.push_back(interleaved ? At(r, {Slice{}, Slice{}, g}) : At(r, {Slice{}, g}));
    }
    return gates;
}

// The update all the cells share, from gate pre-activations: c = sum_j tanh(a_j) sigmoid(i_j) +
// sum_k sigmoid(f_k) c_k and h = sigmoid(o) tanh(c) (one a and i but for slstm's two inputs).
std::pair<Array, Array> CellUpdate(const std::vector<Array>& as, const std::vector<Array>& is, const Array& o,
                                   const std::vector<Array>& fs, const std::vector<Array>& cs) {
    Array c = Multiply(Tanh(as[0]), Sigmoid(is[0]));
    for (size_t j = 1; j < as.size(); ++j) c = Add(c, Multiply(Tanh(as[j]), Sigmoid(is[j])));
    for (size_t k = 0; k < fs.size(); ++k) c = Add(c, Multiply(Sigmoid(fs[k]), cs[k]));
    Array h = Multiply(Sigmoid(o), Tanh(c));
    return {c, h};
}

}  // namespace

std::pair<Array, Array> Lstm(const Array& c_prev, const Array& x) {
    CheckCellPair("lstm", c_prev, x, 4, true);
    std::vector<Array> g = ExtractGates(x, 4, true);
    int64_t batch = x.shape()[0];
    int64_t full = c_prev.shape()[0];
    Array c_head = batch == full ? c_prev : internal::AxisSlice(c_prev, 0, 0, batch);
    auto [c, h] = CellUpdate({g[0]}, {g[1]}, g[3], {g[2]}, {c_head});
    // Rows past x's batch (shorter sequences already ended) keep their state.
    if (batch < full) c = Concatenate({c, internal::AxisSlice(c_prev, 0, batch, full)}, 0);
    return {c, h};
}

std::pair<Array, Array> Slstm(const Array& c_prev1, const Array& c_prev2, const Array& x1, const Array& x2) {
    if (c_prev1.shape() != c_prev2.shape() || x1.shape() != x2.shape()) {
        throw DimensionError{"slstm: c_prev1 and c_prev2 (shapes ",
                             c_prev1.shape(),
                             ", ",
                             c_prev2.shape(),
                             ") and x1 and x2 (shapes ",
                             x1.shape(),
                             ", ",
                             x2.shape(),
                             ") must have equal shapes"};
    }
    CheckCellPair("slstm", c_prev1, x1, 4, false);
    CheckCellPair("slstm", c_prev2, x2, 4, false);
    std::vector<Array> g1 = ExtractGates(x1, 4, true);
    std::vector<Array> g2 = ExtractGates(x2, 4, true);
    return CellUpdate({g1[0], g2[0]}, {g1[1], g2[1]}, Add(g1[3], g2[3]), {g1[2], g2[2]}, {c_prev1, c_prev2});
}

std::pair<Array, Array> TreeLstm(const std::vector<Array>& inputs) {
    if (inputs.size() < 2) {
        throw ChainerxError{"tree_lstm: expected the cell states of at least one child followed by x, got ",
                            inputs.size(), " array(s)"};
    }
    std::vector<Array> cs(inputs.begin(), inputs.end() - 1);
    const Array& x = inputs.back();
    auto n_gates = static_cast<int64_t>(3 + cs.size());
    for (const Array& c : cs) {
        if (c.shape() != cs[0].shape()) {
            throw DimensionError{"tree_lstm: the children's cell states must have one shape, got ", cs[0].shape(),
                                 " and ", c.shape()};
        }
        CheckCellPair("tree_lstm", c, x, n_gates, false);
    }
    std::vector<Array> g = ExtractGates(x, n_gates, false);
    return CellUpdate({g[0]}, {g[1]}, g[2], std::vector<Array>(g.begin() + 3, g.end()), cs);
}

}  // namespace chainerx
