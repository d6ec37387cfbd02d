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

}  // namespace ccnet::test
