// Paper 004 (SAA with adaptive path setup) alone: the Theorem 1 golden model on the Fig. 1 toy
// (R1) and on random routed flow sets (R2), the distributed SAA on a chain of fake routers (R3:
// one probe after all announcements returns the golden W_f exactly; announce-end brings every
// W_l back to 0), the adaptive port selector and per-input-port flow tables on a fat-tree leaf,
// and the source's periodic-selection pacer (docs/mechanisms/saa.md).
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "cc/saa/saa.hpp"
#include "support/fake_api.hpp"
#include "topology/multistage.hpp"

using namespace ccnet;
using test::kind;

namespace {

Packet& control(PacketPool& pool, PacketKind k, MessageId flow, std::uint64_t w) {
  Packet& p = pool.allocate();
  p.kind = k;
  p.message = flow;
  p.size = 1;
  p.payload[0] = w;
  return p;
}

Packet& data(PacketPool& pool, MessageId flow) {
  Packet& p = pool.allocate();
  p.kind = PacketKind::Data;
  p.message = flow;
  p.size = 4;
  return p;
}

// A counter's value over several routers' sets (merged as the network merges them).
std::uint64_t value(const std::vector<std::unique_ptr<CounterSet>>& sets, const std::string& name) {
  std::uint64_t v = 0;
  bool found = false;
  for (const auto& set : sets)
    for (const auto& c : set->counters())
      if (c->name == name) {
        v = c->merge == CounterSet::Merge::Max ? std::max(v, c->value) : v + c->value;
        found = true;
      }
  if (!found) throw std::invalid_argument("no counter " + name);
  return v;
}

// A source NIC (node 0 of 4) under SAA with its hooks and PS pacer, and the setup return that
// releases one of its flows: what the pacing tests start from.
struct PacedSource {
  explicit PacedSource(const std::string& cc) : mech(net.make(cc)), nic(net.packets, 0, 4) {
    nic.vnets = mech.mechanism.get();
    hooks = mech->nic_hooks(nic, counters);
    ps = hooks->injection_policy();
  }
  // `flow`'s setup returning from node `from` with W_f = `wf`.
  void answer(NodeId from, MessageId flow, std::uint64_t wf) {
    Packet& r = net.packets.allocate();
    r.kind = kind(net.packets, "setup_return");
    r.src = from;
    r.dst = 0;
    r.message = flow;
    r.payload[1] = wf;
    hooks->on_control(nic, r);
  }
  test::FakeNetwork net{4, false};
  test::MadeMechanism mech;
  test::FakeNic nic;
  CounterSet counters;
  std::unique_ptr<NicHooks> hooks;
  InjectionPolicy* ps = nullptr;
};

}  // namespace

TEST_CASE("SAA golden model, Fig. 1 toy (R1): W = 4 flows' worth, every rate 1/4", "[saa]") {
  // Links: 0 = sw1->sw2 (the victim), 1 = sw2->d2 (the root), 2 = sw2->d1, 3..8 = the six sources'
  // injection links. f1, f2: sw1->sw2->d1; f3, f4: sw1->sw2->d2; f5, f6: enter sw2, to d2. Each
  // flow needs 1 ms at line rate (1000 units).
  std::vector<saa::FluidFlow> flows = {{1000, {3, 0, 2}}, {1000, {4, 0, 2}}, {1000, {5, 0, 1}},
                                       {1000, {6, 0, 1}}, {1000, {7, 1}},    {1000, {8, 1}}};
  const auto r = saa::fluid_optimum(flows, 9);
  CHECK(r.link_weight[0] == 4000);
  CHECK(r.link_weight[1] == 4000);
  CHECK(r.link_weight[2] == 2000);
  CHECK(r.W == 4000);  // 4 ms: the optimum the paper states (NC: 5 ms)
  for (std::size_t f = 0; f < flows.size(); ++f) {
    CHECK(r.flow_weight[f] == 4000);
    CHECK(r.rate[f] == 0.25);  // "rate 1/4 for every flow"
  }
  // Under these rates the victim link carries 4 x 1/4 = 1 (not NC's 2/3) and every flow ends at 4.
  double victim = 0;
  for (std::size_t f = 0; f < 4; ++f) victim += r.rate[f];
  CHECK(victim == 1.0);
}

