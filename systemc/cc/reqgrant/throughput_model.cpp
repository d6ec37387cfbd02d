#include "cc/reqgrant/throughput_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/rng.hpp"

namespace ccnet::reqgrant {

double simulate_random_grant_throughput(std::uint32_t n, std::uint32_t b, std::uint64_t slots, std::uint64_t warmup,
                                        std::uint64_t seed) {
  if (n == 0 || b == 0 || slots == 0) throw std::invalid_argument("random-grant model: n, b and slots must be positive");
  RngStream rng(seed, "reqgrant.throughput_model");
  std::vector<std::uint32_t> credits(n, b), occupancy(n, 0);
  std::vector<std::uint64_t> chosen(n, ~0ull);       // per input: the last (slot, output) that granted it
  std::vector<std::vector<std::uint32_t>> grants(n);  // per input: outputs that granted it
  std::uint64_t departures = 0;
  for (std::uint64_t slot = 0; slot < warmup + slots; ++slot) {
    for (auto& g : grants) g.clear();
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint32_t k = std::min(credits[j], n);
      const std::uint64_t token = slot * n + j;
      for (std::uint32_t t = 0; t < k; ++t) {  // k distinct inputs, uniformly (redraw a repeat)
        std::uint32_t i;
        do i = static_cast<std::uint32_t>(rng.below(n));
        while (chosen[i] == token);
        chosen[i] = token;
        grants[i].push_back(j);
      }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (grants[i].empty()) continue;
      const std::uint32_t j = grants[i][rng.below(grants[i].size())];
      --credits[j];
      ++occupancy[j];
    }
    for (std::uint32_t j = 0; j < n; ++j) {
      if (occupancy[j] == 0) continue;
      --occupancy[j];
      ++credits[j];
      if (slot >= warmup) ++departures;
    }
  }
  return static_cast<double>(departures) / (static_cast<double>(n) * static_cast<double>(slots));
}

ChainResult chain_throughput(std::uint32_t n, std::uint32_t b) {
  if (n == 0 || b == 0) throw std::invalid_argument("random-grant chain: n and b must be positive");
  const double nd = n;
  std::vector<double> pi(b + 1, 0.0), next(b + 1);
  pi[b] = 1.0;
  double p_acc = 1.0, beta = b;
  for (int outer = 0; outer < 1000; ++outer) {
    // Transition x -> x - a + [b - x + a > 0], a ~ Binomial(min(x, N), p_acc); stationary law by
    // power iteration.
    for (int it = 0; it < 20000; ++it) {
      std::fill(next.begin(), next.end(), 0.0);
      for (std::uint32_t x = 0; x <= b; ++x) {
        const std::uint32_t m = std::min(x, n);
        double choose = 1.0;  // C(m, a)
        for (std::uint32_t a = 0; a <= m; ++a) {
          if (a > 0) choose = choose * (m - a + 1) / a;
          const double pa = choose * std::pow(p_acc, a) * std::pow(1.0 - p_acc, m - a);
          const std::uint32_t occupancy = b - x + a;
          next[x - a + (occupancy > 0 ? 1 : 0)] += pi[x] * pa;
        }
      }
      double diff = 0.0;
      for (std::uint32_t x = 0; x <= b; ++x) diff += std::abs(next[x] - pi[x]);
      pi.swap(next);
      if (diff < 1e-14) break;
    }
    double mean_x = 0.0, mean_m = 0.0;
    for (std::uint32_t x = 0; x <= b; ++x) {
      mean_x += pi[x] * x;
      mean_m += pi[x] * std::min(x, n);
    }
    const double q = mean_m / nd;
    const double p2 = q > 0.0 ? (1.0 - std::pow(1.0 - q, nd)) / (nd * q) : 1.0;
    const bool done = std::abs(p2 - p_acc) < 1e-12 && std::abs(mean_x - beta) < 1e-12;
    p_acc = p2;
    beta = mean_x;
    if (done) break;
  }
  return {1.0 - std::pow((nd - beta) / nd, nd), beta};
}

double throughput_bound(std::uint32_t n, std::uint32_t b) {
  const double nd = n, bd = std::min(b, n);
  return 1.0 - std::pow((nd - bd) / nd, nd);
}

}  // namespace ccnet::reqgrant
