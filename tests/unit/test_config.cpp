// Configuration binding: every kind of bad input gets a clear error naming file, line and key.
#include <catch2/catch.hpp>

#include "sim/config.hpp"
#include "support/temp_config.hpp"

using ccnet::config::ConfigError;
using ccnet::test::TempConfig;

namespace {
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  TempConfig f(yaml);
  try {
    ccnet::load_config(f.path(), sets);
  } catch (const ConfigError& e) {
    std::string msg = e.what();
    // Replace the temp path by a fixed name for matching.
    const auto pos = msg.find(f.path());
    if (pos != std::string::npos) msg.replace(pos, f.path().size(), "F");
    return msg;
  }
  return "no error";
}
const char* kMinimal = "traffic:\n  classes:\n    - name: u\n      rate: 0.1\n";
}  // namespace

TEST_CASE("a minimal config binds with defaults", "[config]") {
  TempConfig f(kMinimal);
  const ccnet::Config c = ccnet::load_config(f.path(), {});
  CHECK(c.topology.type == "mesh");
  CHECK(c.router.speedup == 1);
  CHECK(c.traffic.classes.size() == 1);
  CHECK(c.traffic.classes[0].pattern.type == "uniform");
  CHECK(c.traffic.classes[0].rate == Approx(0.1));
}

TEST_CASE("unknown key names file, line and key path", "[config]") {
  const std::string m = error_of(std::string("router:\n  speedup: 1\n  sppedup: 2\n") + kMinimal);
  CHECK(m == "F:3: router.sppedup: unknown key 'sppedup' (known keys: flow_control, vcs_per_level, buffer, voq, speedup, "
             "output_buffer, delays, control_queue)");
}

TEST_CASE("wrong type is an error", "[config]") {
  CHECK(error_of(std::string("router:\n  speedup: fast\n") + kMinimal) == "F:2: router.speedup: expected an integer, got 'fast'");
  CHECK(error_of(std::string("router:\n  voq: 3\n") + kMinimal) == "F:2: router.voq: expected a boolean (true/false), got '3'");
  CHECK(error_of(std::string("router: [1, 2]\n") + kMinimal) == "F:1: router: expected a map of settings, got a list");
  CHECK(error_of(std::string("router:\n  buffer:\n    local: 2.5\n") + kMinimal) ==
        "F:3: router.buffer.local: expected an integer, got '2.5'");
}

TEST_CASE("out-of-range values are errors", "[config]") {
  CHECK(error_of(std::string("router:\n  speedup: 9\n") + kMinimal) == "F:2: router.speedup: value 9 out of range [1, 3]");
  CHECK(error_of("traffic:\n  classes:\n    - name: u\n      rate: 1.5\n") ==
        "F:4: traffic.classes[0].rate: value 1.5 out of range [0, 1]");
  CHECK(error_of(std::string("topology: {type: mesh, k: 1}\n") + kMinimal) == "F:1: topology.k: value 1 out of range [2, 256]");
}

TEST_CASE("unknown selector values list the valid ones", "[config]") {
  CHECK(error_of(std::string("topology:\n  type: torus\n") + kMinimal) ==
        "F:2: topology.type: unknown type 'torus', expected one of dragonfly, fattree, mesh");
  CHECK(error_of(std::string("router:\n  flow_control: store\n") + kMinimal) ==
        "F:2: router.flow_control: unknown value 'store', expected one of vct, wormhole");
  const std::string m = error_of(std::string("cc:\n  mechanism: nope\n") + kMinimal);
  CHECK(m.rfind("F:2: cc.mechanism: unknown mechanism 'nope', expected one of ", 0) == 0);
}

TEST_CASE("cross-field checks point at the offending key", "[config]") {
  CHECK(error_of(std::string("router:\n  speedup: 2\n") + kMinimal) ==
        "F:2: router.speedup: a crossbar speedup of 2 needs output queues (set router.output_buffer > 0)");
  CHECK(error_of(std::string("nic:\n  max_packet: 32\n") + kMinimal) ==
        "F: router.buffer.terminal: virtual cut-through needs room for a whole packet: 16 < nic.max_packet 32");
  CHECK(error_of(std::string("routing: {algorithm: ugal}\n") + kMinimal).find("'ugal' needs topology 'dragonfly'") !=
        std::string::npos);
  CHECK(error_of("traffic:\n  classes:\n    - name: u\n      rate: 0.5\n      size: 1\n    - name: u\n") ==
        "F:6: traffic.classes[1].name: duplicate traffic class name 'u'");
  CHECK(error_of("topology: {type: dragonfly, p: 1, a: 2, h: 2, g: 4}\n" + std::string(kMinimal)).find(
            "must divide evenly") != std::string::npos);
}

TEST_CASE("node groups: bad references and impossible sizes", "[config]") {
  CHECK(error_of("traffic:\n  classes:\n    - name: u\n      sources: hot\n") ==
        "F:4: traffic.classes[0].sources: unknown node group 'hot' (known: all)");
  CHECK(error_of("traffic:\n  groups:\n    - {name: g, random: 100}\n  classes:\n    - name: u\n") ==
        "F:3: traffic.groups[0].random: wants 100 nodes but only 64 candidates remain");
  CHECK(error_of("traffic:\n  groups:\n    - {name: g, nodes: [70]}\n  classes:\n    - name: u\n") ==
        "F:3: traffic.groups[0].nodes: node 70 does not exist (64 nodes)");
  CHECK(error_of("traffic:\n  classes:\n    - name: u\n      pattern: {type: hotspot}\n") ==
        "F:3: traffic.classes[0].destinations: a hotspot class needs a group of hot destinations");
}

TEST_CASE("command-line overrides apply and their errors name the override", "[config]") {
  TempConfig f(kMinimal);
  const auto c = ccnet::load_config(f.path(), {"router.speedup=2", "router.output_buffer=32", "traffic.classes[0].rate=0.3"});
  CHECK(c.router.speedup == 2);
  CHECK(c.traffic.classes[0].rate == Approx(0.3));
  CHECK(error_of(kMinimal, {"router.speedup=7"}) == "--set router.speedup=7: router.speedup: value 7 out of range [1, 3]");
  CHECK(error_of(kMinimal, {"router.spedup=2"}).rfind("--set router.spedup=2: router.spedup: unknown key", 0) == 0);
  CHECK(error_of(kMinimal, {"nonsense"}) == "--set nonsense: expected key.path=value");
  CHECK(error_of(kMinimal, {"traffic.classes[4].rate=0.1"}) == "--set traffic.classes[4].rate=0.1: 'classes' has no element 4");
}

TEST_CASE("YAML syntax errors and missing files", "[config]") {
  CHECK(error_of("router: {speedup: 1\n").rfind("F:2: YAML syntax error", 0) == 0);
  CHECK_THROWS_WITH(ccnet::load_config("/nonexistent/x.yaml", {}), "/nonexistent/x.yaml: cannot open config file");
}

TEST_CASE("effective config round-trips through YAML", "[config]") {
  TempConfig f(kMinimal);
  const auto c = ccnet::load_config(f.path(), {"topology.type=dragonfly", "routing.algorithm=ugal"});
  const auto j = ccnet::effective_config(c);
  CHECK(j["topology"]["type"] == "dragonfly");
  CHECK(j["topology"]["a"] == 4);
  CHECK(j["routing"]["threshold"] == 0);
  CHECK(j["traffic"]["classes"][0]["stop"] == "inf");
  TempConfig g(ccnet::config::to_yaml(j));
  const auto c2 = ccnet::load_config(g.path(), {});
  CHECK(ccnet::effective_config(c2) == j);
}
