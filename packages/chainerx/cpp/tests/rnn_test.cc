#include "chainerx/routines/rnn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ToVector;
using Vec = std::vector<double>;
using ArrayLists = std::vector<std::vector<Array>>;

enum class Kind { kLstm, kGru, kRnnTanh, kRnnRelu };

int64_t WeightsPerLayer(Kind kind) { return kind == Kind::kLstm ? 8 : kind == Kind::kGru ? 6 : 2; }

double Sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

// A network's arguments, with random values, and the same values as plain vectors.
struct Net {
    Kind kind;
    int64_t n_layers;
    bool bi;
    int64_t units;
    Array hx, cx;
    ArrayLists ws, bs;
    std::vector<Array> xs;

    int64_t directions() const { return bi ? 2 : 1; }
};

Net MakeNet(Kind kind, int64_t n_layers, bool bi, int64_t in_size, int64_t units, const std::vector<int64_t>& lengths,
            Dtype dtype = Dtype::kFloat64) {
    Net net{kind, n_layers, bi, units, {}, {}, {}, {}, {}};
    int64_t states = n_layers * net.directions();
    int64_t batch = static_cast<int64_t>(lengths.size());
    net.hx = RandomUniform(-1, 1, Shape{states, batch, units}, dtype);
    net.cx = RandomUniform(-1, 1, Shape{states, batch, units}, dtype);
    int64_t gates = WeightsPerLayer(kind) / 2;
    for (int64_t s = 0; s < states; ++s) {
        int64_t layer_in = s < net.directions() ? in_size : net.directions() * units;
        net.ws.emplace_back();
        net.bs.emplace_back();
        for (int64_t j = 0; j < 2 * gates; ++j) {
            net.ws.back().push_back(RandomUniform(-1, 1, Shape{units, j < gates ? layer_in : units}, dtype));
            net.bs.back().push_back(RandomUniform(-1, 1, Shape{units}, dtype));
        }
    }
    for (int64_t length : lengths) net.xs.push_back(RandomUniform(-1, 1, Shape{length, in_size}, dtype));
    return net;
}

// hy (and cy, for the LSTM) and ys of the routine under test.
struct Outputs {
    std::vector<Array> states;
    std::vector<Array> ys;
};

Outputs RunNet(const Net& n) {
    switch (n.kind) {
        case Kind::kLstm: {
            NStepLstmResult r = n.bi ? NStepBiLstm(n.n_layers, n.hx, n.cx, n.ws, n.bs, n.xs)
                                     : NStepLstm(n.n_layers, n.hx, n.cx, n.ws, n.bs, n.xs);
            return {{r.hy, r.cy}, r.ys};
        }
        case Kind::kGru: {
            NStepRnnResult r = n.bi ? NStepBiGru(n.n_layers, n.hx, n.ws, n.bs, n.xs)
                                    : NStepGru(n.n_layers, n.hx, n.ws, n.bs, n.xs);
            return {{r.hy}, r.ys};
        }
        default: {
            RnnActivation act = n.kind == Kind::kRnnRelu ? RnnActivation::kRelu : RnnActivation::kTanh;
            NStepRnnResult r = n.bi ? NStepBiRnn(n.n_layers, n.hx, n.ws, n.bs, n.xs, act)
                                    : NStepRnn(n.n_layers, n.hx, n.ws, n.bs, n.xs, act);
            return {{r.hy}, r.ys};
        }
    }
}

// ---- Reference: each sequence on its own, element by element, from the documented equations ----

// W v + b for W (rows x v.size()) in row-major order.
Vec Affine(const Vec& w, const Vec& v, const Vec& b) {
    Vec out = b;
    for (size_t r = 0; r < b.size(); ++r) {
        for (size_t k = 0; k < v.size(); ++k) out[r] += w[r * v.size() + k] * v[k];
    }
    return out;
}

Vec Row(const Array& a, const std::vector<ArrayIndex>& index) { return ToVector<double>(At(a, index)); }

