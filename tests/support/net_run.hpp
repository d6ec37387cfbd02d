// Test helper: elaborate one network from a YAML text and run it (one per process: SystemC
// elaborates once per process, so each TEST_CASE using this runs in its own ctest process).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/network.hpp"
#include "support/temp_config.hpp"

namespace ccnet::test {

struct NetRun {
  std::unique_ptr<Network> net;
  RunResult result;
  const Json& stats() const { return result.stats; }
};

inline std::unique_ptr<Network> build_network(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  TempConfig f(yaml);
  const Config cfg = load_config(f.path(), sets);
  return std::make_unique<Network>("net", cfg);
}

inline NetRun run_yaml(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  NetRun r;
  r.net = build_network(yaml, sets);
  r.result = run_network(*r.net, RunOptions{});
  return r;
}

// Runs a network in a fresh SystemC kernel and returns only its results, so that one test case
// can compare several runs (SystemC elaborates once per kernel). The finished network and its
// kernel are left alive on purpose: deleting either crashes at exit (DESIGN.md section 9).
inline Json run_yaml_fresh(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  NetRun r = run_yaml(yaml, sets);
  (void)r.net.release();
  return r.result.stats;
}

}  // namespace ccnet::test
