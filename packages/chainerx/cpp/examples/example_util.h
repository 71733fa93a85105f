#pragma once

// Pieces the C++ examples share: a loss, one-hot targets and a training loop with plain SGD.
#include <cstdio>
#include <functional>
#include <vector>

#include "chainerx/chainerx.h"

namespace examples {

namespace cx = chainerx;

// Mean softmax cross entropy of logits (n, k) against one-hot targets (n, k).
inline cx::Array SoftmaxCrossEntropy(const cx::Array& logits, const cx::Array& one_hot) {
    cx::Array nll = cx::Negative(cx::Sum(cx::Multiply(cx::LogSoftmax(logits), one_hot), cx::Axes{1}));
    return cx::Mean(nll);
}

// Float32 one-hot rows (n, classes) of integer labels (n,).
inline cx::Array OneHot(const cx::Array& labels, int64_t classes) {
    cx::Array column = cx::Reshape(labels, cx::Shape{labels.shape()[0], 1});
    return cx::AsType(cx::Equal(column, cx::Arange(0, classes)), cx::Dtype::kFloat32);
}

// Runs `steps` SGD steps on the float32 loss and prints it every few steps. Returns the exit
// status: 0 when the loss fell below half of its first value.
inline int Train(const std::function<cx::Array()>& loss_fn, const std::vector<cx::Array*>& params, int steps,
                 double learning_rate) {
    double first_loss = 0;
    double last_loss = 0;
    for (int step = 0; step < steps; ++step) {
        cx::Array loss = loss_fn();
        loss.Backward();
        for (cx::Array* param : params) {
            // Update through a graph-free view: in-place writes on graph arrays are refused.
            cx::Array data = param->AsGradStopped();
            data -= *param->GetGrad() * cx::Scalar{learning_rate};
            param->ClearGrad();
        }
        double value = static_cast<const float*>(loss.raw_data())[0];
        if (step == 0) first_loss = value;
        last_loss = value;
        if (step % (steps / 5) == 0 || step == steps - 1) std::printf("step %3d  loss %.4f\n", step, value);
    }
    bool fell = last_loss < first_loss * 0.5;
    std::printf("loss %s: %.4f -> %.4f\n", fell ? "fell" : "did NOT fall", first_loss, last_loss);
    return fell ? 0 : 1;
}

}  // namespace examples