// One direction of one layer over one sequence; h and c hold the state in and out.
std::vector<Vec> RefDirection(Kind kind, const std::vector<Array>& w_arrays, const std::vector<Array>& b_arrays,
                              const std::vector<Vec>& seq, bool reverse, Vec& h, Vec& c) {
    std::vector<Vec> w;
    std::vector<Vec> b;
    for (const Array& a : w_arrays) w.push_back(ToVector<double>(a));
    for (const Array& a : b_arrays) b.push_back(ToVector<double>(a));
    size_t n = h.size();
    size_t steps = seq.size();
    std::vector<Vec> out(steps);
    for (size_t k = 0; k < steps; ++k) {
        size_t t = reverse ? steps - 1 - k : k;
        const Vec& x = seq[t];
        auto term = [&](int j, const Vec& v) { return Affine(w[j], v, b[j]); };
        Vec next(n);
        if (kind == Kind::kLstm) {
            Vec i0 = term(0, x), i1 = term(4, h), f0 = term(1, x), f1 = term(5, h);
            Vec a0 = term(2, x), a1 = term(6, h), o0 = term(3, x), o1 = term(7, h);
            for (size_t u = 0; u < n; ++u) {
                c[u] = Sigmoid(f0[u] + f1[u]) * c[u] + Sigmoid(i0[u] + i1[u]) * std::tanh(a0[u] + a1[u]);
                next[u] = Sigmoid(o0[u] + o1[u]) * std::tanh(c[u]);
            }
        } else if (kind == Kind::kGru) {
            Vec r0 = term(0, x), r1 = term(3, h), z0 = term(1, x), z1 = term(4, h), n0 = term(2, x), n1 = term(5, h);
            for (size_t u = 0; u < n; ++u) {
                double r = Sigmoid(r0[u] + r1[u]);
                double z = Sigmoid(z0[u] + z1[u]);
                double cand = std::tanh(n0[u] + r * n1[u]);
                next[u] = (1 - z) * cand + z * h[u];
            }
        } else {
            Vec p0 = term(0, x), p1 = term(1, h);
            for (size_t u = 0; u < n; ++u) {
                double v = p0[u] + p1[u];
                next[u] = kind == Kind::kRnnRelu ? std::max(v, 0.0) : std::tanh(v);
            }
        }
        h = next;
        out[t] = h;
    }
    return out;
}

// Compares the routine's outputs with the reference.
void ExpectMatchesReference(const Net& net, double tol) {
    Outputs got = RunNet(net);
    int64_t batch = static_cast<int64_t>(net.xs.size());
    int64_t states = net.n_layers * net.directions();
    ASSERT_EQ(got.ys.size(), net.xs.size());
    for (const Array& s : got.states) EXPECT_EQ(s.shape(), net.hx.shape());
    for (int64_t i = 0; i < batch; ++i) {
        std::vector<Vec> seq;
        for (int64_t t = 0; t < net.xs[i].shape()[0]; ++t) seq.push_back(Row(net.xs[i], {t}));
        for (int64_t layer = 0; layer < net.n_layers; ++layer) {
            std::vector<Vec> next(seq.size());
            for (int64_t d = 0; d < net.directions(); ++d) {
                int64_t s = layer * net.directions() + d;
                Vec h = Row(net.hx, {s, i});
                Vec c = Row(net.cx, {s, i});
                std::vector<Vec> out = RefDirection(net.kind, net.ws[s], net.bs[s], seq, d == 1, h, c);
                for (size_t t = 0; t < seq.size(); ++t) next[t].insert(next[t].end(), out[t].begin(), out[t].end());
                ExpectAllClose(At(got.states[0], {s, i}), h, tol);
                if (net.kind == Kind::kLstm) ExpectAllClose(At(got.states[1], {s, i}), c, tol);
            }
            seq = next;
        }
        EXPECT_EQ(got.ys[i].shape(), (Shape{net.xs[i].shape()[0], net.directions() * net.units}));
        Vec flat;
        for (const Vec& v : seq) flat.insert(flat.end(), v.begin(), v.end());
        ExpectAllClose(got.ys[i], flat, tol);
    }
    EXPECT_EQ(states, got.states[0].shape()[0]);
}

class RnnTest : public ::testing::TestWithParam<Kind> {};

TEST_P(RnnTest, MatchesReference) {
    for (int64_t n_layers : {1, 2}) {
        for (bool bi : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "layers " << n_layers << ", bi " << bi);
            ExpectMatchesReference(MakeNet(GetParam(), n_layers, bi, 3, 4, {4, 3, 3, 1}), 1e-12);
            ExpectMatchesReference(MakeNet(GetParam(), n_layers, bi, 2, 3, {3}), 1e-12);
            ExpectMatchesReference(MakeNet(GetParam(), n_layers, bi, 3, 2, {2, 2, 1}, Dtype::kFloat32), 1e-5);
        }
    }
}

TEST_P(RnnTest, EmptySequencesKeepTheirInitialState) {
    for (bool bi : {false, true}) {
        Net net = MakeNet(GetParam(), 2, bi, 2, 3, {3, 0});
        ExpectMatchesReference(net, 1e-12);
        Outputs got = RunNet(net);
        ExpectAllClose(At(got.states[0], {Slice{}, 1}), ToVector<double>(At(net.hx, {Slice{}, 1})), 0);
        Net all_empty = MakeNet(GetParam(), 1, bi, 2, 3, {0, 0});
        ExpectMatchesReference(all_empty, 0);
    }
}

