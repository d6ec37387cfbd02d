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
        "F:2: topology.type: unknown type 'torus', expected one of clos, dragonfly, explicit, fattree, mesh, "
        "modified_fattree, multicluster");
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

TEST_CASE("per-link-class values: the topology's classes, each with a value, no others", "[config]") {
  // Legacy keys keep working where the topology has the class.
  TempConfig f(std::string("topology: {type: dragonfly}\nlink: {latency: {terminal: 2, local: 3, global: 40}}\n"
                           "router: {buffer: {global: 128}}\n") + kMinimal);
  const auto c = ccnet::load_config(f.path(), {});
  CHECK(c.built->link_latency == std::vector<std::uint32_t>{2, 3, 40});
  CHECK(c.built->buffer_depth == std::vector<std::uint32_t>{16, 16, 128});
  // A class the topology does not have, by file line or override.
  CHECK(error_of(std::string("topology: {type: fattree}\nrouter:\n  buffer:\n    global: 32\n") + kMinimal) ==
        "F:4: router.buffer.global: topology 'fattree' has no link class 'global' (its classes: terminal, local)");
  CHECK(error_of(kMinimal, {"link.latency.inter_cluster=5"}) ==
        "--set link.latency.inter_cluster=5: link.latency.inter_cluster: topology 'mesh' has no link class "
        "'inter_cluster' (its classes: terminal, local)");
  // A class of the topology without a default needs a value.
  CHECK(error_of(std::string("topology: {type: multicluster, k: 4}\n") + kMinimal) ==
        "F: link.latency.inter_cluster: no value for link class 'inter_cluster' (multicluster: channels between "
        "clusters) of topology 'multicluster'");
  CHECK(error_of(std::string("topology: {type: multicluster, k: 4}\nlink: {latency: {inter_cluster: 8}}\n") + kMinimal) ==
        "F: router.buffer.inter_cluster: no value for link class 'inter_cluster' (multicluster: channels between "
        "clusters) of topology 'multicluster'");
  CHECK(error_of(std::string("topology: {type: multicluster, k: 4}\nlink: {latency: {inter_cluster: 8}}\n"
                             "router: {buffer: {inter_cluster: 4}}\nnic: {max_packet: 8}\n") + kMinimal) ==
        "F:3: router.buffer.inter_cluster: virtual cut-through needs room for a whole packet: 4 < nic.max_packet 8");
  CHECK(error_of(std::string("link: {latency: [1, 2]}\n") + kMinimal) ==
        "F:1: link.latency: expected a map of name: value, got a list");
}

TEST_CASE("effective config: per-link-class values of the topology's classes, and it loads again", "[config]") {
  for (const char* topo : {"{type: mesh}", "{type: fattree}", "{type: dragonfly}", "{type: clos}"}) {
    TempConfig f(std::string("topology: ") + topo + "\n" + kMinimal);
    const auto c = ccnet::load_config(f.path(), {});
    const auto j = ccnet::effective_config(c);
    CHECK(j["link"]["latency"].size() == c.built->topology->link_classes().size());
    CHECK(j["router"]["buffer"].size() == c.built->topology->link_classes().size());
    TempConfig g(ccnet::config::to_yaml(j));
    CHECK(ccnet::effective_config(ccnet::load_config(g.path(), {})) == j);
  }
  TempConfig f(std::string("topology: {type: multicluster, k: 4}\nlink: {latency: {inter_cluster: 8}}\n"
                           "router: {buffer: {inter_cluster: 32}}\n") + kMinimal);
  const auto j = ccnet::effective_config(ccnet::load_config(f.path(), {}));
  CHECK(j["link"]["latency"].dump() == R"({"terminal":1,"local":1,"inter_cluster":8})");
  CHECK(j["router"]["buffer"].dump() == R"({"terminal":16,"local":16,"inter_cluster":32})");
}

