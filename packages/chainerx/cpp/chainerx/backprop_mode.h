#pragma once

#include <vector>

#include "chainerx/backprop_id.h"

namespace chainerx {

// Within a NoBackpropModeScope, routines record no graph (for the given ids, or for all);
// a ForceBackpropModeScope turns recording back on inside it. Scopes nest per thread.
class NoBackpropModeScope {
public:
    NoBackpropModeScope();
    explicit NoBackpropModeScope(std::vector<BackpropId> backprop_ids);
    ~NoBackpropModeScope();
    NoBackpropModeScope(const NoBackpropModeScope&) = delete;
    NoBackpropModeScope& operator=(const NoBackpropModeScope&) = delete;
};

class ForceBackpropModeScope {
public:
    ForceBackpropModeScope();
    explicit ForceBackpropModeScope(std::vector<BackpropId> backprop_ids);
    ~ForceBackpropModeScope();
    ForceBackpropModeScope(const ForceBackpropModeScope&) = delete;
    ForceBackpropModeScope& operator=(const ForceBackpropModeScope&) = delete;
};

// Whether routines currently record graphs for this backprop id (ignores arrays).
bool IsBackpropEnabled(const BackpropId& backprop_id);

namespace internal {
// True while no scope is active: the fast path of recording checks.
bool NoBackpropModeScopesActive();
}  // namespace internal

}  // namespace chainerx
