// Workload: named node groups and traffic classes (each with its own pattern, sources,
// destinations, offered load, message sizes and active period).
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace ccnet {

struct NodeGroupConfig {
  std::string name;
  std::vector<std::uint32_t> nodes;   // explicit members
  std::vector<std::uint32_t> range;   // [first, last] inclusive
  std::uint32_t random = 0;           // random subset of this size drawn from `from` minus `exclude`
  std::string from = "all";
  std::vector<std::string> exclude;
  static const config::Schema& schema();
};

class Pattern;
struct PatternParams {
  virtual ~PatternParams() = default;
  virtual std::unique_ptr<Pattern> create(const std::vector<NodeId>& sources, const std::vector<NodeId>& destinations,
                                          RngStream rng) const = 0;
};

// How a class's sources create messages: Bernoulli or periodic arrivals at `rate`; bursts (ON/OFF:
// `burst` messages on average, geometric, to one destination at line rate, then an idle gap, so
// that the long-run load is `rate`; paper 002); or a communication phase (paper 004): at `start`,
// every source posts `flows` messages at once (one per pattern draw), and nothing else.
enum class InjectionProcess : std::uint8_t { Bernoulli, Periodic, Phase, Bursty };

struct TrafficClassConfig {
  std::string name;
  InjectionProcess process = InjectionProcess::Bernoulli;
  config::Poly<PatternParams> pattern;
  std::string sources = "all";
  std::string destinations = "all";
  double rate = 0.1;            // offered load per source, flits/cycle
  std::uint32_t size = 1;       // message size in flits (minimum when size_max > size)
  std::uint32_t size_max = 0;   // 0: fixed size; else uniform in [size, size_max]
  Cycle start = 0;
  Cycle stop = kNever;
  std::uint32_t flows = 1;      // phase: messages each source posts at `start`
  double burst = 12;            // bursty: mean messages per burst (geometric on {1, 2, ...})
  std::uint64_t messages = 0;               // per source, then the source stops (0: no limit)
  std::uint64_t start_after_delivered = 0;  // the class starts once the network delivered this many data packets
  static const config::Schema& schema();
  bool phase() const { return process == InjectionProcess::Phase; }
  // The class generates a finite amount of traffic (a stop cycle, a message limit or a phase).
  bool bounded() const { return stop != kNever || messages > 0 || phase(); }
  double mean_size() const { return size_max > size ? (size + size_max) / 2.0 : size; }
  // Periodic process: cycles between messages of one source.
  Cycle period() const;
  // Bursty process: probability per idle cycle that the next burst starts (the idle gap is
  // geometric with mean burst x mean_size x (1 - rate) / rate cycles).
  double burst_start_probability() const;
};

struct TrafficConfig {
  std::vector<NodeGroupConfig> groups;
  std::vector<TrafficClassConfig> classes;
  static const config::Schema& schema();
};

// Resolved node sets (group name -> sorted members), from the groups in declaration order.
// Throws config::ConfigError naming the group on bad references or impossible sizes.
std::vector<std::pair<std::string, std::vector<NodeId>>> resolve_groups(const TrafficConfig& cfg, std::uint32_t nodes,
                                                                        std::uint64_t seed, const config::BindContext& ctx);
const std::vector<NodeId>& find_group(const std::vector<std::pair<std::string, std::vector<NodeId>>>& groups,
                                      const std::string& name, const std::string& path, const config::BindContext& ctx);

}  // namespace ccnet
