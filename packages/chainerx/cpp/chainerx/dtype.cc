#include "chainerx/dtype.h"

#include <algorithm>

namespace chainerx {

int64_t GetItemSize(Dtype dtype) {
    switch (dtype) {
        case Dtype::kBool:
        case Dtype::kInt8:
        case Dtype::kUInt8:
            return 1;
        case Dtype::kInt16:
        case Dtype::kFloat16:
            return 2;
        case Dtype::kInt32:
        case Dtype::kFloat32:
            return 4;
        case Dtype::kInt64:
        case Dtype::kFloat64:
            return 8;
    }
    throw DtypeError{"invalid dtype code ", static_cast<int>(dtype)};
}

DtypeKind GetKind(Dtype dtype) {
    switch (dtype) {
        case Dtype::kBool:
            return DtypeKind::kBool;
        case Dtype::kInt8:
        case Dtype::kInt16:
        case Dtype::kInt32:
        case Dtype::kInt64:
            return DtypeKind::kInt;
        case Dtype::kUInt8:
            return DtypeKind::kUInt;
        case Dtype::kFloat16:
        case Dtype::kFloat32:
        case Dtype::kFloat64:
            return DtypeKind::kFloat;
    }
    throw DtypeError{"invalid dtype code ", static_cast<int>(dtype)};
}

const char* GetDtypeName(Dtype dtype) {
    switch (dtype) {
        case Dtype::kBool:
            return "bool";
        case Dtype::kInt8:
            return "int8";
        case Dtype::kInt16:
            return "int16";
        case Dtype::kInt32:
            return "int32";
        case Dtype::kInt64:
            return "int64";
        case Dtype::kUInt8:
            return "uint8";
        case Dtype::kFloat16:
            return "float16";
        case Dtype::kFloat32:
            return "float32";
        case Dtype::kFloat64:
            return "float64";
    }
    return "invalid";
}

Dtype GetDtype(std::string_view name) {
    struct Alias {
        std::string_view name;
        Dtype dtype;
    };
    static constexpr Alias kAliases[] = {
            {"bool", Dtype::kBool},       {"bool_", Dtype::kBool},      {"?", Dtype::kBool},
            {"int8", Dtype::kInt8},       {"i1", Dtype::kInt8},         {"b", Dtype::kInt8},
            {"int16", Dtype::kInt16},     {"i2", Dtype::kInt16},        {"h", Dtype::kInt16},
            {"int32", Dtype::kInt32},     {"i4", Dtype::kInt32},        {"i", Dtype::kInt32},
            {"int64", Dtype::kInt64},     {"i8", Dtype::kInt64},        {"l", Dtype::kInt64},
            {"q", Dtype::kInt64},         {"int", Dtype::kInt64},       {"uint8", Dtype::kUInt8},
            {"u1", Dtype::kUInt8},        {"B", Dtype::kUInt8},         {"float16", Dtype::kFloat16},
            {"f2", Dtype::kFloat16},      {"e", Dtype::kFloat16},       {"half", Dtype::kFloat16},
            {"float32", Dtype::kFloat32}, {"f4", Dtype::kFloat32},      {"f", Dtype::kFloat32},
            {"single", Dtype::kFloat32},  {"float64", Dtype::kFloat64}, {"f8", Dtype::kFloat64},
            {"d", Dtype::kFloat64},       {"double", Dtype::kFloat64},  {"float", Dtype::kFloat64},
    };
    for (const Alias& alias : kAliases) {
        if (alias.name == name) return alias.dtype;
    }
    throw DtypeError{"unsupported dtype '", name,
                     "': expected one of bool, int8, int16, int32, int64, uint8, float16, float32, float64"};
}

namespace {

// Bits of integer range a type needs when represented as a signed integer.
int SignedBits(Dtype dtype) { return dtype == Dtype::kUInt8 ? 16 : static_cast<int>(GetItemSize(dtype) * 8); }

}  // namespace

Dtype PromoteTypes(Dtype a, Dtype b) {
    if (a == b) return a;
    DtypeKind ka = GetKind(a);
    DtypeKind kb = GetKind(b);
    if (ka == DtypeKind::kBool) return b;
    if (kb == DtypeKind::kBool) return a;
    if (ka == DtypeKind::kFloat && kb == DtypeKind::kFloat) {
        return GetItemSize(a) >= GetItemSize(b) ? a : b;
    }
    if (ka == DtypeKind::kFloat || kb == DtypeKind::kFloat) {
        Dtype f = ka == DtypeKind::kFloat ? a : b;
        Dtype i = ka == DtypeKind::kFloat ? b : a;
        // The float must hold every value of the integer type exactly (NumPy's "safe" rule).
        int bits = SignedBits(i);
        Dtype needed = bits <= 8 || i == Dtype::kUInt8 ? Dtype::kFloat16
                       : bits <= 16                    ? Dtype::kFloat32
                                                       : Dtype::kFloat64;
        return GetItemSize(f) >= GetItemSize(needed) ? f : needed;
    }
    int bits = std::max(SignedBits(a), SignedBits(b));
    switch (bits) {
        case 8:
            return Dtype::kInt8;
        case 16:
            return Dtype::kInt16;
        case 32:
            return Dtype::kInt32;
        default:
            return Dtype::kInt64;
    }
}

std::ostream& operator<<(std::ostream& os, Dtype dtype) { return os << GetDtypeName(dtype); }

}  // namespace chainerx
