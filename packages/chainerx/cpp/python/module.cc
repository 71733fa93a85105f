// The one Python extension module of ChainerX: chainerx._core. Binding code only; the parts are
// registered from the other files of this directory.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "chainerx/build_info.h"
#include "common.h"

namespace nb = nanobind;

NB_MODULE(_core, m) {
    m.doc() = "Compiled core of ChainerX.";
    m.def(
            "build_info",
            [] {
                const chainerx::BuildInfo& info = chainerx::GetBuildInfo();
                nb::dict d;
                d["version"] = info.version;
                d["compiler"] = info.compiler;
                d["cxx_standard"] = info.cxx_standard;
                d["cuda_enabled"] = info.cuda_enabled;
                d["blas"] = info.blas;
                d["backends"] = info.backends;
                return d;
            },
            "Return a dict describing how this ChainerX was built (version, compiler, backends, BLAS).");
    chainerx::python::InitConversions();
    chainerx::python::InitErrors(m);
    chainerx::python::InitDevices(m);
    chainerx::python::InitArray(m);
    chainerx::python::InitBackprop(m);
    chainerx::python::InitRoutines(m);
    chainerx::python::InitMathRoutines(m);
    chainerx::python::InitRnn(m);
    chainerx::python::InitNnRoutines(m);
    chainerx::python::InitPooling(m);
    chainerx::python::InitNormalization(m);
    chainerx::python::InitLinalg(m);
    chainerx::python::InitConnection(m);
    chainerx::python::InitFunctionNode(m);
}
