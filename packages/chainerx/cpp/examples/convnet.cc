// Trains a small convnet (two convolutions, max pooling and a linear layer) on synthetic 8x8
// images with the C++ API alone and prints the loss every few steps. Exits non-zero unless the
// loss fell.
#include "chainerx/chainerx.h"
#include "example_util.h"

namespace cx = chainerx;

namespace {

cx::Array Normal(double scale, const cx::Shape& shape) {
    return cx::RandomNormal(0, scale, shape, cx::Dtype::kFloat32);
}

}  // namespace

int main() {
    constexpr int64_t kBatch = 32;
    constexpr int64_t kSize = 8;
    constexpr int64_t kClasses = 3;

    // Labels come from a fixed random convnet (filters, relu, spatial mean, linear map), so the
    // task is learnable.
    cx::Array x = Normal(1, cx::Shape{kBatch, 1, kSize, kSize});
    cx::Array teacher_w = Normal(1, cx::Shape{4, 1, 3, 3});
    cx::Array teacher_fc = Normal(1, cx::Shape{4, kClasses});
    cx::Array features = cx::Mean(cx::Relu(cx::Conv(x, teacher_w, std::nullopt, {1, 1}, {1, 1})), cx::Axes{2, 3});
    cx::Array labels = cx::ArgMax(cx::Dot(features, teacher_fc), 1);

    // conv 3x3 (1 -> 8, pad 1) -> relu -> max_pool 2 -> conv 3x3 (8 -> 16, pad 1) -> relu -> linear.
    cx::Array w1 = Normal(0.5, cx::Shape{8, 1, 3, 3}).RequireGrad();
    cx::Array b1 = cx::Zeros(cx::Shape{8}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array w2 = Normal(0.15, cx::Shape{16, 8, 3, 3}).RequireGrad();
    cx::Array b2 = cx::Zeros(cx::Shape{16}, cx::Dtype::kFloat32).RequireGrad();
    cx::Array fc = Normal(0.1, cx::Shape{kClasses, 16 * 4 * 4}).RequireGrad();
    cx::Array fb = cx::Zeros(cx::Shape{kClasses}, cx::Dtype::kFloat32).RequireGrad();

    auto loss = [&] {
        cx::Array h = cx::Relu(cx::Conv(x, w1, b1, {1, 1}, {1, 1}));
        h = cx::MaxPool(h, {2, 2}, {2, 2}, {0, 0});
        h = cx::Relu(cx::Conv(h, w2, b2, {1, 1}, {1, 1}));
        return cx::Mean(cx::SoftmaxCrossEntropy(cx::Linear(h, fc, fb), labels));
    };
    return examples::Train(loss, {&w1, &b1, &w2, &b2, &fc, &fb}, 200, 0.2);
}
