#include "core/stats.hpp"

#include <algorithm>

namespace ccnet {

std::size_t LatencyHistogram::bucket(std::uint64_t v) {
  if (v < kExact) return static_cast<std::size_t>(v);
  // v >= 2^12: exponent e = floor(log2 v) >= 12; sub-bin = next kSubBits bits below the MSB.
  const int e = 63 - __builtin_clzll(v);
  const std::uint64_t sub = (v >> (e - static_cast<int>(kSubBits))) & ((1u << kSubBits) - 1);
  return static_cast<std::size_t>(kExact + static_cast<std::uint64_t>(e - 12) * (1u << kSubBits) + sub);
}

std::uint64_t LatencyHistogram::bucket_low(std::size_t b) {
  if (b < kExact) return b;
  const std::uint64_t k = b - kExact;
  const std::uint64_t e = 12 + k / (1u << kSubBits);
  const std::uint64_t sub = k % (1u << kSubBits);
  return (1ull << e) + (sub << (e - kSubBits));
}

void LatencyHistogram::grow(std::size_t b) {
  counts_.resize(std::max<std::size_t>(b + 1, counts_.size() * 2 + 64), 0);
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  if (o.counts_.size() > counts_.size()) counts_.resize(o.counts_.size(), 0);
  for (std::size_t i = 0; i < o.counts_.size(); ++i) counts_[i] += o.counts_[i];
  n_ += o.n_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
  min_ = std::min(min_, o.min_);
}

std::uint64_t LatencyHistogram::percentile(double q) const {
  if (n_ == 0) return 0;
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n_)));
  rank = std::clamp<std::uint64_t>(rank, 1, n_);
  std::uint64_t acc = 0;
  for (std::size_t b = 0; b < counts_.size(); ++b) {
    acc += counts_[b];
    if (acc >= rank) return std::min(bucket_low(b), max_);
  }
  return max_;
}

Json LatencyHistogram::to_json() const {
  Json j;
  j["count"] = n_;
  j["mean"] = mean();
  j["min"] = min();
  j["p50"] = percentile(0.50);
  j["p99"] = percentile(0.99);
  j["max"] = max_;
  return j;
}

Summary Summary::of(const std::vector<double>& v) {
  Summary s;
  if (v.empty()) return s;
  double sum = 0;
  s.min = v[0];
  s.max = v[0];
  for (double x : v) {
    sum += x;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  s.mean = sum / static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(var / static_cast<double>(v.size()));
  return s;
}

Json Summary::to_json() const {
  Json j;
  j["mean"] = mean;
  j["min"] = min;
  j["max"] = max;
  j["stddev"] = stddev;
  return j;
}

TimeSeries::Window& TimeSeries::at_window(Cycle c) {
  const std::size_t w = static_cast<std::size_t>(c / width_);
  if (w >= windows_.size()) windows_.resize(std::max<std::size_t>(w + 1, windows_.size() * 2));
  cur_ = w;
  cur_begin_ = static_cast<Cycle>(w) * width_;
  cur_width_ = width_;
  return windows_[w];
}

Json TimeSeries::to_json(std::uint32_t nodes) const {
  Json j;
  j["window"] = width_;
  Json start = Json::array(), packets = Json::array(), accepted = Json::array(), offered = Json::array(),
       plat = Json::array(), nlat = Json::array();
  // Trailing windows that were only allocated by growth carry nothing; trim them.
  std::size_t n = windows_.size();
  while (n > 0 && windows_[n - 1].packets == 0 && windows_[n - 1].created_flits == 0) --n;
  const double denom = static_cast<double>(width_) * static_cast<double>(nodes ? nodes : 1);
  for (std::size_t i = 0; i < n; ++i) {
    const Window& w = windows_[i];
    start.push_back(static_cast<std::uint64_t>(i) * width_);
    packets.push_back(w.packets);
    accepted.push_back(static_cast<double>(w.flits) / denom);
    offered.push_back(static_cast<double>(w.created_flits) / denom);
    if (w.packets) {
      plat.push_back(static_cast<double>(w.plat_sum) / static_cast<double>(w.packets));
      nlat.push_back(static_cast<double>(w.nlat_sum) / static_cast<double>(w.packets));
    } else {
      plat.push_back(nullptr);
      nlat.push_back(nullptr);
    }
  }
  j["start"] = start;
  j["packets"] = packets;
  j["accepted"] = accepted;
  j["offered"] = offered;
  j["latency_packet_mean"] = plat;
  j["latency_network_mean"] = nlat;
  return j;
}

}  // namespace ccnet
