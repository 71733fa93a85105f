#pragma once

#include <cstdint>
#include <ostream>

namespace chainerx {

class Context;

// Names one computational graph. Arrays can be part of several graphs at once, and each
// backward pass walks exactly one of them.
class BackpropId {
public:
    BackpropId(Context& context, uint64_t ordinal) : context_{&context}, ordinal_{ordinal} {}

    Context& context() const { return *context_; }
    uint64_t ordinal() const { return ordinal_; }

    friend bool operator==(const BackpropId& a, const BackpropId& b) {
        return a.context_ == b.context_ && a.ordinal_ == b.ordinal_;
    }
    friend bool operator!=(const BackpropId& a, const BackpropId& b) { return !(a == b); }

private:
    Context* context_;
    uint64_t ordinal_;
};

std::ostream& operator<<(std::ostream& os, const BackpropId& id);

}  // namespace chainerx
