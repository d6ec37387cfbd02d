// Waveforms and packet traces (docs/tracing.md): the VCD of a traced router agrees with its
// counters and with stats.json; a window holds exactly its cycles; a watched packet reports a
// hop at every router of its route; mechanism events (ECN marks) reach the watch; option errors
// name what is wrong. One network per test case (SystemC elaborates once per process).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/watch.hpp"
#include "sim/trace.hpp"
#include "support/net_run.hpp"
#include "support/vcd.hpp"

using namespace ccnet;

namespace {

const char* kMesh = R"(
sim: {warmup: 1000, measure: 3000}
topology: {type: mesh, k: 4, n: 2}
router: {buffer: {terminal: 8, local: 8}}
nic: {max_packet: 4, acks: true}
traffic:
  classes:
    - {name: u, rate: 0.3, size: 4, stop: 5000}
)";

std::string temp_path(const std::string& stem) {
  static int n = 0;
  return (std::filesystem::temp_directory_path() /
          (stem + "_" + std::to_string(getpid()) + "_" + std::to_string(n++) + ".vcd"))
      .string();
}

// Flits written on a flit channel: a valid (packet, index) that differs from the previous
// cycle's. Consecutive flits on a link always differ, and an idle channel reads kNoPacket.
std::uint64_t count_flits(const test::Vcd& vcd, const std::string& channel) {
  const auto& packet = vcd[channel + ".packet"];
  const auto& index = vcd[channel + ".index"];
  std::set<std::uint64_t> times;
  for (const auto& c : packet.changes) times.insert(c.first);
  for (const auto& c : index.changes) times.insert(c.first);
  std::uint64_t n = 0, last_p = ~0ull, last_i = ~0ull;
  for (const auto t : times) {
    const std::uint64_t p = packet.at(t), i = index.at(t);
    if ((p != last_p || i != last_i) && p != kNoPacket) ++n;
    last_p = p;
    last_i = i;
  }
  return n;
}

std::uint64_t max_value(const test::VcdSignal& s) {
  std::uint64_t m = 0;
  for (const auto& c : s.changes) m = std::max(m, c.second);
  return m;
}

struct Line {
  Cycle cycle = 0;
  std::string component, event, packet, kind;
  std::map<std::string, std::string> kv;
};

std::vector<Line> parse_watch(const std::string& text) {
  std::vector<Line> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    Line l;
    ls >> l.cycle >> l.component >> l.event >> l.packet >> l.kind;
    std::string tok;
    while (ls >> tok) {
      const auto eq = tok.find('=');
      if (eq != std::string::npos) l.kv[tok.substr(0, eq)] = tok.substr(eq + 1);
    }
    out.push_back(l);
  }
  return out;
}

std::uint64_t num(const Line& l, const std::string& key) {
  const auto it = l.kv.find(key);
  if (it == l.kv.end()) FAIL("watch line without " << key << ": " << l.component << " " << l.event);
  return std::stoull(it->second);
}

}  // namespace

