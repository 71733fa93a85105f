#include "chainerx/scalar.h"

#include <sstream>

namespace chainerx {

Dtype Scalar::GetDefaultDtype() const {
    switch (kind_) {
        case Kind::kBool:
            return Dtype::kBool;
        case Kind::kInt:
            return Dtype::kInt64;
        case Kind::kFloat:
            return Dtype::kFloat64;
    }
    return Dtype::kFloat64;
}

std::string Scalar::ToString() const {
    std::ostringstream os;
    switch (kind_) {
        case Kind::kBool:
            os << (int_ != 0 ? "True" : "False");
            break;
        case Kind::kInt:
            os << int_;
            break;
        case Kind::kFloat:
            os << float_;
            break;
    }
    return os.str();
}

Scalar Scalar::operator-() const {
    switch (kind_) {
        case Kind::kBool:
            throw DtypeError{"cannot negate a bool scalar"};
        case Kind::kInt:
            return Scalar{-int_};
        case Kind::kFloat:
            return Scalar{-float_};
    }
    return *this;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) { return os << s.ToString(); }

Dtype ResultTypeWithScalar(Dtype array_dtype, const Scalar& scalar) {
    DtypeKind kind = GetKind(array_dtype);
    switch (scalar.kind()) {
        case Scalar::Kind::kBool:
            return array_dtype;
        case Scalar::Kind::kInt:
            return kind == DtypeKind::kBool ? Dtype::kInt64 : array_dtype;
        case Scalar::Kind::kFloat:
            return kind == DtypeKind::kFloat ? array_dtype : Dtype::kFloat64;
    }
    return array_dtype;
}

}  // namespace chainerx
