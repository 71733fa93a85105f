#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "chainerx/backprop_id.h"
#include "chainerx/dtype.h"
#include "chainerx/graph.h"
#include "chainerx/shape.h"
#include "chainerx/small_vector.h"

namespace chainerx {

class Device;

namespace internal {

// The state behind an Array handle: a strided view of shared memory plus its graph membership.
class ArrayBody {
public:
    struct GraphEntry {
        std::shared_ptr<ArrayNode> node;
        std::shared_ptr<ArrayBody> grad;  // null until a gradient is set
    };

    ArrayBody(Shape shape, Strides strides, Dtype dtype, Device& device, std::shared_ptr<void> data, int64_t offset)
        : shape{shape}, strides{strides}, dtype{dtype}, device{&device}, data{std::move(data)}, offset{offset} {}

    GraphEntry* FindGraph(const BackpropId& backprop_id) {
        for (GraphEntry& entry : graphs) {
            if (entry.node->backprop_id() == backprop_id) return &entry;
        }
        return nullptr;
    }

    ArrayMeta meta() const { return ArrayMeta{shape, dtype, device}; }

    Shape shape;
    Strides strides;
    Dtype dtype;
    Device* device;
    std::shared_ptr<void> data;
    int64_t offset;
    SmallVector<GraphEntry, 1> graphs;
};

}  // namespace internal
}  // namespace chainerx
