#include "chainerx/backward.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/backprop_mode.h"
#include "chainerx/backward_builder.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/graph.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/math.h"

namespace chainerx {

using internal::ArrayBody;
using internal::ArrayNode;
using internal::OpNode;

// ---- BackwardContext ----

const Array& BackwardContext::output_grad(size_t i) {
    Array& grad = output_grads_[i];
    if (grad.is_null()) {
        const internal::ArrayMeta& meta = op_node_.record()->output_meta[i];
        grad = Zeros(meta.shape, meta.dtype, *meta.device);
    }
    return grad;
}

Array BackwardContext::GetRetainedOutput(size_t i) const {
    const std::vector<std::shared_ptr<ArrayBody>>& retained = op_node_.record()->retained_outputs;
    const std::shared_ptr<ArrayBody>& twin = i < retained.size() ? retained[i] : nullptr;
    if (twin == nullptr) throw ChainerxError{"output ", i, " of ", op_node_.name(), " was not retained"};
    auto body = std::make_shared<ArrayBody>(twin->shape, twin->strides, twin->dtype, *twin->device, twin->data,
                                            twin->offset);
    // Reconnect to the output's nodes in every graph the op is part of, so gradients computed from
    // it are differentiable (double backprop). An output dropped by the caller (e.g. the vectors of a
    // decomposition when only its values were used) has lost its node: give it a new one.
    for (const std::weak_ptr<OpNode>& weak_op : op_node_.record()->op_nodes) {
        if (std::shared_ptr<OpNode> op = weak_op.lock()) {
            std::shared_ptr<ArrayNode> node = op->outputs[i].lock();
            if (node == nullptr) {
                node = std::make_shared<ArrayNode>(op->backprop_id(), body->meta(), body, op);
                op->outputs[i] = node;
            }
            body->graphs.push_back({node, nullptr});
        }
    }
    return Array{body};
}

// ---- BackwardBuilder ----

BackwardBuilder::BackwardBuilder(const char* op_name, ArrayRefs inputs, ArrayRefs outputs) : op_name_{op_name} {
    Init(inputs, outputs);
}

BackwardBuilder::BackwardBuilder(const char* op_name, const std::vector<Array>& inputs,
                                 const std::vector<Array>& outputs)
    : op_name_{op_name} {
    Init(inputs, outputs);
}

template <typename Range>
void BackwardBuilder::Init(const Range& inputs, const Range& outputs) {
    bool any_graph = false;
    for (const Array& input : inputs) any_graph |= !input.body()->graphs.empty();
    if (!any_graph) return;
    for (const Array& input : inputs) {
        for (const ArrayBody::GraphEntry& entry : input.body()->graphs) {
            const BackpropId& id = entry.node->backprop_id();
            if (std::find(backprop_ids_.begin(), backprop_ids_.end(), id) == backprop_ids_.end() &&
                IsBackpropEnabled(id)) {
                backprop_ids_.push_back(id);
            }
        }
    }
    if (backprop_ids_.empty()) return;
    inputs_.assign(inputs.begin(), inputs.end());
    outputs_.assign(outputs.begin(), outputs.end());
}

void BackwardBuilder::RetainOutput(size_t i) {
    if (retain_output_.empty()) retain_output_.assign(outputs_.size(), false);
    retain_output_.at(i) = true;
}

void BackwardBuilder::Define(BackwardFunction backward) {
    if (backprop_ids_.empty()) return;
    auto record = std::make_shared<internal::OpRecord>();
    record->backward = std::move(backward);
    record->output_meta.reserve(outputs_.size());
    for (const Array& output : outputs_) record->output_meta.push_back(output.body()->meta());
    if (!retain_output_.empty()) {
        record->retained_outputs.resize(outputs_.size());
        for (size_t i = 0; i < outputs_.size(); ++i) {
            if (!retain_output_[i]) continue;
            const ArrayBody& out = *outputs_[i].body();
            record->retained_outputs[i] =
                    std::make_shared<ArrayBody>(out.shape, out.strides, out.dtype, *out.device, out.data, out.offset);
        }
    }
    for (const BackpropId& id : backprop_ids_) {
        int64_t rank = 0;
        for (const Array& input : inputs_) {
            if (ArrayBody::GraphEntry* entry = input.body()->FindGraph(id)) rank = std::max(rank, entry->node->rank());
        }
        auto op = std::make_shared<OpNode>(op_name_, id, rank + 1, record);
        op->inputs.reserve(inputs_.size());
        for (const Array& input : inputs_) {
            ArrayBody::GraphEntry* entry = input.body()->FindGraph(id);
            op->inputs.push_back(entry == nullptr ? nullptr : entry->node);
        }
        op->outputs.reserve(outputs_.size());
        for (const Array& output : outputs_) {
            const std::shared_ptr<ArrayBody>& body = output.body();
            auto node = std::make_shared<ArrayNode>(id, body->meta(), body, op);
            op->outputs.push_back(node);
            body->graphs.push_back({std::move(node), nullptr});
        }
        if (!record->retained_outputs.empty()) record->op_nodes.push_back(op);
    }
}

// ---- The backward pass ----

namespace {

void AccumulateGradOnBody(ArrayBody& body, const BackpropId& id, const Array& grad) {
    ArrayBody::GraphEntry* entry = body.FindGraph(id);
    if (entry == nullptr) return;
    entry->grad = entry->grad == nullptr ? grad.body() : Add(Array{entry->grad}, grad).body();
}

void CheckGradMatches(const OpNode& op, size_t i, const internal::ArrayMeta& meta, const Array& grad) {
    if (grad.shape() != meta.shape || grad.dtype() != meta.dtype) {
        throw GradientError{"backward of ",          op.name(),    " gave input ", i,
                            " a gradient of shape ", grad.shape(), " and dtype ",  grad.dtype(),
                            ", expected shape ",     meta.shape,   " and dtype ",  meta.dtype};
    }
}

// Walks one graph from the outputs towards the leaves in decreasing op rank, so every op runs
// after all ops that consume its outputs.
class BackwardPass {
public:
    // into_leaves: the pass ends by adding the leaves' gradients to the ones they hold (Backward).
    BackwardPass(const BackpropId& id, DoubleBackpropOption double_backprop, bool retain_grad, bool into_leaves)
        : id_{id},
          double_backprop_{double_backprop == DoubleBackpropOption::kEnable},
          retain_grad_{retain_grad},
          into_leaves_{into_leaves} {}

