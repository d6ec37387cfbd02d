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
  std::uint64_t geometric(double p);

 private:
  std::uint64_t s_[4];
};

// 64-bit FNV-1a, used to turn component names into stream seeds.
std::uint64_t hash_name(std::string_view name);

}  // namespace ccnet
