#include "chainerx/backprop_mode.h"

#include <algorithm>
#include <utility>

namespace chainerx {
namespace {

struct ModeFrame {
    bool enabled;
    std::vector<BackpropId> backprop_ids;  // empty: applies to every graph
};

thread_local std::vector<ModeFrame> t_mode_stack;

}  // namespace

NoBackpropModeScope::NoBackpropModeScope() { t_mode_stack.push_back({false, {}}); }
NoBackpropModeScope::NoBackpropModeScope(std::vector<BackpropId> ids) {
    t_mode_stack.push_back({false, std::move(ids)});
}
NoBackpropModeScope::~NoBackpropModeScope() { t_mode_stack.pop_back(); }

ForceBackpropModeScope::ForceBackpropModeScope() { t_mode_stack.push_back({true, {}}); }
ForceBackpropModeScope::ForceBackpropModeScope(std::vector<BackpropId> ids) {
    t_mode_stack.push_back({true, std::move(ids)});
}
ForceBackpropModeScope::~ForceBackpropModeScope() { t_mode_stack.pop_back(); }

bool IsBackpropEnabled(const BackpropId& backprop_id) {
    for (auto it = t_mode_stack.rbegin(); it != t_mode_stack.rend(); ++it) {
        const std::vector<BackpropId>& ids = it->backprop_ids;
        if (ids.empty() || std::find(ids.begin(), ids.end(), backprop_id) != ids.end()) return it->enabled;
    }
    return true;
}

namespace internal {
bool NoBackpropModeScopesActive() { return t_mode_stack.empty(); }
}  // namespace internal

}  // namespace chainerx
