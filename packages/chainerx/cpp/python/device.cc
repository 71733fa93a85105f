// Contexts, backends and devices.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "chainerx/backend.h"
#include "chainerx/context.h"
#include "common.h"

namespace chainerx {
namespace python {

void InitDevices(nb::module_& m) {
    nb::class_<Context>(m, "Context", "Owns backends and backprop ids; most programs use the default one.")
            .def(nb::init<>())
            .def("get_backend", &Context::GetBackend, nb::arg("backend_name"), nb::rv_policy::reference,
                 "The backend of that name, loading a plugin library on first use.")
            .def(
                    "get_device",
                    [](Context& c, const std::string& name, std::optional<int> index) -> Device& {
                        return index.has_value() ? c.GetDevice(name, *index) : c.GetDevice(name);
                    },
                    nb::arg("device_name"), nb::arg("index") = nb::none(), nb::rv_policy::reference)
            .def("add_backend_search_path", &Context::AddBackendSearchPath, nb::arg("directory"),
                 "Adds a directory searched for '<name>.so' backend plugins.")
            .def("make_backprop_id", &Context::MakeBackpropId, nb::arg("backprop_name"))
            .def("release_backprop_id", &Context::ReleaseBackpropId, nb::arg("backprop_id"),
                 "Releases a backprop id made by make_backprop_id; using it afterwards raises ContextError.");
    nb::class_<Backend>(m, "Backend", "A family of devices and the kernels that run on them.")
            .def_prop_ro("name", &Backend::GetName)
            .def_prop_ro("context", &Backend::context, nb::rv_policy::reference)
            .def("get_device_count", &Backend::GetDeviceCount)
            .def("get_device", &Backend::GetDevice, nb::arg("index"), nb::rv_policy::reference)
            .def("__repr__", [](const Backend& b) { return "<Backend " + b.GetName() + ">"; });
    nb::class_<Device>(m, "Device", "One device of a backend, such as native:0.")
            .def_prop_ro("name", &Device::name)
            .def_prop_ro("backend", &Device::backend, nb::rv_policy::reference)
            .def_prop_ro("context", &Device::context, nb::rv_policy::reference)
            .def_prop_ro("index", &Device::index)
            .def("__repr__", &Device::name)
            .def("__eq__", [](const Device& a, const Device& b) { return &a == &b; })
            .def("__hash__", [](const Device& d) { return reinterpret_cast<uintptr_t>(&d); })
            .def("synchronize", [](const Device&) {}, "Waits for queued work (the native backend runs synchronously).");

    m.def("get_default_context", &GetDefaultContext, nb::rv_policy::reference,
          "This thread's default context (else the global one).");
    m.def("set_default_context", &SetDefaultContext, nb::arg("context").none(),
          "Sets this thread's default context (None: the global one) and resets its default device.");
    m.def("get_global_default_context", &GetGlobalDefaultContext, nb::rv_policy::reference,
          "The process-wide default context.");
    m.def("set_global_default_context", &SetGlobalDefaultContext, nb::arg("context").none(),
          "Sets the process-wide default context (None: no default).");
    m.def(
            "get_backend", [](const std::string& name) -> Backend& { return GetDefaultContext().GetBackend(name); },
            nb::arg("backend_name"), nb::rv_policy::reference, "The backend of that name in the default context.");
    m.def(
            "get_device",
            [](nb::handle device, std::optional<int> index) -> Device& {
                if (index.has_value()) return GetDefaultContext().GetDevice(nb::cast<std::string>(device), *index);
                return DeviceArg(device);
            },
            nb::arg("device").none() = nb::none(), nb::arg("index") = nb::none(), nb::rv_policy::reference,
            "get_device('native:0'), get_device('native', 0), get_device(device), or get_device(None) for the "
            "default.");
    m.def("get_default_device", &GetDefaultDevice, nb::rv_policy::reference, "This thread's default device.");
    m.def(
            "set_default_device", [](nb::handle device) { SetDefaultDevice(&DeviceArg(device)); }, nb::arg("device"),
            "Sets this thread's default device (a Device or a specifier such as 'native:1').");
}

}  // namespace python
}  // namespace chainerx
