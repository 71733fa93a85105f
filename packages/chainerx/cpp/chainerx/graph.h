#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "chainerx/backprop_id.h"
#include "chainerx/dtype.h"
#include "chainerx/shape.h"
#include "chainerx/small_vector.h"

namespace chainerx {

class Device;
class BackwardContext;

using BackwardFunction = std::function<void(BackwardContext&)>;

namespace internal {

class ArrayBody;
class OpNode;

// What backward needs to know about an array without keeping its data alive.
struct ArrayMeta {
    Shape shape;
    Dtype dtype;
    Device* device;
};

// The place of an array in one graph. Bodies own their nodes; a node only observes its body,
// so intermediate arrays can be freed while the graph (and gradients flowing through) lives on.
class ArrayNode {
public:
    ArrayNode(const BackpropId& backprop_id, ArrayMeta meta, std::weak_ptr<ArrayBody> body,
              std::shared_ptr<OpNode> creator)
        : backprop_id_{backprop_id}, meta_{std::move(meta)}, body_{std::move(body)}, creator_{std::move(creator)} {}

    const BackpropId& backprop_id() const { return backprop_id_; }
    const ArrayMeta& meta() const { return meta_; }
    std::shared_ptr<ArrayBody> body() const { return body_.lock(); }
    const std::shared_ptr<OpNode>& creator() const { return creator_; }
    int64_t rank() const;

private:
    BackpropId backprop_id_;
    ArrayMeta meta_;
    std::weak_ptr<ArrayBody> body_;
    std::shared_ptr<OpNode> creator_;
};

// What one call of a differentiable routine leaves for backward; shared by the op's nodes in
// every graph it was recorded in.
struct OpRecord {
    BackwardFunction backward;
    SmallVector<ArrayMeta, 1> output_meta;
    // Graph-free twins (same data) of the outputs the backward function reads, and the op's
    // nodes to reconnect them through; both empty when no output is retained (the usual case).
    std::vector<std::shared_ptr<ArrayBody>> retained_outputs;
    std::vector<std::weak_ptr<OpNode>> op_nodes;
};

// One routine call in one graph.
class OpNode {
public:
    OpNode(const char* name, const BackpropId& backprop_id, int64_t rank, std::shared_ptr<OpRecord> record)
        : name_{name}, backprop_id_{backprop_id}, rank_{rank}, record_{std::move(record)} {}

    const char* name() const { return name_; }
    const BackpropId& backprop_id() const { return backprop_id_; }
    int64_t rank() const { return rank_; }
    const std::shared_ptr<OpRecord>& record() const { return record_; }

    // Null where that input is not part of this graph.
    SmallVector<std::shared_ptr<ArrayNode>, 2> inputs;
    SmallVector<std::weak_ptr<ArrayNode>, 1> outputs;

private:
    const char* name_;
    BackpropId backprop_id_;
    int64_t rank_;
    std::shared_ptr<OpRecord> record_;
};

inline int64_t ArrayNode::rank() const { return creator_ == nullptr ? 0 : creator_->rank(); }

}  // namespace internal
}  // namespace chainerx
