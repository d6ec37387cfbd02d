// Statistics collectors. Updates are O(1) and allocation-free in steady state (the latency
// histogram grows only when a new maximum needs a new bucket).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/types.hpp"

namespace ccnet {

using Json = nlohmann::ordered_json;

// Latency histogram: exact 1-cycle bins below kExact cycles, then 256 log-spaced sub-bins per
// power of two (relative bin width < 0.4%). Mean and max are exact; percentiles are exact
// below kExact and within 0.4% above.
class LatencyHistogram {
 public:
  static constexpr std::uint64_t kExact = 4096;
  static constexpr unsigned kSubBits = 8;

  // Inline: six adds per delivered data packet (docs/performance.md).
  void add(std::uint64_t v) {
    const std::size_t b = v < kExact ? static_cast<std::size_t>(v) : bucket(v);
    if (__builtin_expect(b >= counts_.size(), 0)) grow(b);
    ++counts_[b];
    ++n_;
    sum_ += v;
    max_ = std::max(max_, v);
    min_ = std::min(min_, v);
  }
  void merge(const LatencyHistogram& o);
  std::uint64_t count() const { return n_; }
  double mean() const { return n_ ? static_cast<double>(sum_) / static_cast<double>(n_) : 0.0; }
  std::uint64_t max() const { return max_; }
  std::uint64_t min() const { return n_ ? min_ : 0; }
  // Nearest-rank percentile, q in (0, 1].
  std::uint64_t percentile(double q) const;
  // {count, mean, p50, p99, max} (and min).
  Json to_json() const;

 private:
  static std::size_t bucket(std::uint64_t v);
  static std::uint64_t bucket_low(std::size_t b);
  void grow(std::size_t b);
  std::vector<std::uint64_t> counts_;
  std::uint64_t n_ = 0, sum_ = 0, max_ = 0, min_ = ~0ull;
};

// Mean, min, max and population standard deviation of a set of values.
struct Summary {
  double mean = 0, min = 0, max = 0, stddev = 0;
  static Summary of(const std::vector<double>& v);
  Json to_json() const;
};

// Per-window time series for transients: each window of `width` cycles accumulates counts and
// latency sums of the events stamped with a cycle inside it.
class TimeSeries {
 public:
  void configure(Cycle width) {
    width_ = width;
    cur_begin_ = cur_width_ = 0;
  }
  Cycle width() const { return width_; }
  // Inline: nothing to do without windows (the common case; called per packet and message), and
  // an event in the window of the last one added to without a division or a call.
  void add_ejection(Cycle at, std::uint32_t flits, Cycle packet_latency, Cycle network_latency) {
    if (!width_) return;
    Window& w = window(at);
    ++w.packets;
    w.flits += flits;
    w.plat_sum += packet_latency;
    w.nlat_sum += network_latency;
  }
  void add_creation(Cycle at, std::uint32_t flits) {
    if (width_) window(at).created_flits += flits;
  }
  // JSON arrays indexed by window: start cycle, ejected packets, ejected flits, created flits,
  // mean packet latency, mean network latency (null where no packet ejected).
  Json to_json(std::uint32_t nodes) const;
  bool empty() const { return windows_.empty(); }

 private:
  struct Window {
    std::uint64_t packets = 0, flits = 0, created_flits = 0, plat_sum = 0, nlat_sum = 0;
  };
  // The window of cycle `c`: the current one if `c` is in it, else at_window's.
  Window& window(Cycle c) { return c - cur_begin_ < cur_width_ ? windows_[cur_] : at_window(c); }
  // The window of cycle `c` (grown as needed); it becomes the current one.
  Window& at_window(Cycle c);
  Cycle width_ = 0;
  std::vector<Window> windows_;
  // The window at_window returned last: windows_[cur_], cycles [cur_begin_, cur_begin_ + cur_width_)
  // (cur_width_ 0: none yet, so every cycle misses it).
  Cycle cur_begin_ = 0, cur_width_ = 0;
  std::size_t cur_ = 0;
};

}  // namespace ccnet