TEST_CASE("SAA golden model (R2, Theorem 1): feasible, every flow ends by W_f <= W, a link at load 1", "[saa]") {
  std::mt19937 gen(4);
  auto rng = [&gen] { return static_cast<std::uint32_t>(gen()); };
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint32_t links = 2 + rng() % 30, nflows = 1 + rng() % 40;
    std::vector<saa::FluidFlow> flows(nflows);
    for (auto& f : flows) {
      f.weight = 1 + rng() % 5000;
      const std::uint32_t hops = 1 + rng() % 6;
      for (std::uint32_t h = 0; h < hops; ++h) {
        const std::uint32_t l = rng() % links;
        if (std::find(f.links.begin(), f.links.end(), l) == f.links.end()) f.links.push_back(l);
      }
    }
    const auto r = saa::fluid_optimum(flows, links);
    std::vector<double> load(links, 0.0);
    bool saturated = false;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      REQUIRE(r.flow_weight[i] <= r.W);
      // The flow's completion w_f / r_f is exactly W_f.
      CHECK(static_cast<double>(flows[i].weight) / r.rate[i] == Approx(static_cast<double>(r.flow_weight[i])));
      for (std::uint32_t l : flows[i].links) load[l] += r.rate[i];
    }
    for (std::uint32_t l = 0; l < links; ++l) {
      REQUIRE(load[l] <= 1.0 + 1e-12);
      if (r.link_weight[l] == r.W && load[l] > 1.0 - 1e-12) saturated = true;
    }
    CHECK(saturated);  // the link of weight W is busy all the time: no schedule ends before W
  }
}

TEST_CASE("Distributed SAA (R3): after all announcements one probe returns the golden W_f, and announce-end zeroes W_l", "[saa]") {
  // Five fake routers of 4 ports; a flow's path is a list of (router, input, output) hops. The
  // static preset (`saa`) follows the default route, which the test sets per hop.
  test::FakeNetwork net(4, false);
  auto mech = net.make("{mechanism: saa}");
  constexpr int kRouters = 5;
  std::vector<std::unique_ptr<test::FakeRouter>> routers;
  std::vector<std::unique_ptr<RouterHooks>> hooks;
  std::vector<std::unique_ptr<CounterSet>> counters;
  for (int i = 0; i < kRouters; ++i) {
    routers.push_back(std::make_unique<test::FakeRouter>(net.packets, net.topology, 4, 16, 2));
    counters.push_back(std::make_unique<CounterSet>());
    hooks.push_back(mech->router_hooks(*routers.back(), *counters.back()));
    REQUIRE(hooks.back());
  }
  const PacketKind setup = kind(net.packets, "setup"), probe = kind(net.packets, "probe"),
                   teardown = kind(net.packets, "teardown");
  struct Hop {
    int router;
    PortId in, out;
  };
  std::mt19937 gen(7);
  auto rng = [&gen] { return static_cast<std::uint32_t>(gen()); };
  std::vector<std::vector<Hop>> paths;
  std::vector<saa::FluidFlow> golden;
  for (int f = 0; f < 24; ++f) {
    std::vector<Hop> path;
    saa::FluidFlow g;
    g.weight = 1 + rng() % 1000;
    for (int r = static_cast<int>(rng() % 2); r < kRouters; r += 1 + static_cast<int>(rng() % 2)) {
      const Hop h{r, static_cast<PortId>(rng() % 4), static_cast<PortId>(rng() % 4)};
      path.push_back(h);
      g.links.push_back(static_cast<std::uint32_t>(4 * h.router + h.out));  // link = (router, output)
    }
    paths.push_back(path);
    golden.push_back(g);
  }
  const auto want = saa::fluid_optimum(golden, 4 * kRouters);
  auto walk = [&](Packet& p, std::size_t f) {
    for (const Hop& h : paths[f]) {
      routers[h.router]->route_result = {h.out, 0};
      const RouteResult r = hooks[h.router]->route(*routers[h.router], p, h.in);
      CHECK(r.port == h.out);
    }
  };
  // Announce-starts (merged with the setups) in order: early flows see partial sums.
  std::vector<std::uint64_t> at_start;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    Packet& s = control(net.packets, setup, 100 + f, golden[f].weight);
    walk(s, f);
    CHECK(s.payload[1] <= want.flow_weight[f]);
    at_start.push_back(s.payload[1]);
  }
  CHECK(at_start.back() == want.flow_weight.back());  // the last announcer already sees its exact W_f
  // One probe each, after all announcements: exact.
  for (std::size_t f = 0; f < paths.size(); ++f) {
    Packet& p = control(net.packets, probe, 100 + f, golden[f].weight);
    walk(p, f);
    CHECK(p.payload[1] == want.flow_weight[f]);
  }
  CHECK(value(counters, "w_peak") <= want.W);
  CHECK(value(counters, "w_live") > 0);
  std::uint64_t hops = 0;
  for (const auto& path : paths) hops += path.size();
  CHECK(value(counters, "prc_live") == hops);  // one table entry per hop
  // Data follow the recorded circuit even when the default route changes.
  for (std::size_t f = 0; f < paths.size(); ++f) {
    Packet& d = data(net.packets, 100 + f);
    for (const Hop& h : paths[f]) {
      routers[h.router]->route_result = {static_cast<PortId>((h.out + 1) % 4), 0};
      CHECK(hooks[h.router]->route(*routers[h.router], d, h.in).port == h.out);
    }
  }
  CHECK(value(counters, "circuit_misses") == 0);
  // Announce-ends (merged with the teardowns), in another order: every W_l and table back to 0.
  for (std::size_t i = paths.size(); i-- > 0;) {
    Packet& t = control(net.packets, teardown, 100 + i, golden[i].weight);
    walk(t, i);
  }
  CHECK(value(counters, "w_live") == 0);
  CHECK(value(counters, "prc_live") == 0);
  // A second announce-end would make a W_l negative: a model error, not a silent wrap.
  Packet& again = control(net.packets, teardown, 100, golden[0].weight);
  routers[paths[0][0].router]->route_result = {paths[0][0].out, 0};
  CHECK_THROWS_WITH(hooks[paths[0][0].router]->route(*routers[paths[0][0].router], again, paths[0][0].in),
                    Catch::Contains("W_l negative"));
}

