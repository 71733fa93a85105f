#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

// Element-wise functions of one array; input and output have the same dtype.
enum class UnaryOp : int8_t {
    kNegative,
    kAbsolute,
    kSign,
    kSquare,
    kReciprocal,
    kInvert,
    // floating dtypes only below
    kExp,
    kExpm1,
    kExp2,
    kErf,
    kLog,
    kLog10,
    kLog2,
    kLog1p,
    kSqrt,
    kSin,
    kCos,
    kTan,
    kArcsin,
    kArccos,
    kArctan,
    kSinh,
    kCosh,
    kTanh,
    kArcsinh,
    kArccosh,
    kArctanh,
    kCeil,
    kFloor,
    kSigmoid,
};

// Element-wise functions of two arrays of one dtype (and broadcast to one shape).
enum class BinaryOp : int8_t {
    kAdd,
    kSubtract,
    kMultiply,
    kDivide,
    kFloorDivide,
    kRemainder,
    kPower,
    kMaximum,
    kMinimum,
    kArctan2,
    kBitwiseAnd,
    kBitwiseOr,
    kBitwiseXor,
    kLeftShift,
    kRightShift,
};

// Element-wise predicates of two arrays of one dtype, giving bool.
enum class CompareOp : int8_t {
    kEqual,
    kNotEqual,
    kGreater,
    kGreaterEqual,
    kLess,
    kLessEqual,
    kLogicalAnd,
    kLogicalOr,
    kLogicalXor,
};

// Element-wise predicates of one array, giving bool.
enum class PredicateOp : int8_t { kIsNan, kIsInf, kIsFinite, kLogicalNot };

class UnaryKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kUnary;
    static constexpr const char* kName = "Unary";
    virtual void Call(UnaryOp op, const Array& x, const Array& out) = 0;
};

class BinaryKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kBinary;
    static constexpr const char* kName = "Binary";
    virtual void Call(BinaryOp op, const Array& a, const Array& b, const Array& out) = 0;
};

class CompareKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kCompare;
    static constexpr const char* kName = "Compare";
    virtual void Call(CompareOp op, const Array& a, const Array& b, const Array& out) = 0;
};

class PredicateKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kPredicate;
    static constexpr const char* kName = "Predicate";
    virtual void Call(PredicateOp op, const Array& x, const Array& out) = 0;
};

// out = condition ? x : y; condition is bool, x, y and out share a dtype; all one shape.
class WhereKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kWhere;
    static constexpr const char* kName = "Where";
    virtual void Call(const Array& condition, const Array& x, const Array& y, const Array& out) = 0;
};

}  // namespace chainerx
