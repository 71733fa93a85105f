#include "chainerx/backward.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::ExpectAllClose;
using testing::MakeArray;

TEST(BackwardTest, RequireGradAndLeafGradients) {
    Array x = MakeArray<double>(Shape{3}, {1, 2, 3}).RequireGrad();
    EXPECT_TRUE(x.IsGradRequired());
    EXPECT_FALSE(x.GetGrad().has_value());
    Array y = Sum(Multiply(x, x));
    y.Backward();
    ExpectAllClose(*x.GetGrad(), {2, 4, 6});
    // A second backward accumulates.
    Sum(x).Backward();
    ExpectAllClose(*x.GetGrad(), {3, 5, 7});
    x.ClearGrad();
    EXPECT_FALSE(x.GetGrad().has_value());
}

TEST(BackwardTest, ErrorsAreSpecific) {
    Array i = Zeros(Shape{2}, Dtype::kInt32);
    EXPECT_THROW(i.RequireGrad(), DtypeError);
    Array x = Zeros(Shape{2}, Dtype::kFloat32);
    EXPECT_THROW(x.GetGrad(), ChainerxError);
    EXPECT_THROW(x.Backward(), ChainerxError);
    x.RequireGrad();
    EXPECT_THROW(x.RequireGrad(), ChainerxError);
    EXPECT_THROW(x.SetGrad(Zeros(Shape{3}, Dtype::kFloat32)), DimensionError);
    EXPECT_THROW(x.SetGrad(Zeros(Shape{2}, Dtype::kFloat64)), DtypeError);
}

TEST(BackwardTest, InitialGradientAndRetainGrad) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array h = Multiply(x, Scalar{3.0});
    Array y = Square(h);
    y.SetGrad(MakeArray<double>(Shape{2}, {1, 10}));
    y.Backward(std::nullopt, DoubleBackpropOption::kDisable, /*retain_grad=*/true);
    ExpectAllClose(*h.GetGrad(), {6, 120});
    ExpectAllClose(*x.GetGrad(), {18, 360});
}

TEST(BackwardTest, RetainedOutputGradientIsNotCountedTwice) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y = Multiply(x, Scalar{2.0});
    y.SetGrad(MakeArray<double>(Shape{2}, {1, 10}));
    y.Backward(std::nullopt, DoubleBackpropOption::kDisable, /*retain_grad=*/true);
    ExpectAllClose(*y.GetGrad(), {1, 10});
    ExpectAllClose(*x.GetGrad(), {2, 20});
}

TEST(BackwardTest, BackwardFromALeafKeepsItsGradient) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    x.SetGrad(MakeArray<double>(Shape{2}, {3, 4}));
    x.Backward();
    ExpectAllClose(*x.GetGrad(), {3, 4});
    Array y = Multiply(x, Scalar{2.0});
    Backward({x, y});  // the leaf's own gradient plus what y gives it
    ExpectAllClose(*x.GetGrad(), {5, 6});
}

TEST(BackwardTest, IntermediatesDoNotKeepGradWithoutRetain) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array h = Exp(x);
    Sum(h).Backward();
    EXPECT_FALSE(h.GetGrad().has_value());
    ExpectAllClose(*x.GetGrad(), {std::exp(1.0), std::exp(2.0)});
}

TEST(BackwardTest, DiamondGraphAccumulates) {
    Array x = MakeArray<double>(Shape{1}, {2}).RequireGrad();
    Array a = Multiply(x, Scalar{2.0});
    Array b = Square(x);
    Array y = Multiply(a, b);  // 2x * x^2 = 2x^3, dy/dx = 6x^2 = 24
    y.Backward();
    ExpectAllClose(*x.GetGrad(), {24});
}

TEST(BackwardTest, DoubleBackprop) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y = Sum(Multiply(Square(x), x));  // x^3
    y.Backward(std::nullopt, DoubleBackpropOption::kEnable);
    Array gx = *x.GetGrad();  // 3x^2, itself in the graph
    ExpectAllClose(gx, {3, 12});
    EXPECT_TRUE(gx.IsGradRequired());
    x.ClearGrad();
    Sum(gx).Backward();
    ExpectAllClose(*x.GetGrad(), {6, 12});  // 6x
}

TEST(BackwardTest, DoubleBackpropThroughRetainedOutput) {
    Array x = MakeArray<double>(Shape{1}, {0.5}).RequireGrad();
    std::vector<std::optional<Array>> g =
            Grad({Exp(Multiply(x, Scalar{2.0}))}, {x}, std::nullopt, DoubleBackpropOption::kEnable);
    ExpectAllClose(*g[0], {2 * std::exp(1.0)});
    std::vector<std::optional<Array>> gg = Grad({*g[0]}, {x});
    ExpectAllClose(*gg[0], {4 * std::exp(1.0)});
}