    void Run(const std::vector<Array>& outputs, const std::vector<std::optional<Array>>& grad_outputs,
             const std::vector<std::shared_ptr<ArrayNode>>& targets) {
        for (const std::shared_ptr<ArrayNode>& target : targets) {
            if (target != nullptr) targets_.insert(target.get());
        }
        for (size_t i = 0; i < outputs.size(); ++i)
            Seed(outputs[i], i < grad_outputs.size() ? grad_outputs[i] : std::nullopt);
        while (!queue_.empty()) {
            std::shared_ptr<OpNode> op = queue_.top();
            queue_.pop();
            Process(*op);
        }
    }

    // Gradients left at the end: those of leaves and of targets.
    std::unordered_map<ArrayNode*, std::pair<std::shared_ptr<ArrayNode>, Array>>& grads() { return grads_; }

private:
    struct RankLess {
        bool operator()(const std::shared_ptr<OpNode>& a, const std::shared_ptr<OpNode>& b) const {
            return a->rank() < b->rank();
        }
    };

    void Seed(const Array& output, const std::optional<Array>& grad_output) {
        ArrayBody::GraphEntry* entry = output.body()->FindGraph(id_);
        if (entry == nullptr) {
            throw ChainerxError{"cannot backprop from an array that is not in graph ", id_,
                                ": call require_grad() on an input first"};
        }
        Array grad;
        if (grad_output.has_value()) {
            grad = *grad_output;
        } else if (entry->grad != nullptr) {
            // The output's own gradient: a leaf keeps it as it is (backward adds only what other
            // outputs give it), an intermediate array's retained gradient is replaced by its total.
            if (into_leaves_ && entry->node->creator() == nullptr) return;
            own_grad_seeds_.insert(entry->node.get());
            grad = Array{entry->grad};
        } else {
            grad = OnesLike(output);
        }
        if (grad.shape() != output.shape() || grad.dtype() != output.dtype()) {
            throw GradientError{"the initial gradient has shape ",  grad.shape(),   " and dtype ", grad.dtype(),
                                ", expected those of the output: ", output.shape(), " and ",       output.dtype()};
        }
        Accumulate(entry->node, grad);
    }

    void Accumulate(const std::shared_ptr<ArrayNode>& node, const Array& grad) {
        auto it = grads_.find(node.get());
        if (it == grads_.end()) {
            grads_.emplace(node.get(), std::make_pair(node, grad));
        } else {
            it->second.second = Add(it->second.second, grad);
        }
        if (const std::shared_ptr<OpNode>& creator = node->creator()) {
            if (seen_.insert(creator.get()).second) queue_.push(creator);
        }
    }

