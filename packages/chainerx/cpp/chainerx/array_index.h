#pragma once

#include <cstdint>
#include <optional>

#include "chainerx/array.h"

namespace chainerx {

// A Python slice: start/stop may be absent; step is never zero.
struct Slice {
    std::optional<int64_t> start;
    std::optional<int64_t> stop;
    int64_t step{1};

    // Number of elements the slice selects from an axis of length dim, with first index in *first.
    int64_t Apply(int64_t dim, int64_t* first) const;
};

// One element of an index expression, as in NumPy: an integer, a slice, a new axis (None), an
// ellipsis, or an array. Integer arrays select elements along one axis; boolean arrays select
// along as many axes as they have (like their nonzero() indices); a 0-d boolean array adds an
// axis of length 1 (true) or 0 (false).
class ArrayIndex {
public:
    enum class Kind : int8_t { kIndex, kSlice, kNewAxis, kEllipsis, kArray };

    ArrayIndex(int64_t index) : kind_{Kind::kIndex}, index_{index} {}           // NOLINT
    ArrayIndex(Slice slice) : kind_{Kind::kSlice}, slice_{slice} {}             // NOLINT
    ArrayIndex(Array array) : kind_{Kind::kArray}, array_{std::move(array)} {}  // NOLINT
    static ArrayIndex NewAxis() { return ArrayIndex{Kind::kNewAxis}; }
    static ArrayIndex Ellipsis() { return ArrayIndex{Kind::kEllipsis}; }

    Kind kind() const { return kind_; }
    int64_t index() const { return index_; }
    const Slice& slice() const { return slice_; }
    const Array& array() const { return array_; }

private:
    explicit ArrayIndex(Kind kind) : kind_{kind} {}
    Kind kind_;
    int64_t index_{0};
    Slice slice_{};
    Array array_{};
};

}  // namespace chainerx