TEST_CASE("trace: the VCD of a traced router agrees with its flit counters and stats.json", "[trace]") {
  const std::string path = temp_path("trace_router");
  auto net = test::build_network(kMesh);
  TraceOptions o;
  o.file = path;
  o.scopes = {"net.router_5"};
  NetworkTrace trace(*net, o);
  REQUIRE(trace.components() == std::vector<std::string>{"net.router_5"});
  RunOptions ro;
  ro.observers.push_back(&trace);
  const RunResult res = run_network(*net, ro);
  REQUIRE(res.stats["quiescent_checked"].get<bool>());
  const test::Vcd vcd = test::read_vcd(path);
  std::filesystem::remove(path);

  CHECK(vcd.timescale == "1 ns");  // one VCD time unit per cycle at 1 GHz
  CHECK(vcd.first_time == 0);
  CHECK(vcd.last_time == res.stats["cycles_total"].get<std::uint64_t>());
  // 20 channels (flit and credit, in and out, 5 ports) each appear as 5 fields.
  CHECK(vcd.signals.size() == trace.signal_count() + 20 * 4);
  for (const auto& [name, sig] : vcd.signals) REQUIRE(name.rfind("net.router_5.", 0) == 0);

  const Router& r = *net->routers()[5];
  const Json& channels = res.stats["trace"]["channels"];
  std::uint64_t total = 0;
  for (PortId p = 0; p < r.num_ports(); ++p) {
    const std::string out = "net.router_5.out_" + std::to_string(p);
    INFO(out);
    REQUIRE(vcd.has(out + ".flit.packet"));  // router 5 of a 4x4 mesh has all 5 ports connected
    const std::uint64_t flits = count_flits(vcd, out + ".flit");
    CHECK(flits == r.counters().flits_out[p]);
    CHECK(flits == channels[out]["flits"].get<std::uint64_t>());
    CHECK(vcd[out + ".flits"].changes.back().second == r.counters().flits_out[p]);
    // Credits never exceed the downstream buffer (full again at the quiescent end); input
    // buffers never exceed their depth.
    for (VcId v = 0; v < r.num_vcs(); ++v) {
      const std::string vc = std::to_string(v);
      const std::uint64_t depth = r.credits(p, v);
      CHECK(depth == (p == 0 ? 16u : 8u));  // port 0: the NIC's ejection buffer (nic.ejection_buffer)
      CHECK(max_value(vcd[out + ".vc_" + vc + ".credits"]) <= depth);
      CHECK(vcd[out + ".vc_" + vc + ".credits"].changes.back().second == depth);
      CHECK(max_value(vcd["net.router_5.in_" + std::to_string(p) + ".vc_" + vc + ".occupancy"]) <= 8);
    }
    CHECK(max_value(vcd[out + ".sa_requests"]) >= 1);
    total += flits;
  }
  CHECK(total > 1000);
  // Flits in equal flits out over the whole (drained) run.
  std::uint64_t in = 0;
  for (PortId p = 0; p < r.num_ports(); ++p) in += count_flits(vcd, "net.router_5.in_" + std::to_string(p) + ".flit");
  CHECK(in == total);
}

TEST_CASE("trace: a window holds exactly its cycles, for the selected signals only", "[trace]") {
  const std::string path = temp_path("trace_window");
  auto net = test::build_network(kMesh);
  TraceOptions o;
  o.file = path;
  o.scopes = {"net.router_5.out_1", "nic_5"};  // a scope inside a router; a name without "net."
  o.start = 2000;
  o.end = 2500;
  NetworkTrace trace(*net, o);
  REQUIRE(trace.components() == std::vector<std::string>{"net.router_5", "net.nic_5"});
  RunOptions ro;
  ro.observers.push_back(&trace);
  const RunResult res = run_network(*net, ro);
  const test::Vcd vcd = test::read_vcd(path);
  std::filesystem::remove(path);

  CHECK(vcd.first_time == 2000);
  CHECK(vcd.last_time == 2500);  // the closing time stamp: the window is [2000, 2500)
  for (const auto& [name, sig] : vcd.signals) {
    INFO(name);
    CHECK((name.rfind("net.router_5.out_1.", 0) == 0 || name.rfind("net.nic_5.", 0) == 0));
    for (const auto& c : sig.changes) REQUIRE((c.first >= 2000 && c.first <= 2500));
  }
  const Json& t = res.stats["trace"];
  CHECK(t["window"]["start"] == 2000);
  CHECK(t["window"]["end"] == 2500);
  const std::uint64_t out1 = count_flits(vcd, "net.router_5.out_1.flit");
  const std::uint64_t inject = count_flits(vcd, "net.nic_5.inject.flit");
  CHECK(out1 == t["channels"]["net.router_5.out_1"]["flits"].get<std::uint64_t>());
  CHECK(inject == t["channels"]["net.nic_5.inject"]["flits"].get<std::uint64_t>());
  CHECK(out1 > 20);
  CHECK(inject > 20);
  CHECK(out1 < net->routers()[5]->counters().flits_out[1]);  // only the window's share
  // The NIC's injection credits and the flits it sends agree: never below 0, never above depth.
  CHECK(max_value(vcd["net.nic_5.inject.vc_0.credits"]) <= 8);
}

