// The NIC's external (host) port when the fabric runs faster than it (nic.port_speedup = s > 1):
// new data flits enter the network, and data flits leave the ejection buffer for the host, at
// 1/s flits per cycle of the fabric, exactly. s = num/den in lowest terms: den tokens arrive per
// cycle and a flit costs num, so a port kept busy passes flit k at cycle ceil(k s) of its busy
// stretch (over T cycles: floor or ceil of T/s flits), deterministically.
//
// A port that had nothing to pass for more than a cycle restarts in phase with its next flit
// (it keeps at most one flit's tokens, so an idle stretch buys no burst); one that was ready but
// held back (no downstream credit) keeps less than one flit's tokens beyond that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "core/types.hpp"

namespace ccnet {

struct Ratio {
  std::uint32_t num = 1, den = 1;
};

// s as an exact ratio: s has at most three decimals (validated with the config); 1.1 -> 11/10.
inline Ratio speedup_ratio(double s) {
  const auto num = static_cast<std::uint32_t>(s * 1000.0 + 0.5);
  const std::uint32_t g = std::gcd(num, 1000u);
  return Ratio{num / g, 1000u / g};
}

class PortRate {
 public:
  PortRate() = default;  // off: a flit every cycle
  explicit PortRate(Ratio s) : num_(s.num), den_(s.den), tokens_(s.num) {}
  bool on() const { return num_ != den_; }
  // Whether a flit may pass at `now` (call it on every cycle the port has a flit to pass).
  bool ready(Cycle now) {
    if (now != at_) {
      const Cycle d = std::min<Cycle>(now - at_, num_);
      // Busy in the last cycle: keep the fraction of a flit (the phase); idle: at most one flit.
      tokens_ = std::min<std::uint64_t>(tokens_ + d * den_, d == 1 ? num_ + den_ - 1 : num_);
      at_ = now;
    }
    return tokens_ >= num_;
  }
  // A flit passes (after ready() returned true this cycle).
  void take() { tokens_ -= num_; }
  std::uint64_t tokens() const { return tokens_; }

 private:
  std::uint32_t num_ = 1, den_ = 1;
  std::uint64_t tokens_ = 1;
  Cycle at_ = 0;
};

}  // namespace ccnet
