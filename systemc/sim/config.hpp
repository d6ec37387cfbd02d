// The root configuration: one YAML file, bound section by section into typed structs declared
// next to each component (see docs/config.md, generated from these declarations).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cc/mechanism.hpp"
#include "core/config.hpp"
#include "nic/nic_config.hpp"
#include "router/router_config.hpp"
#include "topology/topology.hpp"
#include "traffic/traffic_config.hpp"

namespace ccnet {

struct SimConfig {
  Cycle warmup = 1000;
  Cycle measure = 10000;
  Cycle drain_limit = 100000;
  Cycle series_window = 1000;
  Cycle watchdog = 20000;
  bool check_quiescent = true;
  double clock_ghz = 1.0;
  bool latency_from_first_injection = false;
  std::vector<std::uint32_t> ejection_series;  // nodes whose ejection-link flits are recorded per series window
  std::uint64_t memory_limit_mb = 0;  // 0: half of the machine's memory
  std::string rtl;                     // RTL in the loop: "", "all" or block names, comma-separated
  bool rtl_check = false;
  std::string rtl_mutant;              // test only: a deliberately broken RTL build
  static const config::Schema& schema();
};

// What load_config builds from a configuration, once: the topology, its routing function, the
// latency and input buffer depth of each of the topology's link classes (indexed by
// LinkClassId), and each traffic class's resolved source and destination nodes (random groups
// drawn with the Config's seed). Immutable; copies of a Config share it, and a Network built
// from the Config uses it as is: it is derived from the other fields when loading, so changing
// those afterwards does not rebuild it (load the configuration again instead).
struct BuiltConfig {
  std::shared_ptr<const Topology> topology;
  std::shared_ptr<const RoutingFunction> routing;
  std::vector<std::uint32_t> link_latency;  // per link class
  std::vector<std::uint32_t> buffer_depth;  // per link class
  std::vector<std::vector<NodeId>> sources, destinations;  // per traffic class
  double memory_estimate = 0;  // bytes the network is expected to take once built (sim/memory_guard.hpp)
};

struct Config {
  std::uint64_t seed = 1;
  SimConfig sim;
  config::Poly<TopologyParams> topology;
  config::Poly<RoutingParams> routing;
  RouterConfig router;
  LinkConfig link;
  NicConfig nic;
  config::Poly<MechanismParams> cc;
  TrafficConfig traffic;
  static const config::Schema& schema();

  std::string file;  // where it came from (for messages)
  std::shared_ptr<const BuiltConfig> built;  // set by load_config
  bool empty_file = false;  // the file held no settings: every key took its default
};

// Loads, binds and validates, and builds the topology, routing function and node groups
// (Config::built). `seed_override` >= 0 replaces the seed. Throws ConfigError.
Config load_config(const std::string& file, const std::vector<std::string>& overrides, long long seed_override = -1);
// The effective configuration (every key, defaults filled in; per-link-class values only for
// the classes the topology has).
config::Json effective_config(const Config& cfg);
// Sum of the configured latencies of the router-to-router link classes (every class but
// terminal): the watchdog must exceed it, and the quiescence check waits a few of it.
std::uint64_t router_link_latency_sum(const Config& cfg);
// docs/config.md
std::string config_reference();
// The declarations as JSON (`ccnet list --json`): every key with its kind, default and range,
// and for each polymorphic section (topology.type, cc.mechanism, ...) its registered names.
config::Json config_schema();
// "topology.type: dragonfly, fattree, mesh" lines, one per polymorphic section (`ccnet list`).
std::string registered_names();

}  // namespace ccnet
