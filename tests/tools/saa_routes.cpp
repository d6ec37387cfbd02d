// Routing-only evaluation of paper 004's adaptive path setup (claims R4-R6, Fig. 5; notes 1.2,
// section 3): no packet simulation. For each random permutation, every flow's setup packet is
// walked hop by hop through the mechanism's own router hooks (the port selector and per-input-port
// flow tables of systemc/cc/saa, the same code a packet simulation runs), in a random order of
// the flows (notes 1.2.1: "set up flows sequentially in random order"); then each flow's
// contention (the most flows on any link of its path) is read off. Static routing is the `saa`
// mechanism (its setup takes the routing algorithm's d-mod-k path); adaptive routing is `ar` on
// the fat tree (width 0) or on the modified tree with horizontal width w.
//
//   saa_routes --k 16 --n 3 --perms 100 [--seed 1] [--widths 0,1,2]
//
// Prints one line per routing: the mean over permutations of the per-permutation maximum and mean
// contention, the mean path length in links, the switch ports (down, up and horizontal), and the
// longest path of any flow (links).
// scripts/saa_experiment (routing) runs it and compares with the paper (docs/mechanisms/saa.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cc/saa/saa.hpp"
#include "support/fake_api.hpp"
#include "topology/multistage.hpp"

using namespace ccnet;

namespace {

// A router of the topology for the hooks: its own id and ports, and the routing algorithm's
// answer as the default route (what the router gives RouterHooks::route).
class TreeRouter : public test::FakeRouter {
 public:
  TreeRouter(PacketPool& pool, const MultistageTopology& topo, const RoutingFunction& routing, RouterId r)
      : FakeRouter(pool, topo, topo.num_ports(r), 64, 2), id_(r), routing_(routing), rng_(1, "saa_routes") {
    for (PortId p = 0; p < ports_.size(); ++p) ports_[p].peer = topo.peer(r, p);
  }
  RouterId id() const override { return id_; }
  RouteResult default_route(Packet& p, PortId in) override {
    RouteContext ctx{id_, in, p, rng_, idle_, nullptr};
    return routing_.route(ctx);
  }

 private:
  RouterId id_;
  const RoutingFunction& routing_;
  RngStream rng_;
  struct Idle : CongestionView {
    std::uint32_t output_occupancy(PortId) const override { return 0; }
  } idle_;  // d-mod-k never looks; no packet is in flight
};

struct Result {
  double max_contention = 0, mean_contention = 0, path_links = 0, path_links_max = 0;
};

// One routing on one topology over `perms` permutations (drawn from `seed`, the same for every
// routing so they are compared on the same permutations).
Result evaluate(const MultistageTopology& topo, const std::string& cc, std::uint32_t perms, std::uint64_t seed) {
  Result res;
  std::mt19937_64 rng(seed);
  const std::uint32_t nodes = topo.num_nodes();
  for (std::uint32_t perm = 0; perm < perms; ++perm) {
    PacketPool pool;
    RouterConfig rc;
    LinkConfig link;
    LinkConfig::schema().apply_defaults(&link);
    NicConfig nic;
    NicConfig::schema().apply_defaults(&nic);
    auto mech = test::make_mechanism(cc, MechanismContext{topo, rc, 1, false, pool.format(), link, nic});
    MultistageRouting routing(topo, UpPolicy::DestinationModK);
    std::vector<std::unique_ptr<TreeRouter>> routers;
    std::vector<std::unique_ptr<CounterSet>> counters;
    std::vector<std::unique_ptr<RouterHooks>> hooks;
    for (RouterId r = 0; r < topo.num_routers(); ++r) {
      routers.push_back(std::make_unique<TreeRouter>(pool, topo, routing, r));
      counters.push_back(std::make_unique<CounterSet>());
      hooks.push_back(mech->router_hooks(*routers.back(), *counters.back()));
      if (!hooks.back()) throw std::logic_error(cc + ": no router hooks");
    }
    const PacketKind setup = test::kind(pool, "setup");
    // A random permutation without fixed points (notes appendix A: fixed points are dropped).
    std::vector<NodeId> dst(nodes);
    do {
      std::iota(dst.begin(), dst.end(), 0);
      std::shuffle(dst.begin(), dst.end(), rng);
    } while ([&] {
      for (NodeId s = 0; s < nodes; ++s)
        if (dst[s] == s) return true;
      return false;
    }());
    std::vector<NodeId> order(nodes);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    // Link (router, output) -> flows; per flow, its links.
    std::vector<std::vector<std::uint32_t>> load(topo.num_routers());
    for (RouterId r = 0; r < topo.num_routers(); ++r) load[r].assign(topo.num_ports(r), 0);
    std::vector<std::vector<std::pair<RouterId, PortId>>> path(nodes);
    for (NodeId s : order) {
      Packet& p = pool.allocate();
      p.kind = setup;
      p.src = s;
      p.dst = dst[s];
      p.size = 1;
      p.message = s + 1;
      p.payload[0] = 1;
      auto [r, in] = topo.attach(s);
      for (std::uint32_t hops = 0;; ++hops) {
        if (hops > 64) throw std::logic_error("saa_routes: setup of flow " + std::to_string(s) + " does not arrive");
        const PortId out = hooks[r]->route(*routers[r], p, in).port;
        path[s].emplace_back(r, out);
        ++load[r][out];
        const PortPeer peer = topo.peer(r, out);
        if (peer.kind == PortPeer::Kind::Node) {
          if (peer.node != dst[s]) throw std::logic_error("saa_routes: flow " + std::to_string(s) + " delivered to the wrong node");
          break;
        }
        r = peer.router;
        in = peer.port;
      }
      pool.release(p.id);
    }
    double max_c = 0, sum_c = 0, links = 0;
    for (NodeId s = 0; s < nodes; ++s) {
      std::uint32_t c = 1;  // the injection link carries the flow alone
      for (auto [r, o] : path[s]) c = std::max(c, load[r][o]);
      max_c = std::max<double>(max_c, c);
      sum_c += c;
      links += static_cast<double>(path[s].size()) + 1;  // + the injection link
      res.path_links_max = std::max<double>(res.path_links_max, static_cast<double>(path[s].size()) + 1);
    }
    res.max_contention += max_c / perms;
    res.mean_contention += sum_c / nodes / perms;
    res.path_links += links / nodes / perms;
  }
  return res;
}

// Switch ports used: every router's down ports, the up ports below the top level, horizontal ports.
std::uint64_t switch_ports(const MultistageTopology& topo) {
  std::uint64_t n = 0;
  for (RouterId r = 0; r < topo.num_routers(); ++r)
    for (PortId p = 0; p < topo.num_ports(r); ++p)
      if (topo.peer(r, p).kind != PortPeer::Kind::None) ++n;
  return n;
}

std::uint32_t number(const char* flag, const char* v) {
  char* end = nullptr;
  const unsigned long x = std::strtoul(v, &end, 10);
  if (!v[0] || *end) throw std::invalid_argument(std::string(flag) + ": not a number: '" + v + "'");
  return static_cast<std::uint32_t>(x);
}

}  // namespace

