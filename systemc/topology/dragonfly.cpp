// Dragonfly (p, a, h, g): g groups of a routers; each router has p terminals, a-1 local ports
// (groups are fully connected) and h global ports. Global channel c (0..a*h-1) of group x
// leads to group (x + c mod (g-1) + 1) mod g; with g = a*h+1 (the balanced default) every pair
// of groups has exactly one link. Routing: minimal (VC level = global hops taken: local-global-
// local needs 2 levels) and UGAL-L (choice at the source router between the minimal path and a
// Valiant path through a random intermediate group, comparing local queue occupancy times hop
// count; 3 VC levels).
#include <sstream>

#include "topology/dragonfly.hpp"
#include "topology/topology.hpp"

namespace ccnet {
namespace {

class Dragonfly : public Topology {
 public:
  Dragonfly(std::uint32_t p, std::uint32_t a, std::uint32_t h, std::uint32_t g)
      : p_(p), a_(a), h_(h), g_(g) {}
  std::string name() const override { return "dragonfly"; }
  std::uint32_t num_nodes() const override { return g_ * a_ * p_; }
  std::uint32_t num_routers() const override { return g_ * a_; }
  PortId num_ports(RouterId) const override { return static_cast<PortId>(p_ + a_ - 1 + h_); }
  std::uint32_t group(RouterId r) const { return r / a_; }
  std::uint32_t local_index(RouterId r) const { return r % a_; }
  PortId local_port(std::uint32_t from, std::uint32_t to) const {
    return static_cast<PortId>(p_ + (to < from ? to : to - 1));
  }
  PortId global_port(std::uint32_t channel) const { return static_cast<PortId>(p_ + a_ - 1 + channel % h_); }
  bool is_global(PortId port) const { return port >= p_ + a_ - 1; }
  std::uint32_t links_per_pair() const { return (a_ * h_) / (g_ - 1); }
  // Channel of group x that leads to group y, choosing among parallel links by `spread`.
  std::uint32_t channel_to(std::uint32_t x, std::uint32_t y, std::uint32_t spread) const {
    const std::uint32_t off = (y + g_ - x) % g_;
    return (spread % links_per_pair()) * (g_ - 1) + off - 1;
  }
  PortPeer peer(RouterId r, PortId port) const override {
    PortPeer pp;
    const std::uint32_t x = group(r), i = local_index(r);
    if (port < p_) {
      pp.kind = PortPeer::Kind::Node;
      pp.node = r * p_ + port;
      pp.link = kTerminalLink;
    } else if (port < p_ + a_ - 1) {
      const std::uint32_t j = port - p_;
      const std::uint32_t other = j < i ? j : j + 1;
      pp.kind = PortPeer::Kind::Router;
      pp.router = x * a_ + other;
      pp.port = local_port(other, i);
      pp.link = kLocal;
    } else {
      const std::uint32_t c = i * h_ + (port - (p_ + a_ - 1));
      const std::uint32_t off = c % (g_ - 1) + 1, k = c / (g_ - 1);
      const std::uint32_t y = (x + off) % g_;
      const std::uint32_t back = k * (g_ - 1) + (g_ - off) - 1;
      pp.kind = PortPeer::Kind::Router;
      pp.router = y * a_ + back / h_;
      pp.port = global_port(back);
      pp.link = kGlobal;
    }
    return pp;
  }
  std::pair<RouterId, PortId> attach(NodeId n) const override {
    return {n / p_, static_cast<PortId>(n % p_)};
  }
  std::string default_routing() const override { return "min"; }
  std::string describe() const override {
    std::ostringstream os;
    os << "dragonfly p=" << p_ << " a=" << a_ << " h=" << h_ << " g=" << g_ << ", " << num_nodes()
       << " nodes, " << num_routers() << " routers";
    return os.str();
  }
  // Router-to-router hops from router r to the router of node dst along the minimal path.
  std::uint32_t hops_from(RouterId r, RouterId target, std::uint32_t spread) const {
    if (r == target) return 0;
    const std::uint32_t x = group(r), y = group(target);
    if (x == y) return 1;
    const std::uint32_t c = channel_to(x, y, spread);
    const RouterId owner = x * a_ + c / h_;
    const PortPeer landing = peer(owner, global_port(c));
    return (owner != r ? 1u : 0u) + 1u + (landing.router != target ? 1u : 0u);
  }
  std::uint32_t min_hops(NodeId s, NodeId t) const override {
    return hops_from(s / p_, t / p_, s + t);
  }
  const std::vector<LinkClassInfo>& link_classes() const override {
    static const std::vector<LinkClassInfo> classes{kTerminalClass, kLocalClass, kGlobalClass};
    return classes;
  }
  static constexpr LinkClassId kLocal = 1, kGlobal = 2;
  std::uint32_t p() const { return p_; }
  std::uint32_t a() const { return a_; }
  std::uint32_t h() const { return h_; }
  std::uint32_t g() const { return g_; }

