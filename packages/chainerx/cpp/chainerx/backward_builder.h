#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/graph.h"
#include "chainerx/small_vector.h"

namespace chainerx {

// What a backward function sees: gradients of the op's outputs, slots for its inputs' gradients.
// Backward functions are written with differentiable routines, so with double backprop enabled
// the gradients they compute are themselves recorded in the graph.
class BackwardContext {
public:
    // Gradients of an op's outputs or inputs, one slot per array.
    using GradSlots = internal::SmallVector<Array, 2>;

    BackwardContext(const internal::OpNode& op_node, GradSlots& output_grads, GradSlots& input_grads)
        : op_node_{op_node}, output_grads_{output_grads}, input_grads_{input_grads} {}

    // The gradient of output i; zeros when nothing flowed back into it.
    const Array& output_grad(size_t i = 0);
    // Whether a gradient flowed back into output i (else output_grad(i) makes zeros).
    bool has_output_grad(size_t i = 0) const { return !output_grads_[i].is_null(); }
    // Whether the gradient of input i is needed (the input is in the graph being walked).
    bool is_input_grad_required(size_t i = 0) const { return op_node_.inputs[i] != nullptr; }
    // The slot to assign the gradient of input i to.
    Array& input_grad(size_t i = 0) { return input_grads_[i]; }
    // Output i as it was computed, connected to the graph (declare with BackwardBuilder::RetainOutput).
    Array GetRetainedOutput(size_t i = 0) const;

private:
    const internal::OpNode& op_node_;
    GradSlots& output_grads_;
    GradSlots& input_grads_;
};

// Records one call of a differentiable routine:
//
//   BackwardBuilder bb{"exp", {x}, {out}};
//   if (bb) {
//       bb.RetainOutput(0);
//       bb.Define([](BackwardContext& ctx) { ctx.input_grad() = ctx.output_grad() * ctx.GetRetainedOutput(); });
//   }
//
// The builder is false (and costs nothing more) when no input is in a graph that records.
class BackwardBuilder {
public:
    using ArrayRefs = std::initializer_list<std::reference_wrapper<const Array>>;

    BackwardBuilder(const char* op_name, ArrayRefs inputs, ArrayRefs outputs);
    BackwardBuilder(const char* op_name, const std::vector<Array>& inputs, const std::vector<Array>& outputs);

    explicit operator bool() const { return !backprop_ids_.empty(); }

    void RetainOutput(size_t i);
    void Define(BackwardFunction backward);

private:
    template <typename Range>
    void Init(const Range& inputs, const Range& outputs);

    const char* op_name_;
    // Small vectors: recording runs for every differentiable call, and its bookkeeping should
    // not allocate.
    internal::SmallVector<BackpropId, 1> backprop_ids_;
    // Handles (not pointers): the vector overload may be given temporaries.
    internal::SmallVector<Array, 3> inputs_;
    internal::SmallVector<Array, 1> outputs_;
    std::vector<bool> retain_output_;  // empty until RetainOutput is called
};

}  // namespace chainerx
