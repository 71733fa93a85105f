#pragma once

// The training loop the C++ examples share: plain SGD on a scalar loss.
#include <cstdio>
#include <functional>
#include <vector>

#include "chainerx/chainerx.h"

namespace examples {

namespace cx = chainerx;

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
