#include "chainerx/routines/rnn_cells.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckDoubleGradient;
using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::MakeArray;

double Sig(double v) { return 1 / (1 + std::exp(-v)); }

// c and h flattened into one array, so one gradient check covers both outputs.
Array Flat(const std::pair<Array, Array>& ch) { return Concatenate({Ravel(ch.first), Ravel(ch.second)}); }

TEST(RnnCellsTest, LstmGatesAreInterleavedPerUnit) {
    // Two units: channel 4 u + g is gate g (a, i, f, o) of unit u.
    std::vector<double> xv{0.5, 1.0, -1.0, 2.0, -0.3, 0.2, 0.7, -0.4};
    std::vector<double> cv{0.3, -0.6};
    auto [c, h] = Lstm(MakeArray<double>(Shape{1, 2}, cv), MakeArray<double>(Shape{1, 8}, xv));
    std::vector<double> ce;
    std::vector<double> he;
    for (int u = 0; u < 2; ++u) {
        const double* g = &xv[4 * u];
        ce.push_back(std::tanh(g[0]) * Sig(g[1]) + Sig(g[2]) * cv[u]);
        he.push_back(Sig(g[3]) * std::tanh(ce.back()));
    }
    ExpectAllClose(c, ce, 1e-12);
    ExpectAllClose(h, he, 1e-12);
}

TEST(RnnCellsTest, LstmSmallerBatchKeepsTheRestOfTheState) {
    Array c_prev = MakeArray<double>(Shape{3, 1}, {0.3, 7.0, 9.0});
    auto [c, h] = Lstm(c_prev, MakeArray<double>(Shape{1, 4}, {0.5, 1.0, -1.0, 2.0}));
    EXPECT_EQ(h.shape(), (Shape{1, 1}));
    double c0 = std::tanh(0.5) * Sig(1.0) + Sig(-1.0) * 0.3;
    ExpectAllClose(c, {c0, 7.0, 9.0}, 1e-12);
    ExpectAllClose(h, {Sig(2.0) * std::tanh(c0)}, 1e-12);
}

TEST(RnnCellsTest, LstmGradients) {
    Array c_prev = MakeArray<double>(Shape{3, 2}, {0.3, -0.6, 0.1, 0.8, -0.2, 0.4});
    Array x = Reshape(AsType(Arange(-8, 8), Dtype::kFloat64), Shape{2, 8}) / Scalar{5.0};
    auto in_x = [&c_prev](const Array& v) { return Flat(Lstm(c_prev, v)); };
    auto in_c = [&x](const Array& v) { return Flat(Lstm(v, x)); };
    CheckGradient(in_x, x);
    CheckGradient(in_c, c_prev);
    CheckDoubleGradient(in_x, x);
    CheckDoubleGradient(in_c, c_prev);
}

TEST(RnnCellsTest, Slstm) {
    std::vector<double> x1{0.5, 1.0, -1.0, 2.0};
    std::vector<double> x2{-0.2, 0.3, 0.6, -1.5};
    auto [c, h] = Slstm(MakeArray<double>(Shape{1, 1}, {0.3}), MakeArray<double>(Shape{1, 1}, {-0.8}),
                        MakeArray<double>(Shape{1, 4}, x1), MakeArray<double>(Shape{1, 4}, x2));
    // Each input's gates are activated on their own, as in Chainer's F.slstm.
    double ce = std::tanh(x1[0]) * Sig(x1[1]) + std::tanh(x2[0]) * Sig(x2[1]) + Sig(x1[2]) * 0.3 + Sig(x2[2]) * -0.8;
    ExpectAllClose(c, {ce}, 1e-12);
    ExpectAllClose(h, {Sig(x1[3] + x2[3]) * std::tanh(ce)}, 1e-12);
    Array c2 = MakeArray<double>(Shape{2, 1}, {0.1, -0.2});
    Array xs = MakeArray<double>(Shape{2, 4}, {0.2, -0.1, 0.4, 0.3, -0.5, 0.6, 0.1, -0.3});
    CheckDoubleGradient([&](const Array& v) { return Flat(Slstm(c2, v, xs, xs)); }, c2);
    CheckDoubleGradient([&](const Array& v) { return Flat(Slstm(c2, c2, xs, v)); }, xs);
}

TEST(RnnCellsTest, TreeLstmGatesAreBlocks) {
    // Two children, one unit: x holds a, i, o, f1, f2 in consecutive blocks.
    std::vector<double> xv{0.5, 1.0, 2.0, -1.0, 0.4};
    auto [c, h] = TreeLstm({MakeArray<double>(Shape{1, 1}, {0.3}), MakeArray<double>(Shape{1, 1}, {-0.6}),
                            MakeArray<double>(Shape{1, 5}, xv)});
    double ce = std::tanh(xv[0]) * Sig(xv[1]) + Sig(xv[3]) * 0.3 + Sig(xv[4]) * -0.6;
    ExpectAllClose(c, {ce}, 1e-12);
    ExpectAllClose(h, {Sig(xv[2]) * std::tanh(ce)}, 1e-12);
    Array c1 = MakeArray<double>(Shape{1, 2}, {0.1, -0.2});
    Array x = MakeArray<double>(Shape{1, 8}, {0.2, -0.1, 0.4, 0.3, -0.5, 0.6, 0.1, -0.3});
    CheckDoubleGradient([&](const Array& v) { return Flat(TreeLstm({c1, v})); }, x);
    CheckDoubleGradient([&](const Array& v) { return Flat(TreeLstm({v, x})); }, c1);
}

TEST(RnnCellsTest, Errors) {
    Array c = Zeros(Shape{2, 3}, Dtype::kFloat32);
    ExpectThrowWith<DtypeError>([&c] { Lstm(c, Zeros(Shape{2, 12}, Dtype::kFloat64)); },
                                "lstm: cell states and inputs must share one dtype, got float32 and float64");
    ExpectThrowWith<DimensionError>([&c] { Lstm(c, Zeros(Shape{3, 12}, Dtype::kFloat32)); },
                                    "lstm: x of shape (3, 12) does not fit the cell state of shape (2, 3)");
    Array x_short = Zeros(Shape{1, 12}, Dtype::kFloat32);
    ExpectThrowWith<DimensionError>([&] { Slstm(c, c, x_short, x_short); }, "slstm: x of shape (1, 12) does not fit");
    ExpectThrowWith<ChainerxError>([&c] { TreeLstm({c}); },
                                   "tree_lstm: expected the cell states of at least one child");
    ExpectThrowWith<DimensionError>([&c] { TreeLstm({c, Zeros(Shape{2, 10}, Dtype::kFloat32)}); },
                                    "x needs 4 * 3 channels on axis 1");
}

}  // namespace
}  // namespace chainerx
