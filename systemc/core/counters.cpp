#include "core/counters.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet {

void CounterSet::check_new(const std::string& name) const {
  if (name.empty()) throw std::logic_error("CounterSet: a counter needs a name");
  for (const auto& c : counters_)
    if (c->name == name) throw std::logic_error("CounterSet: counter '" + name + "' registered twice");
  for (const auto& s : series_)
    if (s->name == name) throw std::logic_error("CounterSet: series '" + name + "' registered twice");
}

std::uint64_t& CounterSet::counter(const std::string& name, Merge merge) {
  check_new(name);
  counters_.push_back(std::make_unique<Counter>(Counter{name, merge, 0}));
  return counters_.back()->value;
}

SeriesCounter& CounterSet::series(const std::string& name) {
  check_new(name);
  series_.push_back(std::make_unique<Series>(Series{name, SeriesCounter(series_window_)}));
  return series_.back()->values;
}

void CounterReport::add(const CounterSet& set) {
  for (const auto& cp : set.counters()) {
    const CounterSet::Counter& c = *cp;
    auto it = std::find_if(counters_.begin(), counters_.end(), [&](const auto& m) { return m.name == c.name; });
    if (it == counters_.end()) {
      counters_.push_back(c);
      continue;
    }
    if (it->merge != c.merge) throw std::logic_error("counter '" + c.name + "' registered with two merge rules");
    it->value = c.merge == CounterSet::Merge::Sum ? it->value + c.value : std::max(it->value, c.value);
  }
  for (const auto& sp : set.all_series()) {
    const CounterSet::Series& s = *sp;
    auto it = std::find_if(series_.begin(), series_.end(), [&](const auto& m) { return m.name == s.name; });
    if (it == series_.end()) {
      series_.push_back(Merged{s.name, s.values.window(), {}});
      it = series_.end() - 1;
    }
    const auto& v = s.values.sums();
    if (it->sums.size() < v.size()) it->sums.resize(v.size(), 0);
    for (std::size_t i = 0; i < v.size(); ++i) it->sums[i] += v[i];
  }
}

Json CounterReport::counters_json() const {
  Json j = Json::object();
  for (const auto& c : counters_) j[c.name] = c.value;
  return j;
}

Json CounterReport::series_json() const {
  if (series_.empty() || series_.front().window == 0) return nullptr;
  // Trailing windows that were only allocated by growth carry nothing in any series: trim them.
  std::size_t n = 0;
  for (const auto& s : series_)
    for (std::size_t i = s.sums.size(); i > n; --i)
      if (s.sums[i - 1]) {
        n = i;
        break;
      }
  const Cycle w = series_.front().window;
  Json j;
  j["window"] = w;
  Json start = Json::array();
  for (std::size_t i = 0; i < n; ++i) start.push_back(static_cast<std::uint64_t>(i) * w);
  j["start"] = start;
  for (const auto& s : series_) {
    Json v = Json::array();
    for (std::size_t i = 0; i < n; ++i) v.push_back(i < s.sums.size() ? s.sums[i] : 0);
    j[s.name] = v;
  }
  return j;
}

}  // namespace ccnet
