#pragma once

#include <cstdint>
#include <cstring>

namespace chainerx {

// IEEE 754 binary16 stored as its 16 bits; arithmetic is done by converting to float.
class Float16 {
public:
    Float16() = default;
    Float16(float v) : bits_{FromFloat(v)} {}              // NOLINT: implicit like a builtin float type
    Float16(double v) : Float16{static_cast<float>(v)} {}  // NOLINT
    explicit Float16(int64_t v) : Float16{static_cast<float>(v)} {}
    explicit Float16(int v) : Float16{static_cast<float>(v)} {}

    operator float() const { return ToFloat(bits_); }  // NOLINT

    static Float16 FromBits(uint16_t bits) {
        Float16 h;
        h.bits_ = bits;
        return h;
    }
    uint16_t bits() const { return bits_; }

private:
    static float ToFloat(uint16_t h) {
        uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
        uint32_t exp = (h >> 10) & 0x1f;
        uint32_t mant = h & 0x3ff;
        uint32_t f;
        if (exp == 0) {
            if (mant == 0) {
                f = sign;
            } else {  // subnormal: renormalize into a float exponent
                int e = -1;
                do {
                    ++e;
                    mant <<= 1;
                } while ((mant & 0x400) == 0);
                f = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
            }
        } else if (exp == 0x1f) {
            f = sign | 0x7f800000 | mant << 13;
        } else {
            f = sign | (exp + 127 - 15) << 23 | mant << 13;
        }
        float out;
        std::memcpy(&out, &f, sizeof(out));
        return out;
    }

    static uint16_t FromFloat(float value) {
        uint32_t f;
        std::memcpy(&f, &value, sizeof(f));
        uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000);
        uint32_t abs = f & 0x7fffffff;
        if (abs >= 0x7f800000) {  // inf or nan
            return sign | 0x7c00 | (abs > 0x7f800000 ? 0x200 : 0);
        }
        if (abs >= 0x477ff000) return sign | 0x7c00;  // rounds to >= 65520: overflow to inf
        if (abs < 0x38800000) {                       // result is subnormal or zero in half precision
            float a;
            std::memcpy(&a, &abs, sizeof(a));
            // Adding 0.5 moves the half-subnormal grid onto the float mantissa's last bits, so
            // the FPU's round-to-nearest-even does the rounding.
            float shifted = a + 0.5f;
            uint32_t s;
            std::memcpy(&s, &shifted, sizeof(s));
            return sign | static_cast<uint16_t>(s - 0x3f000000);
        }
        uint32_t mant_odd = (abs >> 13) & 1;
        abs += 0xc8000fff + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
        return sign | static_cast<uint16_t>(abs >> 13);
    }

    uint16_t bits_{0};
};

}  // namespace chainerx