TEST_CASE("multistage topology sizes beyond the model are rejected naming the key", "[config]") {
  CHECK(error_of(std::string("topology: {type: fattree, k: 64, n: 6}\n") + kMinimal) ==
        "F:1: topology.k: a 64-ary 6-tree has 68719476736 nodes; at most 2147483647 are supported");
  CHECK(error_of(std::string("topology: {type: modified_fattree, k: 64, n: 6}\n") + kMinimal) ==
        "F:1: topology.k: a 64-ary 6-tree has 68719476736 nodes; at most 2147483647 are supported");
  CHECK(error_of(std::string("topology: {type: multicluster, k: 4, clusters: 3, channels: 3}\n") + kMinimal) ==
        "F:1: topology.channels: 3 channels per direction need 6 distinct leaf routers per cluster, a cluster has 4 "
        "(a ring cluster hosts channels to both neighbours)");
  CHECK(error_of(std::string("topology: {type: multicluster, k: 4, channels: 5}\n") + kMinimal) ==
        "F:1: topology.channels: 5 channels per direction need 5 distinct leaf routers per cluster, a cluster has 4");
}

TEST_CASE("explicit topology: mistakes in the link list and routing table name the key", "[config]") {
  const std::string nodes = "nodes: [{router: 0, port: 0}, {router: 1, port: 0}]";
  auto topo = [&](const std::string& rest) { return "topology: {type: explicit, routers: 2, " + nodes + ", " + rest + "}\n" + kMinimal; };
  const std::string link = "links: [{a: [0, 1], b: [1, 1]}]";
  CHECK(error_of(topo(link + ", routes: [{router: 0, dst: 1, port: 1}, {router: 1, dst: 0, port: 1}]")) == "no error");
  CHECK(error_of(topo("links: [{a: [0, 0], b: [1, 1]}]")) ==
        "F:1: topology.links[0].a: port 0 of router 0 is already connected");
  CHECK(error_of(topo("links: [{a: [0, 1], b: [2, 1]}]")) == "F:1: topology.links[0].b: router 2 does not exist (2 routers)");
  CHECK(error_of(topo("links: [{a: [0, 1], b: [1]}]")) == "F:1: topology.links[0].b: expected [router, port]");
  CHECK(error_of(topo("links: [{a: [0, 1], b: [1, 1], class: terminal}]")) ==
        "F:1: topology.links[0].class: a router-to-router link needs a class other than 'terminal'");
  CHECK(error_of(topo(link + ", routes: [{router: 0, dst: 1, port: 1}]")) ==
        "F:1: topology.routes: router 1 has no route to node 0 (on the way from node 1)");
  CHECK(error_of(topo(link + ", routes: [{router: 0, dst: 1, port: 1}, {router: 1, dst: 0, port: 0}]")) ==
        "F:1: topology.routes: router 1 sends packets for node 0 to node 1 (on the way from node 1)");
  CHECK(error_of(topo(link + ", routes: [{router: 0, dst: 1, port: 1}, {router: 1, dst: 0, port: 3}]")) ==
        "F:1: topology.routes[1].port: port 3 of router 1 is not connected");
  CHECK(error_of(topo(link + ", routes: [{router: 0, dst: [1, 1], port: 1}]")) ==
        "F:1: topology.routes[0].dst: router 0 already has a route to node 1 (topology.routes[0])");
  // A link class of the file's own needs its values.
  CHECK(error_of(topo("links: [{a: [0, 1], b: [1, 1], class: slow}], routes: [{router: 0, dst: 1, port: 1}, {router: 1, dst: 0, port: 1}]")) ==
        "F: link.latency.slow: no value for link class 'slow' (explicit topology links) of topology 'explicit'");
  // A loop: router 0 sends node 1's packets to router 1, which sends them back.
  const std::string three = "topology: {type: explicit, routers: 3, nodes: [{router: 0, port: 0}, {router: 2, port: 0}], "
                            "links: [{a: [0, 1], b: [1, 1]}, {a: [1, 2], b: [2, 1]}], routes: [{router: 0, dst: 1, port: 1}, "
                            "{router: 1, dst: 1, port: 1}, {router: 1, dst: 0, port: 1}, {router: 2, dst: 0, port: 1}]}\n";
  CHECK(error_of(three + kMinimal) == "F:1: topology.routes: the route from node 0 to node 1 loops");
}
