// k-ary n-tree (fat tree): n levels of k^(n-1) routers; leaves have k terminal ports. Routing
// goes up to a nearest common ancestor (random choice among the k up-ports, from the router's
// own RNG stream) and then down the unique path. Up*/down* is deadlock-free with one VC level.
#include <sstream>

#include "topology/topology.hpp"

namespace ccnet {
namespace {

class FatTree : public Topology {
 public:
  FatTree(std::uint32_t k, std::uint32_t n) : k_(k), n_(n) {
    per_level_ = 1;
    for (std::uint32_t i = 0; i + 1 < n; ++i) per_level_ *= k;
  }
  std::string name() const override { return "fattree"; }
  std::uint32_t num_nodes() const override { return per_level_ * k_; }
  std::uint32_t num_routers() const override { return per_level_ * n_; }
  std::uint32_t level(RouterId r) const { return r / per_level_; }
  std::uint32_t index(RouterId r) const { return r % per_level_; }
  std::uint32_t digit(std::uint32_t w, std::uint32_t pos) const {
    for (std::uint32_t i = 0; i < pos; ++i) w /= k_;
    return w % k_;
  }
  std::uint32_t with_digit(std::uint32_t w, std::uint32_t pos, std::uint32_t v) const {
    std::uint32_t s = 1;
    for (std::uint32_t i = 0; i < pos; ++i) s *= k_;
    return w - digit(w, pos) * s + v * s;
  }
  PortId num_ports(RouterId r) const override {
    return static_cast<PortId>(level(r) + 1 == n_ ? k_ : 2 * k_);
  }
  PortPeer peer(RouterId r, PortId p) const override {
    PortPeer pp;
    const std::uint32_t l = level(r), w = index(r);
    if (p < k_) {
      if (l == 0) {
        pp.kind = PortPeer::Kind::Node;
        pp.node = w * k_ + p;
        pp.link = LinkClass::Terminal;
      } else {
        pp.kind = PortPeer::Kind::Router;
        pp.router = (l - 1) * per_level_ + with_digit(w, l - 1, p);
        pp.port = static_cast<PortId>(k_ + digit(w, l - 1));
        pp.link = LinkClass::Local;
      }
      return pp;
    }
    const std::uint32_t j = p - k_;
    pp.kind = PortPeer::Kind::Router;
    pp.router = (l + 1) * per_level_ + with_digit(w, l, j);
    pp.port = static_cast<PortId>(digit(w, l));
    pp.link = LinkClass::Local;
    return pp;
  }
  std::pair<RouterId, PortId> attach(NodeId n) const override {
    return {n / k_, static_cast<PortId>(n % k_)};
  }
  std::string default_routing() const override { return "nca"; }
  std::string describe() const override {
    std::ostringstream os;
    os << k_ << "-ary " << n_ << "-tree, " << num_nodes() << " nodes, " << num_routers() << " routers";
    return os.str();
  }
  // True if leaf L lies below router (l, w): digits l..n-2 agree.
  bool below(std::uint32_t l, std::uint32_t w, std::uint32_t leaf) const {
    for (std::uint32_t pos = l; pos + 1 < n_; ++pos)
      if (digit(w, pos) != digit(leaf, pos)) return false;
    return true;
  }
  std::uint32_t min_hops(NodeId s, NodeId t) const override {
    const std::uint32_t a = s / k_, b = t / k_;
    if (a == b) return 0;
    std::uint32_t top = 0;
    for (std::uint32_t pos = 0; pos + 1 < n_; ++pos)
      if (digit(a, pos) != digit(b, pos)) top = pos + 1;
    return 2 * top;
  }
  std::uint32_t k() const { return k_; }

 private:
  std::uint32_t k_, n_, per_level_;
};

struct FatTreeParams : TopologyParams {
  std::uint32_t k = 4;
  std::uint32_t n = 3;
  static const config::Schema& schema() {
    static config::Schema s("k-ary n-tree fat tree: k^n nodes, n levels of k^(n-1) routers with k down and k up ports.");
    static bool init = [] {
      config::Declare<FatTreeParams>(s)
          .field("k", &FatTreeParams::k, 4u, "down (and up) ports per router", {2, 64})
          .field("n", &FatTreeParams::n, 3u, "levels", {1, 6});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    // k^n <= 64^6 = 2^36 in 64 bits. The routers, n k^(n-1), are fewer than the nodes unless
    // k < n, where k^n <= 5^6: the node count is the one to check.
    std::uint64_t nodes = 1;
    for (std::uint32_t i = 0; i < n; ++i) nodes *= k;
    check_topology_size(nodes, "topology.k", "a " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree", "nodes");
    return std::make_unique<FatTree>(k, n);
  }
};
config::PolyRegistrar<TopologyParams, FatTreeParams> reg_fattree("fattree", "k-ary n-tree");

class NearestCommonAncestorRouting : public RoutingFunction {
 public:
  explicit NearestCommonAncestorRouting(const FatTree& t) : t_(t) {}
  RouteResult route(RouteContext& ctx) const override {
    const std::uint32_t k = t_.k();
    const std::uint32_t l = t_.level(ctx.router), w = t_.index(ctx.router);
    const std::uint32_t leaf = ctx.packet.dst / k;
    if (t_.below(l, w, leaf)) {
      if (l == 0) return {static_cast<PortId>(ctx.packet.dst % k), 0};
      return {static_cast<PortId>(t_.digit(leaf, l - 1)), 0};
    }
    return {static_cast<PortId>(k + ctx.rng.below(k)), 0};
  }
  std::uint8_t vc_levels() const override { return 1; }

 private:
  const FatTree& t_;
};

struct NcaParams : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s("Fat-tree nearest-common-ancestor routing: random up-port, then the unique down path.");
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* t = dynamic_cast<const FatTree*>(&topo);
    if (!t) throw config::ConfigError("routing.algorithm: 'nca' needs topology 'fattree', not '" + topo.name() + "'");
    return std::make_unique<NearestCommonAncestorRouting>(*t);
  }
};
config::PolyRegistrar<RoutingParams, NcaParams> reg_nca("nca", "fat-tree nearest common ancestor");

}  // namespace
}  // namespace ccnet