TEST_CASE("watch: a watched packet reports a hop at every router of its route", "[trace]") {
  auto net = test::build_network(kMesh);
  WatchSelection sel;
  for (const char* f : {"0:15", "15:0", "3:12", "6:9"}) sel.flows.push_back(parse_watch_flow(f));
  sel.packets.push_back(parse_watch_packet("7.2"));
  sel.packets.push_back(parse_watch_packet("7.999999"));  // beyond this run's messages
  PacketWatch watch(sel, net->topology().num_nodes());
  std::ostringstream log;
  watch.add_sink(log);
  net->packets().set_watch(&watch);
  run_network(*net, RunOptions{});
  const auto lines = parse_watch(log.str());
  REQUIRE(watch.events() == lines.size());

  const Topology& topo = net->topology();
  std::map<std::string, std::vector<Line>> data;  // packet name -> its data-packet events
  for (const auto& l : lines)
    if (l.kind == "data") data[l.packet].push_back(l);
  REQUIRE(data.size() == watch.packets_watched());
  REQUIRE(data.size() > 20);
  CHECK(data.count("7.2.0") == 1);
  for (const auto& [name, ev] : data) {
    INFO("packet " << name);
    REQUIRE(ev.size() >= 4);
    REQUIRE(ev.front().event == "created");
    const NodeId src = static_cast<NodeId>(num(ev.front(), "src")), dst = static_cast<NodeId>(num(ev.front(), "dst"));
    CHECK(ev.front().component == "net.nic_" + std::to_string(src));
    REQUIRE(ev[1].event == "injected");
    REQUIRE(ev.back().event == "ejected");
    CHECK(ev.back().component == "net.nic_" + std::to_string(dst));
    // Walk the route through the topology: each hop leaves on a port that leads to the next.
    auto [router, port] = topo.attach(src);
    Cycle due = ev[1].cycle + 1;  // link latency 1
    std::size_t hops = 0;
    bool delivered = false;
    for (std::size_t i = 2; i + 1 < ev.size(); ++i) {
      const Line& h = ev[i];
      REQUIRE(h.event == "hop");
      REQUIRE(!delivered);
      CHECK(h.component == "net.router_" + std::to_string(router));
      CHECK(num(h, "in") == port);
      CHECK(num(h, "arrived") == due);
      CHECK(num(h, "arrived") <= num(h, "vc_granted"));
      CHECK(num(h, "vc_granted") < num(h, "sw_granted"));
      CHECK(num(h, "sw_granted") < num(h, "departed"));
      CHECK(num(h, "departed") == h.cycle);
      ++hops;
      const PortPeer peer = topo.peer(router, static_cast<PortId>(num(h, "out")));
      if (peer.kind == PortPeer::Kind::Node) {
        CHECK(peer.node == dst);
        delivered = true;
      } else {
        REQUIRE(peer.kind == PortPeer::Kind::Router);
        router = peer.router;
        port = peer.port;
      }
      due = h.cycle + 1;
    }
    CHECK(delivered);
    CHECK(hops == topo.min_hops(src, dst) + 1);  // DOR is minimal: every router on the route
    CHECK(ev.back().cycle >= due);
    CHECK(num(ev.back(), "hops") == topo.min_hops(src, dst));
  }
  // ACKs of watched packets are watched too, under the data packet's name.
  std::size_t acks = 0;
  for (const auto& l : lines)
    if (l.kind == "ack" && l.event == "ejected") {
      ++acks;
      CHECK(data.count(l.packet) == 1);
    }
  CHECK(acks == data.size());
  const auto unmatched = watch.unmatched();
  REQUIRE(unmatched.size() == 1);
  CHECK(unmatched[0].find("--watch-packet 7.999999") == 0);
  CHECK(unmatched[0].find("node 7 formed packets of messages 0..") != std::string::npos);
}

