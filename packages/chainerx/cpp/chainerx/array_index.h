#pragma once

#include <cstdint>
#include <optional>

namespace chainerx {

// A Python slice: start/stop may be absent; step is never zero.
struct Slice {
    std::optional<int64_t> start;
    std::optional<int64_t> stop;
    int64_t step{1};

    // Number of elements the slice selects from an axis of length dim, with first index in *first.
    int64_t Apply(int64_t dim, int64_t* first) const;
};

// One element of a basic index: an integer, a slice, a new axis (None) or an ellipsis.
class ArrayIndex {
public:
    enum class Kind : int8_t { kIndex, kSlice, kNewAxis, kEllipsis };

    ArrayIndex(int64_t index) : kind_{Kind::kIndex}, index_{index} {}  // NOLINT
    ArrayIndex(Slice slice) : kind_{Kind::kSlice}, slice_{slice} {}  // NOLINT
    static ArrayIndex NewAxis() { return ArrayIndex{Kind::kNewAxis}; }
    static ArrayIndex Ellipsis() { return ArrayIndex{Kind::kEllipsis}; }

    Kind kind() const { return kind_; }
    int64_t index() const { return index_; }
    const Slice& slice() const { return slice_; }

private:
    explicit ArrayIndex(Kind kind) : kind_{kind} {}
    Kind kind_;
    int64_t index_{0};
    Slice slice_{};
};

}  // namespace chainerx
