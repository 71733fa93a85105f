#pragma once

#include <optional>
#include <vector>

#include "chainerx/array.h"

namespace chainerx {

// Backpropagates from outputs through one graph and accumulates gradients into the .grad of
// the leaf arrays (and of every still-alive array when retain_grad). An output without a
// gradient set starts from ones.
void Backward(const std::vector<Array>& outputs, const std::optional<BackpropId>& backprop_id = std::nullopt,
              DoubleBackpropOption double_backprop = DoubleBackpropOption::kDisable, bool retain_grad = false);

// Returns d(outputs)/d(inputs); an input the outputs do not depend on gets no gradient
// (std::nullopt). The .grad of the inputs is set to their gradients only with set_grad, and
// intermediate arrays accumulate theirs only with retain_grad (as Backward does).
std::vector<std::optional<Array>> Grad(const std::vector<Array>& outputs, const std::vector<Array>& inputs,
                                       const std::optional<BackpropId>& backprop_id = std::nullopt,
                                       DoubleBackpropOption double_backprop = DoubleBackpropOption::kDisable,
                                       const std::vector<std::optional<Array>>& grad_outputs = {},
                                       bool set_grad = false, bool retain_grad = false);

}  // namespace chainerx