TEST_CASE("watch and trace: ECN marks reach the packet watch and the waveform", "[trace]") {
  auto net = test::build_network(R"(
sim: {warmup: 2000, measure: 3000}
topology: {type: mesh, k: 4, n: 2}
router: {buffer: {terminal: 8, local: 8}}
nic: {max_packet: 4, acks: true}
cc: {mechanism: ecn, threshold: 0.5}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: senders, nodes: [0, 2, 3, 8, 10, 12, 13, 15]}
  classes:
    - {name: h, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.4, size: 4, stop: 5000}
)");
  const std::string path = temp_path("trace_ecn");
  TraceOptions o;
  o.file = path;
  o.scopes = {"net.router_5"};
  NetworkTrace trace(*net, o);
  WatchSelection sel;
  sel.flows.push_back(parse_watch_flow("0:5"));
  PacketWatch watch(sel, net->topology().num_nodes());
  std::ostringstream log;
  watch.add_sink(log);
  net->packets().set_watch(&watch);
  RunOptions ro;
  ro.observers.push_back(&trace);
  const RunResult res = run_network(*net, ro);
  const auto lines = parse_watch(log.str());
  std::set<std::string> marked, fecn;
  for (const auto& l : lines) {
    if (l.event == "ecn_mark") {
      CHECK(l.kind == "data");
      CHECK(l.component.rfind("net.router_", 0) == 0);
      marked.insert(l.packet);
    }
    if (l.event == "ejected" && l.kind == "data" && l.kv.count("fecn")) fecn.insert(l.packet);
  }
  CHECK(!marked.empty());
  CHECK(marked == fecn);  // every marked packet arrives marked, and only those
  const test::Vcd vcd = test::read_vcd(path);
  std::filesystem::remove(path);
  const auto& marks = vcd["net.router_5.ecn.marks"];
  REQUIRE(!marks.changes.empty());
  CHECK(marks.changes.back().second > 0);
  for (std::size_t i = 1; i < marks.changes.size(); ++i) CHECK(marks.changes[i].second > marks.changes[i - 1].second);
  CHECK(res.stats["cc"]["becn_notifications"].get<std::uint64_t>() > 0);
}

TEST_CASE("watch: LHRP drops, NACKs and retransmissions of a watched flow", "[trace]") {
  auto net = test::build_network(R"(
sim: {warmup: 2000, measure: 4000, drain_limit: 300000}
topology: {type: mesh, k: 4, n: 2}
router: {vcs_per_level: 2, voq: true, speedup: 2, output_buffer: 16, buffer: {terminal: 16, local: 16}}
nic: {max_packet: 4}
cc: {mechanism: lhrp, threshold: 16}
traffic:
  groups:
    - {name: hot, nodes: [5]}
    - {name: senders, nodes: [0, 2, 8, 10, 12, 15]}
  classes:
    - {name: h, pattern: {type: hotspot}, sources: senders, destinations: hot, rate: 0.3, size: 4, stop: 6000}
)");
  WatchSelection sel;
  sel.flows.push_back(parse_watch_flow("0:5"));
  PacketWatch watch(sel, net->topology().num_nodes());
  std::ostringstream log;
  watch.add_sink(log);
  net->packets().set_watch(&watch);
  const RunResult res = run_network(*net, RunOptions{});
  REQUIRE(res.stats["quiescent_checked"].get<bool>());
  std::map<std::string, std::vector<Line>> by_packet;
  for (const auto& l : parse_watch(log.str())) by_packet[l.packet].push_back(l);
  std::size_t drops = 0;
  for (const auto& [name, ev] : by_packet) {
    INFO("packet " << name);
    std::size_t d = 0, nack_created = 0, nack_ejected = 0, retx = 0, delivered = 0;
    for (const auto& l : ev) {
      if (l.kind == "data" && l.event == "drop") {
        ++d;
        CHECK(l.component == "net.router_5");  // LHRP drops at the last hop only
      }
      if (l.kind == "nack" && l.event == "created") {
        ++nack_created;
        CHECK(l.component == "net.router_5");  // the switch that dropped it answers
      }
      if (l.kind == "nack" && l.event == "ejected") {
        ++nack_ejected;
        CHECK(l.component == "net.nic_0");
      }
      if (l.kind == "data" && l.event == "retransmitted") ++retx;
      if (l.kind == "data" && l.event == "ejected") ++delivered;
    }
    CHECK(nack_created == d);
    CHECK(nack_ejected == d);
    CHECK(retx == d);
    CHECK(delivered == 1);  // exactly once, however often it was dropped
    drops += d;
  }
  CHECK(drops > 0);
  CHECK(by_packet.size() == watch.packets_watched());
}

