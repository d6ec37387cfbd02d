// Folded multistage networks built from k-ary n-trees, and the one routing function that serves
// them all (docs/topologies.md has figures of each wiring):
//
//   fattree           k-ary n-tree (= bidirectional k-ary n-fly / BMIN): n levels of k^(n-1)
//                     routers, k down and k up ports each (the top level has only the k down).
//   clos              3-stage Clos of M x M elements, N = M^2 ports, folded: the k-ary 2-tree with
//                     k = M whose every route turns at the middle stage (A/C switch i = router i,
//                     B switch b = router M + b).
//   modified_fattree  k-ary n-tree whose routers in the same logical fat-tree node (same level,
//                     same subtree) form a chain joined by w parallel horizontal links
//                     (paper 004, notes 1.2.1).
//   multicluster      2 to 4 clusters, each a two-level fat tree (k leaves with k down/k up, k
//                     spines), joined by X inter-cluster channels per direction on distinct leaf
//                     routers (2 clusters: directly; 3-4: a bidirectional ring; paper 000 section 3).
//
// Numbering (single cluster = today's fattree): router (cluster c, level l, index w) has id
// c*n*k^(n-1) + l*k^(n-1) + w; node i of leaf w of cluster c is c*k^n + w*k + i. Ports of a router
// at level l: [0, k) down (terminals at level 0), [k, 2k) up (below the top level), then the
// extra ports of the shape: horizontal (w to the left neighbour, then w to the right), the
// inter-cluster channel of a channel leaf, its extra up-link, a spine's extra down-link.
// Up port j of router (l, w) leads to router (l+1, w with digit l replaced by j) (base-k digits of
// w, digit 0 least significant); a router is above a leaf when their digits l..n-2 agree.
//
// Routing (MultistageRouting): up until the router is above the target leaf (clos: until the
// middle stage), then down the unique path. Which up port, and which of parallel down links, is
// the policy's choice: random (`nca`, a draw from the router's RNG stream at every hop), d-mod-k
// and s-mod-k (port floor(S / k^l) mod u at level l, S = destination or source node, u = the
// router's up ports), or spray (S = a per-packet selector from a per-flow round-robin pointer at
// the source's leaf router). A selector carried in the packet (pin_via) overrides every policy:
// that is "via a chosen root", and how a mechanism pins a path. Across clusters the packet heads
// for the inter-cluster channel the flow uses (default_channel, or a pinned one) and its VC level
// is the number of cluster boundaries crossed so far (each crossing is a dateline).
// MultistageRoute below is how a mechanism pins any of these choices.
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace ccnet {

class MultistageTopology : public Topology {
 public:
  // What a router port connects to, for routing.
  enum class Role : std::uint8_t { Down, Up, Horizontal, Channel, None };
  struct Shape {
    std::string type;                    // registered topology type (name())
    std::uint32_t k = 4;                 // down (and up) ports per router
    std::uint32_t n = 3;                 // levels
    std::uint32_t clusters = 1;          // > 1: multi-cluster (n must be 2)
    std::uint32_t channels = 0;          // inter-cluster channels per direction per adjacent cluster pair
    bool channel_uplinks = false;        // a channel leaf gets one extra up-link (to spine = its index)
    std::uint32_t horizontal_width = 0;  // modified k-ary n-tree: parallel links between chain neighbours
    bool turn_at_top = false;            // every route turns at the top level (Clos middle stage)
    std::string default_routing = "nca";
    std::string size_key = "topology.k";  // the key a size error names
  };
  // Throws config::ConfigError naming the key (topology.k, topology.n, ...) when the shape is
  // impossible or too large (check_topology_size).
  explicit MultistageTopology(Shape shape);

  // Topology
  std::string name() const override { return shape_.type; }
  std::uint32_t num_nodes() const override { return nodes_per_cluster_ * shape_.clusters; }
  std::uint32_t num_routers() const override { return routers_per_cluster_ * shape_.clusters; }
  PortId num_ports(RouterId r) const override { return static_cast<PortId>(ports_[r].size()); }
  PortPeer peer(RouterId r, PortId p) const override { return ports_[r][p].peer; }
  std::pair<RouterId, PortId> attach(NodeId n) const override { return {leaf_of(n), static_cast<PortId>(n % shape_.k)}; }
  std::string default_routing() const override { return shape_.default_routing; }
  std::string describe() const override;
  // Hops of the route the default routing takes (multicluster: through the flow's default channel).
  std::uint32_t min_hops(NodeId src, NodeId dst) const override;
  const std::vector<LinkClassInfo>& link_classes() const override { return classes_; }

  // Shape.
  const Shape& shape() const { return shape_; }
  std::uint32_t k() const { return shape_.k; }
  std::uint32_t levels() const { return shape_.n; }
  std::uint32_t clusters() const { return shape_.clusters; }
  std::uint32_t routers_per_level() const { return per_level_; }
  std::uint32_t cluster_of(RouterId r) const { return r / routers_per_cluster_; }
  std::uint32_t cluster_of_node(NodeId n) const { return n / nodes_per_cluster_; }
  std::uint32_t level(RouterId r) const { return (r % routers_per_cluster_) / per_level_; }
  std::uint32_t index(RouterId r) const { return r % per_level_; }
  RouterId router_at(std::uint32_t cluster, std::uint32_t level, std::uint32_t index) const {
    return cluster * routers_per_cluster_ + level * per_level_ + index;
  }
  RouterId leaf_of(NodeId n) const { return router_at(cluster_of_node(n), 0, (n % nodes_per_cluster_) / shape_.k); }
  Role role(RouterId r, PortId p) const { return ports_[r][p].role; }
  // True when `leaf` (a level-0 router of r's cluster) is r itself or below r.
  bool above(RouterId r, RouterId leaf) const;
  // Up ports of r, in port order ([k, 2k) then a channel leaf's extra up-link).
  const std::vector<PortId>& up_ports(RouterId r) const { return up_[r]; }
  // Down ports of r that lead toward `leaf` (r above it): the tree's port, then a parallel
  // extra down-link if there is one. Returns how many (0 when leaf is not below r).
  std::uint32_t down_ports(RouterId r, RouterId leaf, PortId out[2]) const;
  // Horizontal ports of r toward its left (dir < 0) or right (dir > 0) chain neighbour (empty
  // at a chain end and without horizontal links).
  std::vector<PortId> horizontal_ports(RouterId r, int dir) const;
  // Paper 004 (notes 1.2.1): the direction of horizontal hops during descent is chosen once per
  // level, toward the farther end of the chain: a packet that arrived over a horizontal link
  // keeps going the same way; otherwise right in the left half of the chain, left in the right.
  int horizontal_direction(RouterId r, PortId in_port) const;

  // Multi-cluster. Channel c (0..channels-1) from cluster a to an adjacent cluster b.
  std::uint32_t channels() const { return shape_.channels; }
  bool adjacent(std::uint32_t a, std::uint32_t b) const;
  // The leaf router of cluster a and the port on it of channel c toward adjacent cluster b.
  std::pair<RouterId, PortId> channel_port(std::uint32_t a, std::uint32_t b, std::uint32_t c) const;
  // Cluster boundaries on the shortest way from cluster a to b (ring), and the next cluster
  // along it; when both ways are equally long (4 clusters, opposite), `clockwise` (a+1 first)
  // decides.
  std::uint32_t cluster_distance(std::uint32_t a, std::uint32_t b) const;
  std::uint32_t next_cluster(std::uint32_t a, std::uint32_t b, bool clockwise) const;
  std::uint32_t max_crossings() const;
  // Per-flow defaults (documented choice): every packet of flow src->dst uses inter-cluster
  // channel flow_hash(src, dst) mod channels, and goes clockwise on a tie iff bit 32 of the
  // hash is set. flow_hash is splitmix64 of (src << 32 | dst).
  static std::uint64_t flow_hash(NodeId src, NodeId dst);
  std::uint32_t default_channel(NodeId src, NodeId dst) const;
  bool default_clockwise(NodeId src, NodeId dst) const;

  // Spraying: a selector S in [0, spray_period()) names one root per packet (k-ary n-tree: the
  // top-level router whose digits are S's; Clos: middle switch S); the per-flow pointer cycles
  // through all of them. A channel leaf has k + 1 up ports, so with channel up-links the period
  // is k(k+1), which makes S mod k and S mod (k+1) both uniform.
  std::uint32_t spray_period() const { return spray_period_; }
  // k^l (the stride of level l in d-mod-k / s-mod-k / selector digits).
  std::uint32_t stride(std::uint32_t level) const { return stride_[level]; }

 private:
  struct Port {
    PortPeer peer;
    Role role = Role::None;
  };
  void connect(RouterId a, PortId pa, RouterId b, PortId pb, LinkClassId link, Role role_a, Role role_b);
  std::uint32_t digit(std::uint32_t w, std::uint32_t pos) const { return (w / stride_[pos]) % shape_.k; }
  std::uint32_t with_digit(std::uint32_t w, std::uint32_t pos, std::uint32_t v) const {
    return w - digit(w, pos) * stride_[pos] + v * stride_[pos];
  }
  std::uint32_t first_extra_port(std::uint32_t level) const { return level + 1 < shape_.n ? 2 * shape_.k : shape_.k; }
  // Multi-cluster: neighbours whose channels a cluster hosts (2 clusters: 1; a ring: 2), and the
  // leaves that host them.
  std::uint32_t neighbour_slots() const { return shape_.clusters == 2 ? 1 : 2; }
  std::uint32_t channel_leaves() const { return shape_.clusters > 1 ? neighbour_slots() * shape_.channels : 0; }

  Shape shape_;
  std::uint32_t per_level_ = 1, routers_per_cluster_ = 0, nodes_per_cluster_ = 0, spray_period_ = 1;
  std::vector<std::uint32_t> stride_;  // k^l, l = 0..n
  std::vector<LinkClassInfo> classes_;
  std::vector<std::vector<Port>> ports_;
  std::vector<std::vector<PortId>> up_;
  std::vector<PortId> extra_down_;  // per router: a spine's extra down-link port (kNoPort: none)
  // Per (cluster, neighbour slot, channel): leaf router and port. Slot 0 = next cluster, 1 = previous.
  std::vector<std::pair<RouterId, PortId>> channel_ports_;
  LinkClassId inter_cluster_ = 0;
};

// The routing words a multistage route keeps in Packet::route (routing-owned; core never reads
// them). A mechanism pins a path by calling pin_via / pin_channel / pin_clockwise on a packet
// before it is injected (or from a routing hook before the router routes it); the routing
// function honours what it finds and fills in what is missing at the packet's first router, so
// a packet that has been routed carries every choice made for it.
//   route[0]: via selector + 1 (0: not chosen)
//   route[1]: bits 0-15 inter-cluster channel + 1 (0: not chosen); bits 16-23 cluster
//             boundaries crossed so far (the VC level); bit 24 ring direction chosen, bit 25
//             clockwise (toward cluster c+1 first; only matters for a tie, 4 clusters)
// Channel c from cluster a to b and channel c from b to a are the two directions of one link,
// so a reply pinned with pin_reverse_of(reply, request) crosses the request's channels in
// reverse order (paper 000 R6: a grant retraces its request).
struct MultistageRoute {
  static bool has_via(const Packet& p) { return p.route[0] != 0; }
  static std::uint32_t via(const Packet& p) { return p.route[0] - 1; }
  static void pin_via(Packet& p, std::uint32_t selector) { p.route[0] = selector + 1; }
  static bool has_channel(const Packet& p) { return (p.route[1] & 0xFFFFu) != 0; }
  static std::uint32_t channel(const Packet& p) { return (p.route[1] & 0xFFFFu) - 1; }
  static void pin_channel(Packet& p, std::uint32_t c) { p.route[1] = (p.route[1] & ~0xFFFFu) | ((c + 1) & 0xFFFFu); }
  static std::uint8_t crossings(const Packet& p) { return static_cast<std::uint8_t>((p.route[1] >> 16) & 0xFFu); }
  static void set_crossings(Packet& p, std::uint32_t n) { p.route[1] = (p.route[1] & ~0xFF0000u) | ((n & 0xFFu) << 16); }
  static bool has_direction(const Packet& p) { return (p.route[1] & kDirectionSet) != 0; }
  static bool clockwise(const Packet& p) { return (p.route[1] & kClockwise) != 0; }
  static void pin_clockwise(Packet& p, bool cw) {
    p.route[1] = (p.route[1] & ~kClockwise) | kDirectionSet | (cw ? kClockwise : 0u);
  }
  // The reply takes the request's channel and the opposite way round the ring.
  static void pin_reverse_of(Packet& reply, const Packet& request) {
    if (has_channel(request)) pin_channel(reply, channel(request));
    if (has_direction(request)) pin_clockwise(reply, !clockwise(request));
  }

 private:
  static constexpr std::uint32_t kDirectionSet = 1u << 24, kClockwise = 1u << 25;
};

// How a multistage routing function picks among up ports (and parallel down links).
enum class UpPolicy : std::uint8_t { Random, DestinationModK, SourceModK, Spray };

class MultistageRouting : public RoutingFunction {
 public:
  MultistageRouting(const MultistageTopology& topo, UpPolicy policy) : t_(topo), policy_(policy) {}
  RouteResult route(RouteContext& ctx) const override;
  std::uint8_t vc_levels() const override { return static_cast<std::uint8_t>(1 + t_.max_crossings()); }
  std::unique_ptr<RoutingState> make_state(RouterId r) const override;
  UpPolicy policy() const { return policy_; }

 private:
  std::uint32_t pick(RouteContext& ctx, std::uint32_t level, std::uint32_t count) const;
  const MultistageTopology& t_;
  UpPolicy policy_;
};

}  // namespace ccnet