TEST_CASE("Adaptive path setup: the up port with the fewest flows, recorded per input port, and teardown frees it", "[saa]") {
  // Leaf router 0 of a 2-ary 2-tree: ports 0, 1 to nodes 0, 1; ports 2, 3 up.
  MultistageTopology::Shape shape;
  shape.type = "fattree";
  shape.k = 2;
  shape.n = 2;
  MultistageTopology tree(shape);
  PacketPool pool;
  RouterConfig rc;
  LinkConfig link;
  LinkConfig::schema().apply_defaults(&link);
  NicConfig nic;
  NicConfig::schema().apply_defaults(&nic);
  auto mech = test::make_mechanism("{mechanism: ar}", MechanismContext{tree, rc, 1, false, pool.format(), link, nic});
  test::FakeRouter router(pool, tree, 4, 16, 2);
  std::vector<std::unique_ptr<CounterSet>> counters;
  counters.push_back(std::make_unique<CounterSet>());
  auto hooks = mech->router_hooks(router, *counters[0]);
  REQUIRE(hooks);
  const PacketKind setup = kind(pool, "setup"), teardown = kind(pool, "teardown");
  router.route_result = {2, 0};  // the static default: up port 2
  // Flow 1 from node 0: both up ports carry no flow, the default wins the tie.
  CHECK(hooks->route(router, control(pool, setup, 1, 50), 0).port == 2);
  // Flow 2 from node 1: port 2 carries one flow, port 3 none.
  CHECK(hooks->route(router, control(pool, setup, 2, 50), 1).port == 3);
  // Flow 3 from node 0: one each, the default wins.
  CHECK(hooks->route(router, control(pool, setup, 3, 50), 0).port == 2);
  CHECK(value(counters, "setups_off_default") == 1);
  CHECK(value(counters, "prc_live") == 3);
  // Data of flow 2 follow its circuit; at its input port only: the tables are per input port.
  CHECK(hooks->route(router, data(pool, 2), 1).port == 3);
  CHECK(hooks->route(router, data(pool, 2), 0).port == 2);  // no entry at input 0: the default
  CHECK(value(counters, "circuit_misses") == 1);
  // Teardown follows the circuit and frees it; the next flow from node 1 sees port 3 empty again.
  CHECK(hooks->route(router, control(pool, teardown, 2, 50), 1).port == 3);
  CHECK(value(counters, "prc_live") == 2);
  CHECK(hooks->route(router, control(pool, setup, 4, 50), 1).port == 3);
  // A full table (prc_entries: 1): the default port and no entry.
  PacketPool pool2;
  auto small = test::make_mechanism("{mechanism: ar, prc_entries: 1}", MechanismContext{tree, rc, 1, false, pool2.format(), link, nic});
  std::vector<std::unique_ptr<CounterSet>> c2;
  c2.push_back(std::make_unique<CounterSet>());
  auto h2 = small->router_hooks(router, *c2[0]);
  CHECK(h2->route(router, control(pool, setup, 10, 50), 0).port == 2);
  CHECK(h2->route(router, control(pool, setup, 11, 50), 0).port == 2);  // port 3 is emptier, but the table is full
  CHECK(value(c2, "prc_full") == 1);
  // Adaptive setup needs a multistage topology.
  test::FakeNetwork flat(4, false);
  CHECK_THROWS_WITH(flat.make("{mechanism: saa_ar}"), Catch::Contains("cc.adaptive"));
  // So do limited flow tables: a flow without an entry must be pinned to one path.
  CHECK_THROWS_WITH(flat.make("{mechanism: saa, prc_entries: 2}"), Catch::Contains("cc.prc_entries"));
  CHECK_NOTHROW(flat.make("{mechanism: saa}"));
}

