// Backprop ids, backprop modes, backward and grad.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>

#include "chainerx/backprop_mode.h"
#include "chainerx/backward.h"
#include "chainerx/context.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

std::optional<BackpropId> BackpropIdArg(nb::handle id) {
    if (id.is_none()) return std::nullopt;
    return nb::cast<BackpropId>(id);
}

// The ids of a mode scope; none (every graph) for None or a Context (v7 took the context whose
// graphs the scope covers; ours covers every graph).
std::vector<BackpropId> BackpropIdsArg(nb::handle ids) {
    std::vector<BackpropId> result;
    if (ids.is_none() || nb::isinstance<Context>(ids)) return result;
    if (nb::isinstance<BackpropId>(ids)) {
        result.push_back(nb::cast<BackpropId>(ids));
        return result;
    }
    for (nb::handle id : nb::iter(ids)) result.push_back(nb::cast<BackpropId>(id));
    return result;
}

// A `with` statement around a C++ scope object: created on __enter__, destroyed on __exit__.
template <typename Scope>
class ModeScope {
public:
    explicit ModeScope(std::vector<BackpropId> ids) : ids_{std::move(ids)} {}
    void Enter() { scope_ = ids_.empty() ? std::make_unique<Scope>() : std::make_unique<Scope>(ids_); }
    void Exit() { scope_.reset(); }

private:
    std::vector<BackpropId> ids_;
    std::unique_ptr<Scope> scope_;
};

class BackpropScopeManager {
public:
    explicit BackpropScopeManager(std::string name) : name_{std::move(name)} {}
    BackpropId Enter() {
        scope_ = std::make_unique<BackpropScope>(name_);
        return scope_->GetBackpropId();
    }
    void Exit() { scope_.reset(); }

private:
    std::string name_;
    std::unique_ptr<BackpropScope> scope_;
};

template <typename Scope>
void BindModeScope(nb::module_& m, const char* class_name) {
    nb::class_<ModeScope<Scope>>(m, class_name)
            .def("__enter__", [](ModeScope<Scope>& s) { s.Enter(); })
            .def(
                    "__exit__", [](ModeScope<Scope>& s, nb::handle, nb::handle, nb::handle) { s.Exit(); },
                    nb::arg().none(), nb::arg().none(), nb::arg().none());
}

DoubleBackpropOption DoubleBackprop(bool enable) {
    return enable ? DoubleBackpropOption::kEnable : DoubleBackpropOption::kDisable;
}

}  // namespace

void InitBackprop(nb::module_& m) {
    nb::class_<BackpropId>(m, "BackpropId", "Names one computational graph; made by chainerx.backprop_scope().")
            .def_prop_ro("name", [](const BackpropId& id) { return id.context().GetBackpropName(id); })
            .def_prop_ro("context", &BackpropId::context, nb::rv_policy::reference)
            .def("__eq__", [](const BackpropId& a, const BackpropId& b) { return a == b; })
            .def("__hash__", [](const BackpropId& id) { return static_cast<int64_t>(id.ordinal()); })
            .def("__repr__",
                 [](const BackpropId& id) { return "<BackpropId " + id.context().GetBackpropName(id) + ">"; });

    nb::class_<BackpropScopeManager>(m, "_BackpropScope")
            .def("__enter__", &BackpropScopeManager::Enter)
            .def(
                    "__exit__", [](BackpropScopeManager& s, nb::handle, nb::handle, nb::handle) { s.Exit(); },
                    nb::arg().none(), nb::arg().none(), nb::arg().none());
    m.def(
            "backprop_scope", [](const std::string& name) { return std::make_unique<BackpropScopeManager>(name); },
            nb::arg("backprop_name"),
            "A context manager giving a new BackpropId (a separate graph), released on exit.");

    BindModeScope<NoBackpropModeScope>(m, "_NoBackpropMode");
    BindModeScope<ForceBackpropModeScope>(m, "_ForceBackpropMode");
    m.def(
            "no_backprop_mode",
            [](nb::handle ids) { return std::make_unique<ModeScope<NoBackpropModeScope>>(BackpropIdsArg(ids)); },
            nb::arg("backprop_id") = nb::none(),
            "A context manager in which routines record no graph (for the given ids, or all).");
    m.def(
            "force_backprop_mode",
            [](nb::handle ids) { return std::make_unique<ModeScope<ForceBackpropModeScope>>(BackpropIdsArg(ids)); },
            nb::arg("backprop_id") = nb::none(),
            "A context manager that turns graph recording back on inside no_backprop_mode.");
    m.def(
            "is_backprop_required",
            [](nb::handle id) {
                return IsBackpropEnabled(BackpropIdArg(id).value_or(GetDefaultContext().default_backprop_id()));
            },
            nb::arg("backprop_id") = nb::none(), "Whether routines record graphs for the backprop id right now.");

    m.def(
            "backward",
            [](nb::handle outputs, nb::handle id, bool enable_double_backprop, bool retain_grad) {
                std::vector<Array> arrays;
                Array* single = nullptr;
                if (nb::try_cast<Array*>(outputs, single) && single != nullptr) {
                    arrays.push_back(*single);
                } else {
                    for (nb::handle o : nb::iter(outputs)) arrays.push_back(nb::cast<Array>(o));
                }
                Backward(arrays, BackpropIdArg(id), DoubleBackprop(enable_double_backprop), retain_grad);
            },
            nb::arg("outputs"), nb::arg("backprop_id") = nb::none(), nb::arg("enable_double_backprop") = false,
            nb::arg("retain_grad") = false,
            "Backpropagates from one array or a list of arrays into the .grad of the inputs.");
    m.def(
            "grad",
            [](const std::vector<Array>& outputs, const std::vector<Array>& inputs, nb::handle id,
               bool enable_double_backprop, nb::handle grad_outputs, bool set_grad, bool retain_grad) {
                std::vector<std::optional<Array>> seeds;
                if (!grad_outputs.is_none()) {
                    for (nb::handle g : nb::iter(grad_outputs)) {
                        seeds.push_back(g.is_none() ? std::nullopt : std::optional<Array>{nb::cast<Array>(g)});
                    }
                }
                return Grad(outputs, inputs, BackpropIdArg(id), DoubleBackprop(enable_double_backprop), seeds, set_grad,
                            retain_grad);
            },
            nb::arg("outputs"), nb::arg("inputs"), nb::arg("backprop_id") = nb::none(),
            nb::arg("enable_double_backprop") = false, nb::arg("grad_outputs") = nb::none(),
            nb::arg("set_grad") = false, nb::arg("retain_grad") = false,
            "Returns the gradients of outputs with respect to inputs (None where unconnected); sets them as the "
            "inputs' "
            ".grad only with set_grad, and the .grad of intermediate arrays only with retain_grad.");
}

}  // namespace python
}  // namespace chainerx
