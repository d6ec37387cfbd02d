// The root configuration: one YAML file, bound section by section into typed structs declared
// next to each component (see docs/config.md, generated from these declarations).
#pragma once

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
  std::uint64_t memory_limit_mb = 0;  // 0: half of the machine's memory
  static const config::Schema& schema();
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
  bool empty_file = false;  // the file held no settings: every key took its default
  double memory_estimate = 0;  // bytes the built network is expected to take (sim/memory_guard.hpp)
};

// Loads, binds and validates. `seed_override` >= 0 replaces the seed. Throws ConfigError.
Config load_config(const std::string& file, const std::vector<std::string>& overrides, long long seed_override = -1);
// The effective configuration (every key, defaults filled in).
config::Json effective_config(const Config& cfg);
// docs/config.md
std::string config_reference();
// The declarations as JSON (`ccnet list --json`): every key with its kind, default and range,
// and for each polymorphic section (topology.type, cc.mechanism, ...) its registered names.
config::Json config_schema();
// "topology.type: dragonfly, fattree, mesh" lines, one per polymorphic section (`ccnet list`).
std::string registered_names();

}  // namespace ccnet
