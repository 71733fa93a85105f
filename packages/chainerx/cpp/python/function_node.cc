// _function_node_forward: records an op computed outside ChainerX (e.g. Chainer's NumPy fallback)
// in ChainerX's graph, with a Python callable as its backward.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "chainerx/backward_builder.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

// Op names live as long as the graph nodes that point at them: keep one copy of each name.
const char* InternName(const std::string& name) {
    static std::mutex mutex;
    static std::unordered_set<std::string> names;
    std::lock_guard<std::mutex> lock{mutex};
    return names.insert(name).first->c_str();
}

// A Python object owned from C++: the graph may be freed anywhere, so take the GIL to release it.
std::shared_ptr<nb::object> OwnPython(nb::handle obj) {
    return std::shared_ptr<nb::object>{new nb::object{nb::borrow(obj)}, [](nb::object* o) {
                                           nb::gil_scoped_acquire gil;
                                           delete o;
                                       }};
}

std::vector<size_t> IndexesArg(const std::vector<int64_t>& indexes, size_t size, const char* what) {
    std::vector<size_t> result;
    result.reserve(indexes.size());
    for (int64_t i : indexes) {
        if (i < 0 || static_cast<size_t>(i) >= size) {
            throw nb::index_error(("_function_node_forward: " + std::string{what} + " index " + std::to_string(i) +
                                   " is out of range for " + std::to_string(size) + " arrays")
                                          .c_str());
        }
        result.push_back(static_cast<size_t>(i));
    }
    return result;
}

nb::list FunctionNodeForward(nb::handle inputs_obj, const std::vector<Array>& outputs_in,
                             const std::vector<int64_t>& retain_inputs, const std::vector<int64_t>& retain_outputs,
                             nb::handle backward, const std::string& name) {
    if (!PyCallable_Check(backward.ptr())) throw nb::type_error("_function_node_forward: backward must be callable");
    // Missing (None) inputs take no part in the graph; positions[k] is the index of inputs[k].
    std::vector<Array> inputs;
    std::vector<size_t> positions;
    size_t n_inputs = 0;
    for (nb::handle x : nb::iter(inputs_obj)) {
        if (!x.is_none()) {
            inputs.push_back(nb::cast<Array>(x));
            positions.push_back(n_inputs);
        }
        ++n_inputs;
    }
    // Fresh bodies: an output may share its body with an input or another graph.
    std::vector<Array> outputs;
    outputs.reserve(outputs_in.size());
    for (const Array& y : outputs_in) outputs.push_back(y.AsGradStopped());
    nb::list result;
    for (const Array& y : outputs) result.append(nb::cast(y));

    BackwardBuilder bb{InternName(name), inputs, outputs};
    if (!bb) return result;
    std::vector<size_t> kept_outputs = IndexesArg(retain_outputs, outputs.size(), "retained output");
    for (size_t i : kept_outputs) bb.RetainOutput(i);
    // Retained inputs are held as they are (connected), so a double backward reaches them.
    std::vector<std::optional<Array>> kept_inputs;
    for (size_t i : IndexesArg(retain_inputs, n_inputs, "retained input")) {
        auto it = std::find(positions.begin(), positions.end(), i);
        kept_inputs.push_back(it == positions.end() ? std::nullopt
                                                    : std::optional<Array>{inputs[it - positions.begin()]});
    }
    bb.Define([callback = OwnPython(backward), positions = std::move(positions), kept_inputs = std::move(kept_inputs),
               kept_outputs = std::move(kept_outputs), n_outputs = outputs.size()](BackwardContext& ctx) {
        std::vector<size_t> targets;
        for (size_t k = 0; k < positions.size(); ++k) {
            if (ctx.is_input_grad_required(k)) targets.push_back(k);
        }
        if (targets.empty()) return;
        nb::gil_scoped_acquire gil;
        nb::list target_indexes;
        for (size_t k : targets) target_indexes.append(positions[k]);
        nb::list grad_outputs;
        for (size_t i = 0; i < n_outputs; ++i) {  // None where no gradient flowed, as on NumPy
            grad_outputs.append(ctx.has_output_grad(i) ? nb::cast(ctx.output_grad(i)) : nb::none());
        }
        nb::list retained_inputs;
        for (const std::optional<Array>& x : kept_inputs) retained_inputs.append(x ? nb::cast(*x) : nb::none());
        nb::list retained_outputs;
        for (size_t i : kept_outputs) retained_outputs.append(nb::cast(ctx.GetRetainedOutput(i)));
        nb::object grads = (*callback)(target_indexes, grad_outputs, retained_inputs, retained_outputs);
        size_t n = nb::len(grads);
        if (n != targets.size()) {
            throw nb::value_error(("backward of a Python function node returned " + std::to_string(n) +
                                   " gradients; expected " + std::to_string(targets.size()) + " (one per target input)")
                                          .c_str());
        }
        size_t j = 0;
        for (nb::handle g : grads) {
            if (!g.is_none()) ctx.input_grad(targets[j]) = nb::cast<Array>(g);
            ++j;
        }
    });
    return result;
}

}  // namespace

void InitFunctionNode(nb::module_& m) {
    m.def("_function_node_forward", &FunctionNodeForward, nb::arg("inputs"), nb::arg("outputs"),
          nb::arg("retain_inputs"), nb::arg("retain_outputs"), nb::arg("backward"), nb::arg("name") = "python_function",
          "Connects outputs (computed outside ChainerX from inputs, which may be None) in the graphs of the inputs "
          "and returns them (new arrays sharing the data). On backward, backward(target_input_indexes, grad_outputs, "
          "retained_inputs, retained_outputs) is called with ChainerX arrays (connected when double backprop is "
          "enabled) and returns one gradient (or None) per target index.");
}

}  // namespace python
}  // namespace chainerx
