// Seeded random streams. Every component draws from its own stream, derived from the run seed
// and the component's hierarchical name, so adding a component never perturbs another one's
// draws, and the same config + seed gives bit-identical results (DESIGN.md section 3).
#pragma once

#include <cstdint>
#include <string_view>

namespace ccnet {

class RngStream {
 public:
  RngStream() : RngStream(0, "") {}
  RngStream(std::uint64_t seed, std::string_view name);

  // xoshiro256** next 64-bit value.
  std::uint64_t next();
  // Uniform integer in [0, n), n > 0 (rejection sampling, unbiased).
  std::uint64_t below(std::uint64_t n);
  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool bernoulli(double p) { return uniform() < p; }
  // Number of failures before the first success of a Bernoulli(p) process (p in (0, 1]).
  std::uint64_t geometric(double p) { return geometric(p, log1m(p)); }
  // The same draw with log1m(p) computed by the caller once for many draws of one p.
  std::uint64_t geometric(double p, double log1m_p);
  static double log1m(double p);  // log(1 - p), as geometric(p) uses it

 private:
  std::uint64_t s_[4];
};

// 64-bit FNV-1a, used to turn component names into stream seeds.
std::uint64_t hash_name(std::string_view name);

// The generator's two steps, header-only so code outside the model library (the co-simulation
// benches in tb/) draws from the same algorithm.
// splitmix64: advances x and returns the next seeding value.
inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// xoshiro256**: advances the state s and returns the next 64-bit value.
inline std::uint64_t xoshiro256ss(std::uint64_t (&s)[4]) {
  const auto rotl = [](std::uint64_t v, int k) { return (v << k) | (v >> (64 - k)); };
  const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
  const std::uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

}  // namespace ccnet