TEST(BackwardTest, DoubleBackpropThroughADroppedRetainedOutput) {
    // Two outputs, both exp(x); backward reads the second, which the caller drops (as with the
    // vectors of a decomposition when only its values are used).
    auto exp_twice = [](const Array& x) {
        Array e = Exp(x.AsGradStopped());
        Array dropped = Copy(e);
        BackwardBuilder bb{"exp_twice", {x}, {e, dropped}};
        if (bb) {
            bb.RetainOutput(1);
            bb.Define([](BackwardContext& ctx) {
                ctx.input_grad() = Multiply(Add(ctx.output_grad(0), ctx.output_grad(1)), ctx.GetRetainedOutput(1));
            });
        }
        return e;
    };
    Array x = MakeArray<double>(Shape{1}, {0.5}).RequireGrad();
    std::vector<std::optional<Array>> g = Grad({exp_twice(x)}, {x}, std::nullopt, DoubleBackpropOption::kEnable);
    ExpectAllClose(*g[0], {std::exp(0.5)});
    std::vector<std::optional<Array>> gg = Grad({*g[0]}, {x});
    ExpectAllClose(*gg[0], {std::exp(0.5)});
}

TEST(BackwardTest, WithoutDoubleBackpropGradientsAreConstants) {
    Array x = MakeArray<double>(Shape{1}, {3}).RequireGrad();
    Square(x).Backward();
    EXPECT_FALSE(x.GetGrad()->IsGradRequired());
}

TEST(BackwardTest, GradDoesNotTouchGradAttributes) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array w = MakeArray<double>(Shape{2}, {3, 4}).RequireGrad();
    Array unused = MakeArray<double>(Shape{2}, {0, 0}).RequireGrad();
    Array y = Sum(Multiply(x, w));
    std::vector<std::optional<Array>> g = Grad({y}, {x, w, unused});
    ExpectAllClose(*g[0], {3, 4});
    ExpectAllClose(*g[1], {1, 2});
    EXPECT_FALSE(g[2].has_value());
    EXPECT_FALSE(x.GetGrad().has_value());
}

TEST(BackwardTest, GradCanSetInputGradsAndRetainIntermediateGrads) {
    Array x = MakeArray<double>(Shape{1}, {3}).RequireGrad();
    Array w = MakeArray<double>(Shape{1}, {5}).RequireGrad();
    Array a = Multiply(x, Scalar{2.0});
    Array b = Add(a, w);
    Array c = Add(a, b);  // c = 4x + w
    std::vector<std::optional<Array>> g =
            Grad({c}, {x, w}, std::nullopt, DoubleBackpropOption::kDisable, {}, true, true);
    ExpectAllClose(*g[0], {4});
    ExpectAllClose(*g[1], {1});
    ExpectAllClose(*x.GetGrad(), {4});
    ExpectAllClose(*w.GetGrad(), {1});
    ExpectAllClose(*b.GetGrad(), {1});
    ExpectAllClose(*a.GetGrad(), {2});
    // Without them, nothing is set.
    Array x2 = MakeArray<double>(Shape{1}, {3}).RequireGrad();
    Array a2 = Multiply(x2, Scalar{2.0});
    Grad({Square(a2)}, {x2});
    EXPECT_FALSE(x2.GetGrad().has_value());
    EXPECT_FALSE(a2.GetGrad().has_value());
}

TEST(BackwardTest, GradWithRespectToIntermediate) {
    Array x = MakeArray<double>(Shape{1}, {2}).RequireGrad();
    Array h = Square(x);
    Array y = Multiply(h, Scalar{5.0});
    ExpectAllClose(*Grad({y}, {h})[0], {5});
}

TEST(BackwardTest, MultipleGraphsAreIndependent) {
    BackpropScope outer{"outer"};
    BackpropScope inner{"inner"};
    BackpropId id1 = outer.GetBackpropId();
    BackpropId id2 = inner.GetBackpropId();
    Array x = MakeArray<double>(Shape{1}, {3}).RequireGrad(id1);
    Array w = MakeArray<double>(Shape{1}, {2}).RequireGrad(id2);
    Array y = Multiply(Square(x), w);  // x^2 w
    EXPECT_TRUE(y.IsGradRequired(id1));
    EXPECT_TRUE(y.IsGradRequired(id2));
    EXPECT_FALSE(y.IsGradRequired());
    y.Backward(id2, DoubleBackpropOption::kEnable);
    Array gw = *w.GetGrad(id2);  // x^2, in graph id1
    ExpectAllClose(gw, {9});
    EXPECT_FALSE(x.GetGrad(id1).has_value());
    gw.Backward(id1);
    ExpectAllClose(*x.GetGrad(id1), {6});  // d(x^2)/dx
}

