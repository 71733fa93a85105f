// Trains a two-layer perceptron on synthetic data with the C++ API alone (no Python) and
// prints the loss every few steps. Exits non-zero unless the loss fell.
#include <cstdio>

#include "chainerx/chainerx.h"

namespace cx = chainerx;

int main() {
    constexpr int64_t kBatch = 64;
    constexpr int64_t kIn = 8;
    constexpr int64_t kHidden = 32;
    constexpr int64_t kClasses = 3;
    constexpr double kLearningRate = 0.5;

    // Labels come from a fixed random linear map, so the task is learnable.
    cx::Array x = cx::RandomNormal(0, 1, cx::Shape{kBatch, kIn}, cx::Dtype::kFloat32);
    cx::Array teacher = cx::RandomNormal(0, 1, cx::Shape{kIn, kClasses}, cx::Dtype::kFloat32);
    cx::Array labels = cx::ArgMax(cx::Dot(x, teacher), 1);

    cx::Array w1 = cx::RandomNormal(0, 0.3, cx::Shape{kHidden, kIn}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array b1 = cx::Zeros(cx::Shape{kHidden}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array w2 = cx::RandomNormal(0, 0.3, cx::Shape{kClasses, kHidden}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array b2 = cx::Zeros(cx::Shape{kClasses}, cx::Dtype::kFloat32).RequireGrad();

    double first_loss = 0;
    double last_loss = 0;
    for (int step = 0; step < 200; ++step) {
        cx::Array logits = cx::Linear(cx::Relu(cx::Linear(x, w1, b1)), w2, b2);
        cx::Array loss = cx::Mean(cx::SoftmaxCrossEntropy(logits, labels));
        loss.Backward();
        for (cx::Array* param : {&w1, &b1, &w2, &b2}) {
            // Update through a graph-free view: in-place writes on graph arrays are refused.
            cx::Array data = param->AsGradStopped();
            data -= *param->GetGrad() * cx::Scalar{kLearningRate};
            param->ClearGrad();
        }
        double value = static_cast<const float*>(loss.raw_data())[0];
        if (step == 0) first_loss = value;
        last_loss = value;
        if (step % 40 == 0 || step == 199) std::printf("step %3d  loss %.4f\n", step, value);
    }
    bool fell = last_loss < first_loss * 0.5;
    std::printf("loss %s: %.4f -> %.4f\n", fell ? "fell" : "did NOT fall", first_loss, last_loss);
    return fell ? 0 : 1;
}
