#include "core/rng.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace ccnet {

std::uint64_t hash_name(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

RngStream::RngStream(std::uint64_t seed, std::string_view name) {
  std::uint64_t x = seed ^ hash_name(name);
  for (auto& s : s_) s = splitmix64(x);
}

std::uint64_t RngStream::next() { return xoshiro256ss(s_); }

std::uint64_t RngStream::below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("RngStream::below(0): empty range");
  // Unbiased: reject the top partial block of the 64-bit range.
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                              std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t v = next();
  while (v >= limit) v = next();
  return v % n;
}

double RngStream::log1m(double p) { return std::log1p(-p); }

std::uint64_t RngStream::geometric(double p, double log1m_p) {
  if (p >= 1.0) return 0;
  // Inverse transform: floor(log(U) / log(1 - p)), U in (0, 1].
  const double u = 1.0 - uniform();
  const double g = std::floor(std::log(u) / log1m_p);
  if (!(g < static_cast<double>(std::numeric_limits<std::uint64_t>::max() / 2)))  // also NaN (p <= 0)
    return std::numeric_limits<std::uint64_t>::max() / 2;
  return static_cast<std::uint64_t>(g);
}

}  // namespace ccnet