TEST_CASE("SAA source: setup before data, rate w_f / W_f, PS pacing one packet per d_p / R, least D/r first (float and fixed point)", "[saa]") {
  // The rates here (1/2, 1/4, R = 3/4) are exact in Q16, so both arithmetics give the same schedule.
  for (const char* arith : {"float", "fixed"}) {
    INFO(arith);
    PacedSource src(std::string("{mechanism: saa, probe_stable: 0, ps_arith: ") + arith + "}");
    test::FakeNic& nic = src.nic;
    auto& hooks = src.hooks;
    InjectionPolicy* ps = src.ps;
    REQUIRE(ps);
    const PacketKind setup = kind(src.net.packets, "setup");
    // Two flows posted together: to node 1 (200 flits) and node 2 (100 flits).
    hooks->on_message(nic, MessageInfo{11, 1, 200, 25, 0, 0}, true);
    hooks->on_message(nic, MessageInfo{12, 2, 100, 13, 0, 0}, true);
    CHECK(nic.holds.at(1) == kNever);  // no data before the setup returns
    CHECK(nic.holds.at(2) == kNever);
    hooks->tick(nic);
    REQUIRE(nic.sent.size() == 2);
    CHECK(nic.sent_packet(0).kind == setup);
    CHECK(nic.sent_packet(0).payload[0] == 200);
    CHECK(nic.sent_packet(0).payload[1] == 300);  // the injection link's W_l: both flows announced
    CHECK(nic.sent_packet(0).vnet == 1);          // control vnet
    // Both return with W_f = 400: rates 1/2 and 1/4, R = 3/4.
    src.answer(1, 11, 400);
    src.answer(2, 12, 400);
    CHECK(nic.holds.at(1) == nic.cycle);  // released
    CHECK(nic.holds.at(2) == nic.cycle);
    ps->set_ready(1, true);
    ps->set_ready(2, true);
    // 3-flit packets: one every 3 / (3/4) = 4 cycles; flow 1 twice as often as flow 2.
    std::map<int, int> count;
    std::vector<Cycle> at;
    for (Cycle t = 0; t < 120; ++t) {
      const int g = ps->pick(t);
      if (g >= 0) {
        ++count[g];
        at.push_back(t);
      }
      ps->commit(t, g, 3);
    }
    REQUIRE(at.size() == 30);
    for (std::size_t i = 1; i < at.size(); ++i) CHECK(at[i] - at[i - 1] == 4);
    CHECK(count[1] == 20);
    CHECK(count[2] == 10);
    // After a stall the period restarts from the actual send, without catching up.
    CHECK(ps->pick(130) >= 0);
    ps->commit(130, ps->pick(130), 3);
    CHECK(ps->pick(133) < 0);
    CHECK(ps->pick(134) >= 0);
  }
}

TEST_CASE("PS pacing in fixed point: a rate not exact in Q16 never sends early and drifts by at most a cycle", "[saa]") {
  // One flow of rate 1/3 (W_f = 3 w_f), 1-flit packets: float sends every 3 cycles; fixed point
  // rounds the rate to 21845 / 65536 and the period up (196612 / 65536 cycles), so 1000 packets
  // end at most one cycle later, never earlier.
  std::map<std::string, std::vector<Cycle>> at;
  for (const char* arith : {"float", "fixed"}) {
    PacedSource src(std::string("{mechanism: saa, probe_stable: 0, ps_arith: ") + arith + "}");
    InjectionPolicy* ps = src.ps;
    REQUIRE(ps);
    src.hooks->on_message(src.nic, MessageInfo{11, 1, 1000, 1000, 0, 0}, true);
    src.hooks->tick(src.nic);
    src.answer(1, 11, 3000);
    ps->set_ready(1, true);
    for (Cycle t = 0; at[arith].size() < 1000; ++t) {
      const int g = ps->pick(t);
      if (g >= 0) at[arith].push_back(t);
      ps->commit(t, g, 1);
    }
  }
  for (std::size_t i = 0; i < 1000; ++i) {
    CHECK(at["float"][i] == 3 * i);
    CHECK(at["fixed"][i] == (i * 196612 + 65535) / 65536);  // ceil(i x the Q16 period), on time
    CHECK(at["fixed"][i] >= at["float"][i]);
    CHECK(at["fixed"][i] <= at["float"][i] + 1);
  }
}

