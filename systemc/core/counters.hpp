// Counters and time series a mechanism owns (docs/writing-a-mechanism.md, docs/outputs.md).
//
// Every router and NIC has one CounterSet. The mechanism's hooks register their counters in it
// by name when they are created, keep the returned reference and bump it as they go (a plain
// integer: no cost beyond the increment). At the end of a run the network merges the counters
// of one name over all routers and NICs (sum, or maximum for a peak) and writes them to the
// `cc` section of stats.json, and the series to `timeseries.cc`. Nothing outside the mechanism
// lists its counters.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "core/types.hpp"

namespace ccnet {

// Per-window sums over the run: add(now, n) adds n to the window holding `now`; windows are
// sim.series_window cycles long (nothing is kept when that is 0).
class SeriesCounter {
 public:
  explicit SeriesCounter(Cycle window = 0) : window_(window) {}
  void add(Cycle now, std::uint64_t n = 1) {
    if (!window_) return;
    const auto w = static_cast<std::size_t>(now / window_);
    if (w >= sums_.size()) sums_.resize(std::max<std::size_t>(w + 1, sums_.size() * 2));
    sums_[w] += n;
  }
  Cycle window() const { return window_; }
  const std::vector<std::uint64_t>& sums() const { return sums_; }

 private:
  Cycle window_;
  std::vector<std::uint64_t> sums_;
};

class CounterSet {
 public:
  // How the network merges the counters of one name over routers and NICs.
  enum class Merge : std::uint8_t { Sum, Max };

  explicit CounterSet(Cycle series_window = 0) : series_window_(series_window) {}
  CounterSet(const CounterSet&) = delete;
  CounterSet& operator=(const CounterSet&) = delete;

  // Registers a counter (starting at 0) and returns it; the reference stays valid for the life
  // of the set. Registering a name twice in one set throws std::logic_error.
  std::uint64_t& counter(const std::string& name, Merge merge = Merge::Sum);
  // Registers a time series.
  SeriesCounter& series(const std::string& name);

  struct Counter {
    std::string name;
    Merge merge;
    std::uint64_t value = 0;
  };
  struct Series {
    std::string name;
    SeriesCounter values;
  };
  const std::vector<std::unique_ptr<Counter>>& counters() const { return counters_; }
  const std::vector<std::unique_ptr<Series>>& all_series() const { return series_; }
  bool empty() const { return counters_.empty() && series_.empty(); }

 private:
  void check_new(const std::string& name) const;
  Cycle series_window_;
  // Held by pointer: references stay valid as more are registered, and an empty set (most
  // routers and NICs of most mechanisms) allocates nothing.
  std::vector<std::unique_ptr<Counter>> counters_;
  std::vector<std::unique_ptr<Series>> series_;
};

// Merges counter sets (routers' and NICs') into the `cc` section of stats.json, and their series
// into `timeseries.cc` ({"window", "start": [...], <name>: [...]}). A name registered with two
// different merge rules throws std::logic_error.
class CounterReport {
 public:
  void add(const CounterSet& set);
  Json counters_json() const;
  Json series_json() const;  // null when no series (or sim.series_window is 0)

 private:
  std::vector<CounterSet::Counter> counters_;  // first-registration order
  struct Merged {
    std::string name;
    Cycle window = 0;
    std::vector<std::uint64_t> sums;
  };
  std::vector<Merged> series_;
};

}  // namespace ccnet