TEST_CASE("trace and watch options: errors name what is wrong", "[trace]") {
  Cycle a = 0, b = 0;
  parse_trace_window("100:200", a, b);
  CHECK((a == 100 && b == 200));
  parse_trace_window("300:", a, b);
  CHECK((a == 300 && b == kNever));
  parse_trace_window(":50", a, b);
  CHECK((a == 0 && b == 50));
  CHECK_THROWS_WITH(parse_trace_window("200:100", a, b), Catch::Contains("window is empty"));
  CHECK_THROWS_WITH(parse_trace_window("5", a, b), Catch::Contains("expected START:END"));
  CHECK_THROWS_WITH(parse_trace_window("1k:2k", a, b), Catch::Contains("expected START:END"));
  CHECK_THROWS_WITH(parse_trace_window(":", a, b), Catch::Contains("expected START:END"));
  CHECK_THROWS_WITH(parse_watch_packet("3"), Catch::Contains("expected SRC.MSG or SRC.MSG.SEQ"));
  CHECK_THROWS_WITH(parse_watch_packet("3.x"), Catch::Contains("expected SRC.MSG"));
  CHECK(parse_watch_packet("3.17").seq == -1);
  CHECK(parse_watch_packet("3.17.2").seq == 2);
  CHECK_THROWS_WITH(parse_watch_flow("3-4"), Catch::Contains("expected SRC:DST"));

  auto net = test::build_network(kMesh);
  auto scope_error = [&](const std::string& pattern) {
    TraceOptions o;
    o.file = temp_path("never_written");
    o.scopes = {pattern};
    try {
      NetworkTrace t(*net, o);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(scope_error("net.routr_3"), Catch::Contains("'net.routr_3' matches no component or signal") &&
                                             Catch::Contains("net.router_0 .. net.router_15"));
  CHECK_THAT(scope_error("net.router_3.out_9*"), Catch::Contains("matches no component or signal"));
  CHECK_THAT(scope_error("router_[3"), Catch::Contains("unbalanced '['"));
  CHECK(scope_error("router_1*") == "no error");
  {
    TraceOptions o;
    o.file = temp_path("never_written");
    o.scopes = {"net.router_1*", "*.nic_2"};
    NetworkTrace t(*net, o);
    // router_1 and router_10..15, nic_2
    CHECK(t.components().size() == 8);
    CHECK(!t.opened());
  }
  WatchSelection sel;
  sel.packets.push_back(parse_watch_packet("16.0"));
  CHECK_THROWS_WITH(PacketWatch(sel, 16), Catch::Contains("node 16 does not exist (the network has nodes 0..15)"));
  WatchSelection self;
  self.flows.push_back(parse_watch_flow("4:4"));
  CHECK_THROWS_WITH(PacketWatch(self, 16), Catch::Contains("sends no packets to itself"));
}