TEST_CASE("PS pacing: a flow whose setup returns late joins at the least virtual time (ps_start: join)", "[saa]") {
  // Two flows of rate 1/2 each; flow 2's setup returns 40 cycles after flow 1's. With join it
  // sends at its share from then on (every other packet); with zero (V from 0) it takes every
  // packet of the source until its V catches up with flow 1's.
  for (const bool join : {true, false}) {
    PacedSource src(join ? "{mechanism: saa, probe_stable: 0}" : "{mechanism: saa, probe_stable: 0, ps_start: zero}");
    InjectionPolicy* ps = src.ps;
    REQUIRE(ps);
    src.hooks->on_message(src.nic, MessageInfo{11, 1, 400, 100, 0, 0}, true);
    src.hooks->on_message(src.nic, MessageInfo{12, 2, 400, 100, 0, 0}, true);
    src.hooks->tick(src.nic);
    src.answer(1, 11, 800);  // W_f = 800: rate 1/2 each
    ps->set_ready(1, true);
    std::vector<int> order;
    for (Cycle t = 0; t < 120; ++t) {
      if (t == 40) {
        src.answer(2, 12, 800);
        ps->set_ready(2, true);
      }
      const int g = ps->pick(t);
      if (t >= 40 && g >= 0) order.push_back(g);
      ps->commit(t, g, 4);
    }
    REQUIRE(order.size() >= 8);
    if (join) {
      for (std::size_t i = 0; i + 1 < order.size(); ++i) CHECK(order[i] != order[i + 1]);  // alternating
    } else {
      // Flow 1 alone sent 5 packets at rate 1/2 (V = 40, at 0..32 every 8 cycles, next_ at 40):
      // flow 2 (V = 0) takes the next 5 in a row.
      CHECK(std::vector<int>(order.begin(), order.begin() + 5) == std::vector<int>(5, 2));
    }
  }
}

TEST_CASE("PS pacing with the RTL's iterative dividers: no grant while they run, the same send times otherwise",
          "[saa]") {
  // One flow at line rate (W_f = w_f). 1-flit packets: the one-cycle pacer sends every cycle;
  // ps_div_bits: 4 (ceil(48 / 4) = 12 cycles a send) every 12th. 12-flit packets: both every 12.
  for (const std::uint32_t len : {1u, 12u}) {
    std::map<std::string, std::vector<Cycle>> at;
    for (const char* bits : {"0", "4"}) {
      PacedSource src(std::string("{mechanism: saa, probe_stable: 0, ps_arith: fixed, ps_div_bits: ") + bits + "}");
      InjectionPolicy* ps = src.ps;
      REQUIRE(ps);
      src.hooks->on_message(src.nic, MessageInfo{11, 1, 100000, 100000, 0, 0}, true);
      src.hooks->tick(src.nic);
      src.answer(1, 11, 100000);
      ps->set_ready(1, true);
      Cycle free_at = 0;
      for (Cycle t = 0; at[bits].size() < 50; ++t) {
        const int g = t >= free_at ? ps->pick(t) : -1;
        if (g < 0) continue;
        at[bits].push_back(t);
        ps->commit(t, g, len);
        free_at = t + len;
      }
    }
    for (std::size_t i = 0; i < 50; ++i) {
      CHECK(at["0"][i] == len * i);
      CHECK(at["4"][i] == 12 * i);
    }
  }
  // The dividers are the fixed-point pacer's.
  test::FakeNetwork net(4, false);
  CHECK_THROWS_WITH(net.make("{mechanism: saa, ps_div_bits: 4}"), Catch::Contains("cc.ps_div_bits"));
  CHECK_NOTHROW(net.make("{mechanism: saa, ps_arith: fixed, ps_div_bits: 48}"));
}