 private:
  std::uint32_t p_, a_, h_, g_;
};

struct DragonflyParams : TopologyParams {
  std::uint32_t p = 2, a = 4, h = 2, g = 0;
  static const config::Schema& schema() {
    static config::Schema s(
        "Dragonfly: g groups of a fully connected routers, p terminals and h global ports per router. Link classes: "
        "terminal, local, global.");
    static bool init = [] {
      config::Declare<DragonflyParams>(s)
          .field("p", &DragonflyParams::p, 2u, "terminals per router", {1, 64})
          .field("a", &DragonflyParams::a, 4u, "routers per group", {1, 128})
          .field("h", &DragonflyParams::h, 2u, "global ports per router", {1, 64})
          .field("g", &DragonflyParams::g, 0u, "groups (0 = a*h+1, one global link per group pair)", {0, 4097});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    // The key ranges bound the size: at most 8193 groups x 128 routers x 64 terminals = 2^26
    // nodes, within kMaxTopologySize (the memory guard refuses far smaller networks).
    const std::uint32_t groups = g ? g : a * h + 1;
    if (groups < 2) throw config::ConfigError("topology.g: a dragonfly needs at least 2 groups");
    if ((a * h) % (groups - 1) != 0)
      throw config::ConfigError("topology.g: a*h = " + std::to_string(a * h) +
                                " global channels per group must divide evenly among the other " +
                                std::to_string(groups - 1) + " groups");
    return std::make_unique<Dragonfly>(p, a, h, groups);
  }
};
config::PolyRegistrar<TopologyParams, DragonflyParams> reg_dragonfly("dragonfly", "dragonfly (p, a, h, g)");

// Shared by minimal and UGAL: next hop toward group/router `target` along the minimal path.
RouteResult minimal_step(const Dragonfly& df, RouteContext& ctx, RouterId target_router) {
  Packet& pkt = ctx.packet;
  const RouterId r = ctx.router;
  const std::uint8_t level = DragonflyRoute::global_hops(pkt);
  if (r == target_router) return {static_cast<PortId>(pkt.dst % df.p()), 0};
  const std::uint32_t x = df.group(r), y = df.group(target_router);
  if (x == y) return {df.local_port(df.local_index(r), df.local_index(target_router)), level};
  const std::uint32_t c = df.channel_to(x, y, pkt.src + pkt.dst);
  const std::uint32_t owner = c / df.h();
  if (owner == df.local_index(r)) {
    DragonflyRoute::add_global_hop(pkt);
    return {df.global_port(c), level};
  }
  return {df.local_port(df.local_index(r), owner), level};
}

class MinimalRouting : public RoutingFunction {
 public:
  explicit MinimalRouting(const Dragonfly& df) : df_(df) {}
  RouteResult route(RouteContext& ctx) const override { return minimal_step(df_, ctx, ctx.packet.dst / df_.p()); }
  std::uint8_t vc_levels() const override { return 2; }

