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

// ---- hardening against bad input (issue 20) -------------------------------------------------

TEST_CASE("NaN and infinity are rejected naming file, line and key", "[config][robust]") {
  for (const char* v : {".nan", ".NaN", ".inf", "-.inf"})
    CHECK(error_of(std::string("traffic:\n  classes:\n    - name: u\n      rate: ") + v + "\n") ==
          std::string("F:4: traffic.classes[0].rate: expected a finite number, got '") + v + "'");
  CHECK(error_of(std::string("sim:\n  clock_ghz: .nan\n") + kMinimal) == "F:2: sim.clock_ghz: expected a finite number, got '.nan'");
  // Where infinity means something ("inf" for no stop), it is still accepted.
  TempConfig f("traffic:\n  classes:\n    - {name: u, stop: inf}\n");
  CHECK(ccnet::load_config(f.path(), {}).traffic.classes[0].stop == ccnet::kNever);
}

TEST_CASE("integers beyond 64 bits are out of range, not garbage", "[config][robust]") {
  CHECK(error_of(std::string("seed: 18446744073709551616\n") + kMinimal).rfind("F:1: seed: value 18446744073709551616 out of range", 0) == 0);
  CHECK(error_of(std::string("seed: -1\n") + kMinimal).rfind("F:1: seed: value -1 out of range", 0) == 0);
  TempConfig f(std::string("seed: 18446744073709551615\n") + kMinimal);
  CHECK(ccnet::load_config(f.path(), {}).seed == 18446744073709551615ull);
}

TEST_CASE("duplicate keys are rejected at the second occurrence", "[config][robust]") {
  CHECK(error_of(std::string("sim:\n  warmup: 1\n  warmup: 2\n") + kMinimal) ==
        "F:3: sim.warmup: duplicate key 'warmup' (first given on line 2)");
  CHECK(error_of(std::string("seed: 1\nseed: 1\n") + kMinimal) == "F:2: seed: duplicate key 'seed' (first given on line 1)");
  CHECK(error_of("traffic:\n  classes:\n    - {name: u, rate: 0.1, rate: 0.2}\n") ==
        "F:3: traffic.classes[0].rate: duplicate key 'rate' (first given on line 3)");
}

TEST_CASE("an empty file is flagged (every key takes its default)", "[config][robust]") {
  for (const char* text : {"", "# nothing here\n", "---\n"}) {
    TempConfig f(text);
    CHECK(ccnet::load_config(f.path(), {}).empty_file);
  }
  TempConfig g(kMinimal);
  CHECK_FALSE(ccnet::load_config(g.path(), {}).empty_file);
}

TEST_CASE("control characters in keys are escaped in messages", "[config][robust]") {
  CHECK(error_of(std::string("sim:\n  \"a\\tb\": 1\n") + kMinimal).rfind("F:2: sim.a\\x09b: unknown key 'a\\x09b'", 0) == 0);
}

TEST_CASE("alias bombs are refused, not expanded", "[config][robust]") {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  const std::string names = "abcdefghij";
  for (int j = 1; j < 8; ++j) {
    bomb += std::string(1, names[j]) + ": &" + names[j] + " [";
    for (int k = 0; k < 10; ++k) bomb += std::string(k ? ", " : "") + "*" + names[j - 1];
    bomb += "]\n";
  }
  CHECK(error_of(bomb + kMinimal).find("the document expands to more than 10^6 values") != std::string::npos);
}

TEST_CASE("topology sizes are computed in 64 bits and refused when they do not fit", "[config][robust]") {
  CHECK(error_of(std::string("topology: {type: mesh, k: 256, n: 4}\n") + kMinimal) ==
        "F:1: topology.k: a 256-ary 4-mesh has 4294967296 routers; at most 2147483647 are supported");
  // (Fat trees: "multistage topology sizes" below.) Topology errors point at their key's line.
  CHECK(error_of(std::string("topology:\n  type: dragonfly\n  p: 1\n  a: 2\n  h: 2\n  g: 4\n") + kMinimal) ==
        "F:6: topology.g: a*h = 4 global channels per group must divide evenly among the other 3 groups");
}

TEST_CASE("memory guard: refuses a network above sim.memory_limit_mb naming the key and the estimate", "[config][robust]") {
  // (An explicit limit: the default, half of the machine's memory, differs between machines.)
  const std::string m = error_of(std::string("topology: {type: dragonfly}\nrouter:\n  buffer: {global: 1048576}\n"
                                             "sim: {memory_limit_mb: 4000}\n") + kMinimal);
  CHECK(m.rfind("F:3: router.buffer.global: the network would need about 10.0 GB of memory, above the limit of 4.0 GB "
                "(sim.memory_limit_mb 4000): ", 0) == 0);
  CHECK(m.find("router input buffers on global ports: 72 ports x 4 VCs x 1048576 flits") != std::string::npos);
  CHECK(m.find("Make it smaller, or raise sim.memory_limit_mb") != std::string::npos);
  // The same network fits under a raised limit; the estimate is kept for stats.json.
  TempConfig f(std::string("topology: {type: dragonfly}\nrouter:\n  buffer: {global: 1048576}\nsim: {memory_limit_mb: 100000}\n") + kMinimal);
  const auto c = ccnet::load_config(f.path(), {});
  CHECK(c.built->memory_estimate > 9e9);
  CHECK(c.built->memory_estimate < 11e9);
  CHECK(error_of(std::string("topology: {type: mesh, k: 256}\nsim: {memory_limit_mb: 100000}\n") + kMinimal).rfind(
            "F:1: topology: the network would need about 136.5 GB of memory, above the limit of 100.0 GB (sim.memory_limit_mb "
            "100000): NIC per-destination state: 65536 nodes x 65536 destinations (136.1 GB)", 0) == 0);
}

