// Trains a two-layer perceptron on synthetic data with the C++ API alone (no Python) and
// prints the loss every few steps. Exits non-zero unless the loss fell.
#include "chainerx/chainerx.h"
#include "example_util.h"

namespace cx = chainerx;

int main() {
    constexpr int64_t kBatch = 64;
    constexpr int64_t kIn = 8;
    constexpr int64_t kHidden = 32;
    constexpr int64_t kClasses = 3;

    // Labels come from a fixed random linear map, so the task is learnable.
    cx::Array x = cx::RandomNormal(0, 1, cx::Shape{kBatch, kIn}, cx::Dtype::kFloat32);
    cx::Array teacher = cx::RandomNormal(0, 1, cx::Shape{kIn, kClasses}, cx::Dtype::kFloat32);
    cx::Array labels = cx::ArgMax(cx::Dot(x, teacher), 1);

    // Linear weights are (out, in), as chainerx::Linear takes them.
    cx::Array w1 = cx::RandomNormal(0, 0.3, cx::Shape{kHidden, kIn}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array b1 = cx::Zeros(cx::Shape{kHidden}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array w2 = cx::RandomNormal(0, 0.3, cx::Shape{kClasses, kHidden}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array b2 = cx::Zeros(cx::Shape{kClasses}, cx::Dtype::kFloat32).RequireGrad();

    auto loss = [&] {
        cx::Array logits = cx::Linear(cx::Relu(cx::Linear(x, w1, b1)), w2, b2);
        return cx::Mean(cx::SoftmaxCrossEntropy(logits, labels));
    };
    return examples::Train(loss, {&w1, &b1, &w2, &b2}, 200, 0.5);
}