int sc_main(int argc, char** argv) {
  try {
    std::uint32_t k = 16, n = 3, perms = 100;
    std::uint64_t seed = 1;
    std::vector<std::uint32_t> widths = {0, 1, 2};
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) throw std::invalid_argument(a + ": needs a value");
      const char* v = argv[++i];
      if (a == "--k") k = number("--k", v);
      else if (a == "--n") n = number("--n", v);
      else if (a == "--perms") perms = number("--perms", v);
      else if (a == "--seed") seed = number("--seed", v);
      else if (a == "--widths") {
        widths.clear();
        std::stringstream ss(v);
        for (std::string w; std::getline(ss, w, ',');) widths.push_back(number("--widths", w.c_str()));
      } else {
        throw std::invalid_argument("unknown option " + a + " (--k, --n, --perms, --seed, --widths)");
      }
    }
    if (perms == 0) throw std::invalid_argument("--perms: at least 1");
    MultistageTopology::Shape plain;
    plain.type = "fattree";
    plain.k = k;
    plain.n = n;
    plain.default_routing = "dmodk";
    MultistageTopology tree(plain);
    const std::uint64_t base_ports = switch_ports(tree);
    std::printf("# %u-ary %u-tree, %u nodes, %u permutations (seed %llu); contention = most flows on a link of the flow's path\n",
                k, n, tree.num_nodes(), perms, static_cast<unsigned long long>(seed));
    std::printf("routing width max_contention mean_contention path_links switch_ports extra_ports path_links_max\n");
    const auto line = [&](const char* name, std::uint32_t w, const Result& r, std::uint64_t ports) {
      std::printf("%s %u %.4f %.4f %.4f %llu %.4f %.0f\n", name, w, r.max_contention, r.mean_contention, r.path_links,
                  static_cast<unsigned long long>(ports), double(ports - base_ports) / double(base_ports), r.path_links_max);
      std::fflush(stdout);
    };
    line("static", 0, evaluate(tree, "{mechanism: saa}", perms, seed), base_ports);
    for (std::uint32_t w : widths) {
      if (w == 0) {
        line("adaptive", 0, evaluate(tree, "{mechanism: ar}", perms, seed), base_ports);
        continue;
      }
      MultistageTopology::Shape mod = plain;
      mod.type = "modified_fattree";
      mod.horizontal_width = w;
      MultistageTopology modified(mod);
      line("adaptive", w, evaluate(modified, "{mechanism: ar}", perms, seed), switch_ports(modified));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "saa_routes: %s\n", e.what());
    return 2;
  }
}