    void Process(const OpNode& op) {
        BackwardContext::GradSlots output_grads;
        output_grads.resize(op.outputs.size());
        for (size_t i = 0; i < op.outputs.size(); ++i) {
            std::shared_ptr<ArrayNode> node = op.outputs[i].lock();
            if (node == nullptr) continue;
            auto it = grads_.find(node.get());
            if (it == grads_.end()) continue;
            output_grads[i] = it->second.second;
            if (retain_grad_) {
                if (std::shared_ptr<ArrayBody> body = node->body()) {
                    if (own_grad_seeds_.count(node.get()) == 0) {
                        AccumulateGradOnBody(*body, id_, output_grads[i]);
                    } else if (ArrayBody::GraphEntry* entry = body->FindGraph(id_)) {
                        entry->grad = output_grads[i].body();  // the seed already counted in the total
                    }
                }
            }
            // All consumers ran already: the gradient of this intermediate array is final.
            if (targets_.count(node.get()) == 0) grads_.erase(it);
        }
        BackwardContext::GradSlots input_grads;
        input_grads.resize(op.inputs.size());
        BackwardContext context{op, output_grads, input_grads};
        if (double_backprop_) {
            op.record()->backward(context);
        } else {
            NoBackpropModeScope no_backprop;
            op.record()->backward(context);
        }
        for (size_t i = 0; i < op.inputs.size(); ++i) {
            const std::shared_ptr<ArrayNode>& input = op.inputs[i];
            if (input == nullptr || input_grads[i].is_null()) continue;
            CheckGradMatches(op, i, input->meta(), input_grads[i]);
            Accumulate(input, input_grads[i]);
        }
    }

    BackpropId id_;
    bool double_backprop_;
    bool retain_grad_;
    bool into_leaves_;
    std::priority_queue<std::shared_ptr<OpNode>, std::vector<std::shared_ptr<OpNode>>, RankLess> queue_;
    std::unordered_set<OpNode*> seen_;
    std::unordered_set<ArrayNode*> targets_;
    std::unordered_set<ArrayNode*> own_grad_seeds_;
    std::unordered_map<ArrayNode*, std::pair<std::shared_ptr<ArrayNode>, Array>> grads_;
};

}  // namespace

void Backward(const std::vector<Array>& outputs, const std::optional<BackpropId>& backprop_id,
              DoubleBackpropOption double_backprop, bool retain_grad) {
    BackpropId id = internal::ResolveBackpropId(backprop_id);
    BackwardPass pass{id, double_backprop, retain_grad, true};
    pass.Run(outputs, {}, {});
    for (auto& [raw, node_and_grad] : pass.grads()) {
        const std::shared_ptr<ArrayNode>& node = node_and_grad.first;
        if (node->creator() != nullptr && !retain_grad) continue;
        if (std::shared_ptr<ArrayBody> body = node->body()) AccumulateGradOnBody(*body, id, node_and_grad.second);
    }
}

std::vector<std::optional<Array>> Grad(const std::vector<Array>& outputs, const std::vector<Array>& inputs,
                                       const std::optional<BackpropId>& backprop_id,
                                       DoubleBackpropOption double_backprop,
                                       const std::vector<std::optional<Array>>& grad_outputs, bool set_grad,
                                       bool retain_grad) {
    BackpropId id = internal::ResolveBackpropId(backprop_id);
    std::vector<std::shared_ptr<ArrayNode>> targets;
    for (const Array& input : inputs) {
        ArrayBody::GraphEntry* entry = input.body()->FindGraph(id);
        if (entry == nullptr) {
            throw ChainerxError{"cannot compute the gradient with respect to an array that is not in graph ", id};
        }
        targets.push_back(entry->node);
    }
    BackwardPass pass{id, double_backprop, retain_grad, false};
    pass.Run(outputs, grad_outputs, targets);
    std::vector<std::optional<Array>> result;
    for (size_t i = 0; i < targets.size(); ++i) {
        auto it = pass.grads().find(targets[i].get());
        result.push_back(it == pass.grads().end() ? std::nullopt : std::optional<Array>{it->second.second});
        if (set_grad && result.back().has_value()) inputs[i].SetGrad(*result.back(), id);
    }
    return result;
}

}  // namespace chainerx