TEST(BackwardTest, ReleasedBackpropIdIsRejected) {
    std::optional<BackpropId> id;
    {
        BackpropScope scope{"short"};
        id = scope.GetBackpropId();
    }
    Array x = Zeros(Shape{1}, Dtype::kFloat32);
    EXPECT_THROW(x.RequireGrad(id), ContextError);
}

TEST(BackwardTest, NoBackpropModeStopsRecording) {
    Array x = MakeArray<double>(Shape{1}, {1}).RequireGrad();
    {
        NoBackpropModeScope scope;
        Array y = Exp(x);
        EXPECT_FALSE(y.IsGradRequired());
        EXPECT_FALSE(x.IsBackpropRequired());
        {
            ForceBackpropModeScope force;
            EXPECT_TRUE(Exp(x).IsGradRequired());
        }
    }
    EXPECT_TRUE(Exp(x).IsGradRequired());
}

TEST(BackwardTest, BackpropRequiredInAnyGraph) {
    BackpropScope other{"other"};
    Array x = MakeArray<double>(Shape{1}, {1});
    EXPECT_FALSE(x.IsBackpropRequired(AnyGraph{}));
    x.RequireGrad(other.GetBackpropId());
    EXPECT_FALSE(x.IsBackpropRequired());
    EXPECT_TRUE(x.IsBackpropRequired(AnyGraph{}));
    {
        NoBackpropModeScope scope{{other.GetBackpropId()}};
        EXPECT_FALSE(x.IsBackpropRequired(AnyGraph{}));
    }
}

TEST(BackwardTest, NoBackpropModeForOneGraphOnly) {
    BackpropScope other{"other"};
    Array x = MakeArray<double>(Shape{1}, {1}).RequireGrad().RequireGrad(other.GetBackpropId());
    NoBackpropModeScope scope{{other.GetBackpropId()}};
    Array y = Exp(x);
    EXPECT_TRUE(y.IsGradRequired());
    EXPECT_FALSE(y.IsGradRequired(other.GetBackpropId()));
}

TEST(BackwardTest, AsGradStoppedCutsTheGraph) {
    Array x = MakeArray<double>(Shape{1}, {1}).RequireGrad();
    Array s = x.AsGradStopped();
    EXPECT_FALSE(s.IsGradRequired());
    EXPECT_EQ(s.data(), x.data());
    EXPECT_FALSE(Exp(s).IsGradRequired());
}

TEST(BackwardTest, IntermediateArraysMayBeFreed) {
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y;
    {
        Array h1 = Exp(x);
        Array h2 = Tanh(h1);
        y = Sum(h2);
    }
    y.Backward();
    std::vector<double> expected;
    for (double v : {1.0, 2.0}) expected.push_back((1 - std::pow(std::tanh(std::exp(v)), 2)) * std::exp(v));
    ExpectAllClose(*x.GetGrad(), expected);
}

TEST(BackwardTest, CustomRoutineWithBackwardBuilder) {
    // y = 3x with a hand-written backward: the extension point routines use.
    auto triple = [](const Array& x) {
        Array out = Multiply(x.AsGradStopped(), Scalar{3.0});
        BackwardBuilder bb{"triple", {x}, {out}};
        if (bb) bb.Define([](BackwardContext& ctx) { ctx.input_grad() = Multiply(ctx.output_grad(), Scalar{3.0}); });
        return out;
    };
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Sum(triple(x)).Backward();
    ExpectAllClose(*x.GetGrad(), {3, 3});
}

TEST(BackwardTest, WrongGradientShapeFromBackwardIsAGradientError) {
    auto broken = [](const Array& x) {
        Array out = Copy(x.AsGradStopped());
        BackwardBuilder bb{"broken", {x}, {out}};
        if (bb) bb.Define([](BackwardContext& ctx) { ctx.input_grad() = Sum(ctx.output_grad()); });
        return out;
    };
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y = broken(x);
    try {
        y.Backward();
        FAIL() << "expected GradientError";
    } catch (const GradientError& e) {
        EXPECT_NE(std::string{e.what()}.find("backward of broken gave input 0 a gradient of shape ()"),
                  std::string::npos);
    }
}

}  // namespace
}  // namespace chainerx
