// Verilator --sc port types and bit-field access for the thin SystemC wrappers of the mirrored
// blocks (systemc/blocks/*_sc.hpp). A wrapper port of W bits has exactly the C++ type Verilator
// gives the RTL port (bool for 1 bit, uint32_t up to 32, uint64_t up to 64, sc_bv<W> wider), so
// the model and the Verilated RTL bind to the same sc_signal (DESIGN.md section 4).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <systemc>

namespace ccnet::blocks::vl {

template <unsigned W>
using port_t = std::conditional_t<
    W == 1, bool,
    std::conditional_t<(W <= 32), std::uint32_t, std::conditional_t<(W <= 64), std::uint64_t, sc_dt::sc_bv<W>>>>;

inline std::uint64_t field_mask(unsigned n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }

// Field [lo, lo + n) of a port value, n <= 64.
inline std::uint64_t get(bool v, unsigned lo, unsigned n) { return lo == 0 && n > 0 && v ? 1u : 0u; }
inline std::uint64_t get(std::uint32_t v, unsigned lo, unsigned n) { return (std::uint64_t{v} >> lo) & field_mask(n); }
inline std::uint64_t get(std::uint64_t v, unsigned lo, unsigned n) { return (v >> lo) & field_mask(n); }
template <int W>
std::uint64_t get(const sc_dt::sc_bv<W>& v, unsigned lo, unsigned n) {
  return v.range(static_cast<int>(lo + n - 1), static_cast<int>(lo)).to_uint64();
}

// Set field [lo, lo + n) of a port value to x (x must fit in n bits).
inline void set(bool& v, unsigned lo, unsigned n, std::uint64_t x) {
  if (lo == 0 && n > 0) v = (x & 1u) != 0;
}
inline void set(std::uint32_t& v, unsigned lo, unsigned n, std::uint64_t x) {
  const auto m = static_cast<std::uint32_t>(field_mask(n) << lo);
  v = (v & ~m) | (static_cast<std::uint32_t>(x << lo) & m);
}
inline void set(std::uint64_t& v, unsigned lo, unsigned n, std::uint64_t x) {
  const std::uint64_t m = field_mask(n) << lo;
  v = (v & ~m) | ((x << lo) & m);
}
template <int W>
void set(sc_dt::sc_bv<W>& v, unsigned lo, unsigned n, std::uint64_t x) {
  v.range(static_cast<int>(lo + n - 1), static_cast<int>(lo)) = x;
}

inline bool bit(const bool& v, unsigned i) { return get(v, i, 1) != 0; }
inline bool bit(std::uint32_t v, unsigned i) { return get(v, i, 1) != 0; }
inline bool bit(std::uint64_t v, unsigned i) { return get(v, i, 1) != 0; }
template <int W>
bool bit(const sc_dt::sc_bv<W>& v, unsigned i) {
  return v.get_bit(static_cast<int>(i)) != 0;
}

// All-zero value of a port type.
template <class T>
T zero() {
  if constexpr (std::is_same_v<T, bool>) return false;
  else if constexpr (std::is_integral_v<T>) return T{0};
  else {
    T v;
    v = 0;
    return v;
  }
}

// Hexadecimal text of a port value (mismatch reports).
inline std::string hex(bool v) { return v ? "1" : "0"; }
inline std::string hex(std::uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15u]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}
inline std::string hex(std::uint32_t v) { return hex(std::uint64_t{v}); }
template <int W>
std::string hex(const sc_dt::sc_bv<W>& v) {
  std::string s;
  for (int lo = 0; lo < W; lo += 4) {
    const int hi = lo + 3 < W ? lo + 3 : W - 1;
    s.insert(s.begin(), "0123456789abcdef"[v.range(hi, lo).to_uint()]);
  }
  while (s.size() > 1 && s.front() == '0') s.erase(s.begin());
  return "0x" + s;
}

}  // namespace ccnet::blocks::vl