 private:
  const Dragonfly& df_;
};

struct MinParams : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s("Dragonfly minimal routing (local, global, local); 2 VC levels.");
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* d = dynamic_cast<const Dragonfly*>(&topo);
    if (!d) throw config::ConfigError("routing.algorithm: 'min' needs topology 'dragonfly', not '" + topo.name() + "'");
    return std::make_unique<MinimalRouting>(*d);
  }
};
config::PolyRegistrar<RoutingParams, MinParams> reg_min("min", "dragonfly minimal");

// UGAL-L: phase Undecided, Minimal to the destination, or Valiant toward the intermediate group
// (DragonflyRoute), switching to Minimal on arrival there.
class UgalRouting : public RoutingFunction {
 public:
  UgalRouting(const Dragonfly& df, std::uint32_t threshold) : df_(df), threshold_(threshold) {}
  RouteResult route(RouteContext& ctx) const override {
    Packet& pkt = ctx.packet;
    const RouterId dst_router = pkt.dst / df_.p();
    const std::uint32_t x = df_.group(ctx.router), y = df_.group(dst_router);
    if (DragonflyRoute::phase(pkt) == DragonflyRoute::Undecided) {
      DragonflyRoute::set_phase(pkt, DragonflyRoute::Minimal);
      if (x != y && df_.g() > 2) {
        // Candidate intermediate group: uniformly among the groups other than x and y.
        std::uint32_t gi = static_cast<std::uint32_t>(ctx.rng.below(df_.g() - 2));
        for (std::uint32_t skip : {std::min(x, y), std::max(x, y)})
          if (gi >= skip) ++gi;
        const RouterId gi_router = gi * df_.a();  // any router of gi: the path targets the group
        const PortId p_min = first_port(ctx.router, dst_router, pkt);
        const PortId p_nm = first_port(ctx.router, gi_router, pkt);
        const std::uint32_t h_min = df_.hops_from(ctx.router, dst_router, pkt.src + pkt.dst);
        const std::uint32_t h_nm = df_.hops_from(ctx.router, gi_router, pkt.src + pkt.dst) + 3;
        const std::uint64_t q_min = ctx.view.output_occupancy(p_min);
        const std::uint64_t q_nm = ctx.view.output_occupancy(p_nm);
        if (q_min * h_min > q_nm * h_nm + threshold_) {
          DragonflyRoute::set_phase(pkt, DragonflyRoute::Valiant);
          DragonflyRoute::set_intermediate(pkt, gi);
        }
      }
    }
    if (DragonflyRoute::phase(pkt) == DragonflyRoute::Valiant) {
      const std::uint32_t gi = DragonflyRoute::intermediate(pkt);
      if (x == gi) {
        DragonflyRoute::set_phase(pkt, DragonflyRoute::Minimal);
      } else {
        // Minimal step toward the intermediate group: any router there, so aim at the landing
        // router of this group's channel to it (no local hop needed inside x beyond the owner).
        const std::uint32_t c = df_.channel_to(x, gi, pkt.src + pkt.dst);
        const RouterId land = df_.peer(x * df_.a() + c / df_.h(), df_.global_port(c)).router;
        return minimal_step(df_, ctx, land);
      }
    }
    return minimal_step(df_, ctx, dst_router);
  }
  std::uint8_t vc_levels() const override { return 3; }

 private:
  PortId first_port(RouterId r, RouterId target, const Packet& pkt) const {
    const std::uint32_t x = df_.group(r), y = df_.group(target);
    if (x == y) return df_.local_port(df_.local_index(r), df_.local_index(target));
    const std::uint32_t c = df_.channel_to(x, y, pkt.src + pkt.dst);
    const std::uint32_t owner = c / df_.h();
    return owner == df_.local_index(r) ? df_.global_port(c) : df_.local_port(df_.local_index(r), owner);
  }
  const Dragonfly& df_;
  std::uint32_t threshold_;
};

struct UgalParams : RoutingParams {
  std::uint32_t threshold = 0;
  static const config::Schema& schema() {
    static config::Schema s("Dragonfly UGAL-L: at the source router, minimal vs Valiant by local queue occupancy x hops; 3 VC levels.");
    static bool init = [] {
      config::Declare<UgalParams>(s).field("threshold", &UgalParams::threshold, 0u,
                                           "bias toward the minimal path (flits x hops)", {0, 1000000});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* d = dynamic_cast<const Dragonfly*>(&topo);
    if (!d) throw config::ConfigError("routing.algorithm: 'ugal' needs topology 'dragonfly', not '" + topo.name() + "'");
    return std::make_unique<UgalRouting>(*d, threshold);
  }
};
config::PolyRegistrar<RoutingParams, UgalParams> reg_ugal("ugal", "dragonfly UGAL-L");

}  // namespace
}  // namespace ccnet
