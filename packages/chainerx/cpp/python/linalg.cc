// chainerx.linalg (the submodule _core.linalg): numpy.linalg's decompositions and solvers.
#include "chainerx/routines/linalg.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cctype>
#include <string>
#include <vector>

#include "common.h"

namespace chainerx {
namespace python {
namespace {

// One array as itself, several as a tuple (as NumPy returns them).
nb::object ArraysToPy(const std::vector<Array>& arrays) {
    if (arrays.size() == 1) return nb::cast(arrays[0]);
    return nb::tuple(nb::cast(arrays));
}

QrMode QrModeArg(const std::string& mode) {
    if (mode == "reduced") return QrMode::kReduced;
    if (mode == "complete") return QrMode::kComplete;
    if (mode == "r") return QrMode::kR;
    if (mode == "raw") return QrMode::kRaw;
    throw nb::value_error(("Unrecognized mode '" + mode + "'").c_str());
}

// 'L' or 'U' in either case, as NumPy takes it; anything else is left for the routine to reject.
char UploArg(const std::string& uplo) {
    return uplo.size() == 1 ? static_cast<char>(std::toupper(static_cast<unsigned char>(uplo[0]))) : '\0';
}

}  // namespace

void InitLinalg(nb::module_& m) {
    nb::module_ linalg = m.def_submodule("linalg", "Linear algebra (numpy.linalg) for 2-D float32/float64 matrices.");
    linalg.def(
            "cholesky", [](nb::handle a) { return Cholesky(ArrayArg(a)); }, nb::arg("a"),
            "Cholesky decomposition: the lower-triangular L with a = L L^T.");
    linalg.def(
            "qr", [](nb::handle a, const std::string& mode) { return ArraysToPy(Qr(ArrayArg(a), QrModeArg(mode))); },
            nb::arg("a"), nb::arg("mode") = "reduced", "Compute the qr factorization of a matrix.");
    linalg.def(
            "svd",
            [](nb::handle a, bool full_matrices, bool compute_uv) {
                return ArraysToPy(Svd(ArrayArg(a), full_matrices, compute_uv));
            },
            nb::arg("a"), nb::arg("full_matrices") = true, nb::arg("compute_uv") = true,
            "Singular Value Decomposition.");
    linalg.def(
            "eigh",
            [](nb::handle a, const std::string& uplo) {
                auto [w, v] = Eigh(ArrayArg(a), UploArg(uplo));
                return nb::make_tuple(w, v);
            },
            nb::arg("a"), nb::arg("UPLO") = "L", "Eigenvalues and eigenvectors of a real symmetric matrix.");
    linalg.def(
            "eigvalsh", [](nb::handle a, const std::string& uplo) { return Eigvalsh(ArrayArg(a), UploArg(uplo)); },
            nb::arg("a"), nb::arg("UPLO") = "L", "Eigenvalues of a real symmetric matrix.");
    linalg.def(
            "solve",
            [](nb::handle a, nb::handle b) {
                Array a_array = ArrayArg(a);
                return Solve(a_array, ArrayArg(b, &a_array.device()));
            },
            nb::arg("a"), nb::arg("b"), "Solve a linear matrix equation, or system of linear scalar equations.");
    linalg.def(
            "inv", [](nb::handle a) { return Inv(ArrayArg(a)); }, nb::arg("a"),
            "Compute the (multiplicative) inverse of a matrix.");
    linalg.def(
            "pinv", [](nb::handle a, double rcond) { return Pinv(ArrayArg(a), rcond); }, nb::arg("a"),
            nb::arg("rcond") = 1e-15, "Compute the (Moore-Penrose) pseudo-inverse of a matrix.");
}

}  // namespace python
}  // namespace chainerx
