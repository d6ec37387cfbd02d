// k-ary n-dimensional mesh with concentration c, dimension-order routing (for cross-checking
// against published simulators such as BookSim2's mesh/dor).
#include <sstream>

#include "topology/topology.hpp"

namespace ccnet {
namespace {

class Mesh : public Topology {
 public:
  Mesh(std::uint32_t k, std::uint32_t n, std::uint32_t c) : k_(k), n_(n), c_(c) {
    routers_ = 1;
    for (std::uint32_t d = 0; d < n; ++d) routers_ *= k;
  }
  std::string name() const override { return "mesh"; }
  std::uint32_t num_nodes() const override { return routers_ * c_; }
  std::uint32_t num_routers() const override { return routers_; }
  PortId num_ports(RouterId) const override { return static_cast<PortId>(c_ + 2 * n_); }
  std::uint32_t coord(RouterId r, std::uint32_t d) const {
    for (std::uint32_t i = 0; i < d; ++i) r /= k_;
    return r % k_;
  }
  std::uint32_t stride(std::uint32_t d) const {
    std::uint32_t s = 1;
    for (std::uint32_t i = 0; i < d; ++i) s *= k_;
    return s;
  }
  PortPeer peer(RouterId r, PortId p) const override {
    PortPeer pp;
    if (p < c_) {
      pp.kind = PortPeer::Kind::Node;
      pp.node = r * c_ + p;
      pp.link = kTerminalLink;
      return pp;
    }
    const std::uint32_t d = (p - c_) / 2;
    const bool plus = ((p - c_) % 2) == 1;
    const std::uint32_t x = coord(r, d);
    if ((!plus && x == 0) || (plus && x + 1 == k_)) return pp;  // mesh boundary
    pp.kind = PortPeer::Kind::Router;
    pp.router = plus ? r + stride(d) : r - stride(d);
    pp.port = static_cast<PortId>(c_ + 2 * d + (plus ? 0 : 1));
    pp.link = kLocal;
    return pp;
  }
  std::pair<RouterId, PortId> attach(NodeId n) const override {
    return {n / c_, static_cast<PortId>(n % c_)};
  }
  std::string default_routing() const override { return "dor"; }
  std::string describe() const override {
    std::ostringstream os;
    for (std::uint32_t d = 0; d < n_; ++d) os << (d ? "x" : "") << k_;
    os << " mesh, " << num_nodes() << " nodes, " << routers_ << " routers";
    if (c_ > 1) os << " (concentration " << c_ << ")";
    return os.str();
  }
  std::uint32_t min_hops(NodeId s, NodeId t) const override {
    const RouterId a = s / c_, b = t / c_;
    std::uint32_t h = 0;
    for (std::uint32_t d = 0; d < n_; ++d) {
      const std::uint32_t x = coord(a, d), y = coord(b, d);
      h += x > y ? x - y : y - x;
    }
    return h;
  }
  const std::vector<LinkClassInfo>& link_classes() const override {
    static const std::vector<LinkClassInfo> classes{kTerminalClass, kLocalClass};
    return classes;
  }
  std::uint32_t k() const { return k_; }
  std::uint32_t n() const { return n_; }
  std::uint32_t c() const { return c_; }

 private:
  static constexpr LinkClassId kLocal = 1;
  std::uint32_t k_, n_, c_, routers_;
};

struct MeshParams : TopologyParams {
  std::uint32_t k = 8;
  std::uint32_t n = 2;
  std::uint32_t concentration = 1;
  static const config::Schema& schema() {
    static config::Schema s(
        "k-ary n-mesh: routers on an n-dimensional grid with k routers per dimension. Link classes: terminal, local.");
    static bool init = [] {
      config::Declare<MeshParams>(s)
          .field("k", &MeshParams::k, 8u, "routers per dimension", {2, 256})
          .field("n", &MeshParams::n, 2u, "dimensions", {1, 4})
          .field("concentration", &MeshParams::concentration, 1u, "nodes per router", {1, 64});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    // Once the routers fit (k^n <= 256^3), so do the nodes (2^24 x 64 concentration = 2^30).
    check_topology_size(checked_pow(k, n), "topology.k", "a " + std::to_string(k) + "-ary " + std::to_string(n) + "-mesh",
                        "routers");
    return std::make_unique<Mesh>(k, n, concentration);
  }
};
config::PolyRegistrar<TopologyParams, MeshParams> reg_mesh("mesh", "k-ary n-mesh");

class DimensionOrderRouting : public RoutingFunction {
 public:
  explicit DimensionOrderRouting(const Mesh& m) : m_(m) {}
  RouteResult route(RouteContext& ctx) const override {
    const RouterId here = ctx.router;
    const RouterId there = ctx.packet.dst / m_.c();
    for (std::uint32_t d = 0; d < m_.n(); ++d) {
      const std::uint32_t x = m_.coord(here, d), y = m_.coord(there, d);
      if (x != y) return {static_cast<PortId>(m_.c() + 2 * d + (y > x ? 1 : 0)), 0};
    }
    return {static_cast<PortId>(ctx.packet.dst % m_.c()), 0};
  }
  std::uint8_t vc_levels() const override { return 1; }

 private:
  const Mesh& m_;
};

struct DorParams : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s("Dimension-order routing on a mesh (dimension 0 first); deadlock-free with one VC level.");
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* m = dynamic_cast<const Mesh*>(&topo);
    if (!m) throw config::ConfigError("routing.algorithm: 'dor' needs topology 'mesh', not '" + topo.name() + "'");
    return std::make_unique<DimensionOrderRouting>(*m);
  }
};
config::PolyRegistrar<RoutingParams, DorParams> reg_dor("dor", "mesh dimension-order routing");

}  // namespace
}  // namespace ccnet