TEST_CASE("a class whose only destination is one of its sources is rejected (it would loop forever)", "[config][robust]") {
  const std::string hot = "topology: {type: mesh, k: 4, n: 2}\ntraffic:\n  groups:\n    - {name: hot, nodes: [5]}\n  classes:\n";
  CHECK(error_of(hot + "    - {name: hs, pattern: {type: hotspot}, destinations: hot, rate: 0.1}\n") ==
        "F:6: traffic.classes[0].destinations: the only destination, node 5, is also a source of the class and would have "
        "nowhere to send; leave it out of the sources (e.g. a source group with `exclude: [<destination group>]`)");
  CHECK(error_of(hot + "    - {name: u, destinations: hot, rate: 0.1}\n").find("the only destination, node 5") != std::string::npos);
  // Sources that leave the hot node out are fine.
  TempConfig good("topology: {type: mesh, k: 4, n: 2}\ntraffic:\n  groups:\n    - {name: hot, nodes: [5]}\n"
                  "    - {name: rest, exclude: [hot]}\n  classes:\n"
                  "    - {name: hs, pattern: {type: hotspot}, sources: rest, destinations: hot, rate: 0.1}\n");
  CHECK_NOTHROW(ccnet::load_config(good.path(), {}));
}

TEST_CASE("a permutation without a map free of fixed points is rejected", "[config][robust]") {
  // 6 sources in node order fill 2 slots; both destinations (0, 2) are sources of slot 0.
  CHECK(error_of("topology: {type: mesh, k: 3, n: 1, concentration: 2}\ntraffic:\n  groups: [{name: d, nodes: [0, 2]}]\n"
                 "  classes: [{name: p, pattern: {type: permutation}, destinations: d, rate: 0.1}]\n")
            .rfind("F:4: traffic.classes[0].destinations: pattern permutation: every destination is a source that shares "
                   "its slot", 0) == 0);
  // A single destination that is not a source is a valid (if dull) permutation.
  TempConfig f("topology: {type: mesh, k: 4, n: 1}\ntraffic:\n  groups: [{name: d, nodes: [3]}, {name: s, nodes: [0, 1]}]\n"
               "  classes: [{name: p, pattern: {type: permutation}, sources: s, destinations: d, rate: 0.1}]\n");
  CHECK_NOTHROW(ccnet::load_config(f.path(), {}));
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

TEST_CASE("text that is not UTF-8 is rejected naming file, line and key", "[config][robust]") {
  // A stray byte in a value (what the fuzzer wrote into a shipped config): before, the run went
  // on and died writing stats.json with an internal JSON error.
  CHECK(error_of(std::string("sim:\n  name: ab\x87z\n") + kMinimal) ==
        "F:2: sim.name: the value is not valid UTF-8 text (byte 0x87 at offset 2)");
  CHECK(error_of("traffic:\n  classes:\n    - {name: \"u\xC3\", rate: 0.1}\n") ==
        "F:3: traffic.classes[0].name: the value is not valid UTF-8 text (byte 0xC3 at offset 1)");
  // Overlong forms, surrogates and code points above U+10FFFF are not UTF-8 either.
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80"})
    CHECK(error_of(std::string("sim:\n  name: x") + bad + "\n" + kMinimal).rfind("F:2: sim.name: the value is not valid UTF-8", 0) == 0);
  // A bad key is named by where it is, never echoed.
  CHECK(error_of(std::string("sim:\n  w\xFF: 1\n") + kMinimal) ==
        "F:2: sim: a key in sim is not valid UTF-8 text (byte 0xFF at offset 1)");
  // --set arguments.
  CHECK(error_of(kMinimal, {"sim.name=\xE2\x82"}) == "--set sim.name: the value is not valid UTF-8 text (byte 0xE2 at offset 0)");
  CHECK(error_of(kMinimal, {"sim.n\x80me=1"}) == "--set: the key path is not valid UTF-8 text (byte 0x80 at offset 5)");
  // Well-formed multi-byte text is fine.
  TempConfig ok("traffic:\n  classes:\n    - {name: \"d\xC3\xA9j\xC3\xA0 \xE2\x82\xAC \xF0\x9F\x98\x80\", rate: 0.1}\n");
  CHECK(ccnet::load_config(ok.path(), {}).traffic.classes[0].name == "d\xC3\xA9j\xC3\xA0 \xE2\x82\xAC \xF0\x9F\x98\x80");
}