TEST_P(RnnTest, Gradients) {
    for (bool bi : {false, true}) {
        Net net = MakeNet(GetParam(), 2, bi, 2, 2, {2, 1});
        // The sum of every output, weighted by CheckGradient's random gy, as a function of one input at a time.
        auto total = [](const Outputs& out) {
            std::vector<Array> parts;
            for (const Array& s : out.states) parts.push_back(Ravel(s));
            for (const Array& y : out.ys) parts.push_back(Ravel(y));
            return Concatenate(parts, 0);
        };
        CheckGradient(
                [&](const Array& hx) {
                    Net n = net;
                    n.hx = hx;
                    return total(RunNet(n));
                },
                net.hx);
        CheckGradient(
                [&](const Array& w) {
                    Net n = net;
                    n.ws[1][1] = w;
                    return total(RunNet(n));
                },
                net.ws[1][1]);
        CheckGradient(
                [&](const Array& b) {
                    Net n = net;
                    n.bs.back()[0] = b;
                    return total(RunNet(n));
                },
                net.bs.back()[0]);
        CheckGradient(
                [&](const Array& x) {
                    Net n = net;
                    n.xs[1] = x;
                    return total(RunNet(n));
                },
                net.xs[1]);
    }
}

std::string KindName(const ::testing::TestParamInfo<Kind>& info) {
    static const char* const kNames[] = {"Lstm", "Gru", "RnnTanh", "RnnRelu"};
    return kNames[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Cells, RnnTest, ::testing::Values(Kind::kLstm, Kind::kGru, Kind::kRnnTanh, Kind::kRnnRelu),
                         KindName);

template <typename E>
void ExpectError(const std::function<void()>& f, const std::string& message) {
    try {
        f();
        ADD_FAILURE() << "expected an error: " << message;
    } catch (const E& e) {
        EXPECT_EQ(std::string{e.what()}, message);
    }
}

TEST(RnnErrorTest, ArgumentsAreChecked) {
    Net lstm = MakeNet(Kind::kLstm, 2, false, 3, 4, {4, 3, 3, 1});
    auto run = [](const Net& n) { return [n] { RunNet(n); }; };
    Net n = lstm;
    n.ws[1].pop_back();
    ExpectError<DimensionError>(run(n), "n_step_lstm: ws[1] must hold 8 weights, got 7");
    n = lstm;
    n.bs[0].push_back(n.bs[0][0]);
    ExpectError<DimensionError>(run(n), "n_step_lstm: bs[0] must hold 8 biases, got 9");
    n = lstm;
    n.ws.pop_back();
    ExpectError<DimensionError>(run(n),
                                "n_step_lstm: ws and bs must hold 2 lists (one per layer and direction), got 1 and 2");
    n = lstm;
    n.n_layers = 0;
    ExpectError<DimensionError>(run(n), "n_step_lstm: n_layers must be positive, got 0");
    n = lstm;
    n.bi = true;
    ExpectError<DimensionError>(
            run(n), "n_step_bilstm: hx must have shape (4, 4, units) for 2 layer(s) and 4 sequence(s), got (2, 4, 4)");
    n = lstm;
    n.cx = Zeros(Shape{2, 4, 3}, Dtype::kFloat64);
    ExpectError<DimensionError>(run(n), "n_step_lstm: cx must have shape (2, 4, 4), got (2, 4, 3)");
    n = lstm;
    n.ws[1][0] = Zeros(Shape{4, 3}, Dtype::kFloat64);
    ExpectError<DimensionError>(run(n), "n_step_lstm: ws[1][0] must have shape (4, 4), got (4, 3)");
    n = lstm;
    n.bs[0][5] = Zeros(Shape{4}, Dtype::kFloat32);
    ExpectError<DtypeError>(run(n), "n_step_lstm: bs[0][5] has dtype float32, expected float64 like xs[0]");
    n = lstm;
    std::swap(n.xs[1], n.xs[3]);
    ExpectError<DimensionError>(
            run(n), "n_step_lstm: xs must be sorted by decreasing length, but xs[2] has length 3 and xs[1] has 1");
    n = lstm;
    n.xs[2] = Zeros(Shape{3, 2}, Dtype::kFloat64);
    ExpectError<DimensionError>(run(n), "n_step_lstm: xs[2] must have shape (length, 3) like xs[0], got (3, 2)");
    n = lstm;
    n.xs.clear();
    ExpectError<DimensionError>(run(n), "n_step_lstm: xs must not be empty");
    n = lstm;
    n.xs[0] = Zeros(Shape{4, 3}, Dtype::kInt32);
    EXPECT_THROW(RunNet(n), DtypeError);
    Net gru = MakeNet(Kind::kGru, 1, true, 3, 4, {2});
    gru.ws[1].pop_back();
    ExpectError<DimensionError>(run(gru), "n_step_bigru: ws[1] must hold 6 weights, got 5");
    Net rnn = MakeNet(Kind::kRnnRelu, 1, false, 3, 4, {2});
    rnn.ws[0].push_back(rnn.ws[0][1]);
    ExpectError<DimensionError>(run(rnn), "n_step_rnn: ws[0] must hold 2 weights, got 3");
}

}  // namespace
}  // namespace chainerx
