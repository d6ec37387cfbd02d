#include "topology/multistage.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "core/rng.hpp"

namespace ccnet {

namespace {
const LinkClassInfo kInterClusterClass{"inter_cluster", "multicluster: channels between clusters"};
}  // namespace

MultistageTopology::MultistageTopology(Shape shape) : shape_(std::move(shape)) {
  const std::uint32_t k = shape_.k, n = shape_.n, C = shape_.clusters;
  if (C > 1 && n != 2) throw std::logic_error("multi-cluster fat trees are built from two-level clusters");
  if (C > 1 && shape_.turn_at_top) throw std::logic_error("turn_at_top needs a single cluster");
  // Sizes first, in 64 bits, before anything is allocated.
  const std::uint64_t nodes_per_cluster = checked_pow(k, n);
  const std::uint64_t per_level = checked_pow(k, n - 1);
  const std::string what = C > 1 ? std::to_string(C) + " clusters of " + std::to_string(k * k) + " nodes"
                                 : "a " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree";
  check_topology_size(checked_mul(nodes_per_cluster, C), shape_.size_key.c_str(), what, "nodes");
  check_topology_size(checked_mul(checked_mul(per_level, n), C), shape_.size_key.c_str(), what, "routers");
  if (C > 1) {
    if (shape_.channels == 0 || channel_leaves() > k)
      throw config::ConfigError("topology.channels: " + std::to_string(shape_.channels) + " channels per direction need " +
                                std::to_string(channel_leaves()) + " distinct leaf routers per cluster, a cluster has " +
                                std::to_string(k) + (C == 2 ? "" : " (a ring cluster hosts channels to both neighbours)"));
  }
  nodes_per_cluster_ = static_cast<std::uint32_t>(nodes_per_cluster);
  per_level_ = static_cast<std::uint32_t>(per_level);
  routers_per_cluster_ = per_level_ * n;
  stride_.assign(n + 1, 1);
  for (std::uint32_t l = 1; l <= n; ++l) stride_[l] = stride_[l - 1] * k;  // <= k^n, checked above
  spray_period_ = per_level_ * (C > 1 && shape_.channel_uplinks ? k + 1 : 1);

  classes_ = {kTerminalClass, kLocalClass};
  if (C > 1) {
    inter_cluster_ = static_cast<LinkClassId>(classes_.size());
    classes_.push_back(kInterClusterClass);
  }
  const LinkClassId local = 1;
  const std::uint32_t w = shape_.horizontal_width;

  // Ports of each router: the tree's, then the extra ports this shape gives it.
  ports_.resize(num_routers());
  up_.resize(num_routers());
  extra_down_.assign(num_routers(), kNoPort);
  for (std::uint32_t c = 0; c < C; ++c)
    for (std::uint32_t l = 0; l < n; ++l)
      for (std::uint32_t i = 0; i < per_level_; ++i) {
        const RouterId r = router_at(c, l, i);
        std::uint32_t count = first_extra_port(l);
        if (w > 0 && l > 0) count += 2 * w;
        if (l == 0 && i < channel_leaves()) count += shape_.channel_uplinks ? 2 : 1;  // channel (+ extra up-link)
        if (l == 1 && i < channel_leaves() && shape_.channel_uplinks) count += 1;     // spine: extra down-link
        ports_[r].resize(count);
      }
  for (std::uint32_t c = 0; c < C; ++c)
    for (std::uint32_t l = 0; l < n; ++l)
      for (std::uint32_t i = 0; i < per_level_; ++i) {
        const RouterId r = router_at(c, l, i);
        for (PortId p = 0; p < k; ++p) {
          if (l == 0) {
            Port& port = ports_[r][p];
            port.peer.kind = PortPeer::Kind::Node;
            port.peer.node = c * nodes_per_cluster_ + i * k + p;
            port.peer.link = kTerminalLink;
            port.role = Role::Down;
          }
          if (l + 1 < n) {
            // Up port k + p to (l+1, i with digit l = p), arriving at its down port digit l of i.
            connect(r, static_cast<PortId>(k + p), router_at(c, l + 1, with_digit(i, l, p)),
                    static_cast<PortId>(digit(i, l)), local, Role::Up, Role::Down);
            up_[r].push_back(static_cast<PortId>(k + p));
          }
        }
        // Horizontal chain of the logical node: this router's right block to its right neighbour's left block.
        if (w > 0 && l > 0) {
          const std::uint32_t chain = stride_[l], pos = i % chain;
          const PortId base = static_cast<PortId>(first_extra_port(l));
          for (std::uint32_t j = 0; j < w; ++j) {
            ports_[r][base + j].role = Role::Horizontal;
            ports_[r][base + w + j].role = Role::Horizontal;
          }
          if (pos + 1 < chain)
            for (std::uint32_t j = 0; j < w; ++j)
              connect(r, static_cast<PortId>(base + w + j), r + 1, static_cast<PortId>(base + j), local, Role::Horizontal,
                      Role::Horizontal);
        }
      }
  if (C > 1) {
    // Channel c toward the next cluster sits on leaf c, toward the previous one on leaf X + c
    // (2 clusters: the other cluster is both, one set of leaves). Port 2k carries the channel,
    // port 2k+1 the channel leaf's extra up-link to the spine of the same index (its port k).
    const std::uint32_t X = shape_.channels;
    channel_ports_.resize(static_cast<std::size_t>(C) * channel_leaves());
    for (std::uint32_t c = 0; c < C; ++c)
      for (std::uint32_t s = 0; s < neighbour_slots(); ++s)
        for (std::uint32_t x = 0; x < X; ++x) {
          const std::uint32_t leaf = s * X + x;
          const RouterId r = router_at(c, 0, leaf);
          channel_ports_[(c * neighbour_slots() + s) * X + x] = {r, static_cast<PortId>(2 * k)};
          ports_[r][2 * k].role = Role::Channel;
          if (shape_.channel_uplinks) {
            const RouterId spine = router_at(c, 1, leaf);
            connect(r, static_cast<PortId>(2 * k + 1), spine, static_cast<PortId>(k), local, Role::Up, Role::Down);
            up_[r].push_back(static_cast<PortId>(2 * k + 1));
            extra_down_[spine] = static_cast<PortId>(k);
          }
        }
    for (std::uint32_t c = 0; c < C; ++c) {
      const std::uint32_t next = (c + 1) % C;
      if (C == 2 && c == 1) break;  // one pair, wired once
      for (std::uint32_t x = 0; x < X; ++x) {
        const auto [a, pa] = channel_port(c, next, x);
        const auto [b, pb] = channel_port(next, c, x);
        connect(a, pa, b, pb, inter_cluster_, Role::Channel, Role::Channel);
      }
    }
  }
}

void MultistageTopology::connect(RouterId a, PortId pa, RouterId b, PortId pb, LinkClassId link, Role role_a,
                                 Role role_b) {
  Port& x = ports_[a][pa];
  Port& y = ports_[b][pb];
  if (x.peer.kind != PortPeer::Kind::None || y.peer.kind != PortPeer::Kind::None)
    throw std::logic_error("multistage wiring: a port is connected twice");
  x.peer = PortPeer{PortPeer::Kind::Router, 0, b, pb, link};
  y.peer = PortPeer{PortPeer::Kind::Router, 0, a, pa, link};
  x.role = role_a;
  y.role = role_b;
}

std::string MultistageTopology::describe() const {
  std::ostringstream os;
  const std::uint32_t k = shape_.k, n = shape_.n;
  if (shape_.type == "clos") {
    os << "3-stage Clos of " << k << "x" << k << " switches (folded)";
  } else if (shape_.clusters > 1) {
    os << shape_.clusters << " clusters" << (shape_.clusters > 2 ? " in a ring" : "") << " of two-level fat trees (k=" << k
       << "), " << shape_.channels << " inter-cluster channel" << (shape_.channels > 1 ? "s" : "") << " per direction";
  } else {
    os << k << "-ary " << n << "-tree";
    if (shape_.horizontal_width > 0) os << " with horizontal links of width " << shape_.horizontal_width;
  }
  os << ", " << num_nodes() << " nodes, " << num_routers() << " routers";
  return os.str();
}

bool MultistageTopology::above(RouterId r, RouterId leaf) const {
  if (cluster_of(r) != cluster_of(leaf)) return false;
  const std::uint32_t w = index(r), target = index(leaf);
  for (std::uint32_t pos = level(r); pos + 1 < shape_.n; ++pos)
    if (digit(w, pos) != digit(target, pos)) return false;
  return true;
}

std::uint32_t MultistageTopology::down_ports(RouterId r, RouterId leaf, PortId out[2]) const {
  const std::uint32_t l = level(r);
  if (l == 0 || !above(r, leaf)) return 0;
  std::uint32_t count = 0;
  out[count++] = static_cast<PortId>(digit(index(leaf), l - 1));
  const PortId extra = extra_down_[r];
  if (extra != kNoPort && ports_[r][extra].peer.router == leaf) out[count++] = extra;
  return count;
}

std::vector<PortId> MultistageTopology::horizontal_ports(RouterId r, int dir) const {
  std::vector<PortId> out;
  const std::uint32_t w = shape_.horizontal_width, l = level(r);
  if (w == 0 || l == 0 || dir == 0) return out;
  const PortId base = static_cast<PortId>(first_extra_port(l) + (dir > 0 ? w : 0));
  for (std::uint32_t j = 0; j < w; ++j)
    if (ports_[r][base + j].peer.kind == PortPeer::Kind::Router) out.push_back(static_cast<PortId>(base + j));
  return out;
}

int MultistageTopology::horizontal_direction(RouterId r, PortId in_port) const {
  const std::uint32_t l = level(r);
  if (shape_.horizontal_width == 0 || l == 0) return 0;
  if (in_port < ports_[r].size() && ports_[r][in_port].role == Role::Horizontal)
    return in_port < first_extra_port(l) + shape_.horizontal_width ? +1 : -1;  // arrived from the left: keep going right
  const std::uint32_t chain = stride_[l], pos = index(r) % chain;
  return 2 * pos < chain ? +1 : -1;
}

bool MultistageTopology::adjacent(std::uint32_t a, std::uint32_t b) const {
  const std::uint32_t C = shape_.clusters;
  return a != b && a < C && b < C && ((a + 1) % C == b || (b + 1) % C == a);
}

std::pair<RouterId, PortId> MultistageTopology::channel_port(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
  const std::uint32_t C = shape_.clusters, X = shape_.channels;
  if (!adjacent(a, b) || c >= X) throw std::logic_error("channel_port: no such inter-cluster channel");
  const std::uint32_t s = (C == 2 || (a + 1) % C == b) ? 0 : 1;
  return channel_ports_[(a * neighbour_slots() + s) * X + c];
}

std::uint32_t MultistageTopology::cluster_distance(std::uint32_t a, std::uint32_t b) const {
  const std::uint32_t C = shape_.clusters, fwd = (b + C - a) % C;
  return std::min(fwd, C - fwd) % C;
}

std::uint32_t MultistageTopology::next_cluster(std::uint32_t a, std::uint32_t b, bool clockwise) const {
  const std::uint32_t C = shape_.clusters, fwd = (b + C - a) % C, back = C - fwd;
  if (fwd < back || (fwd == back && clockwise)) return (a + 1) % C;
  return (a + C - 1) % C;
}

std::uint32_t MultistageTopology::max_crossings() const { return shape_.clusters / 2; }

std::uint64_t MultistageTopology::flow_hash(NodeId src, NodeId dst) {
  std::uint64_t x = (static_cast<std::uint64_t>(src) << 32) | dst;
  return splitmix64(x);
}

std::uint32_t MultistageTopology::default_channel(NodeId src, NodeId dst) const {
  return shape_.channels ? static_cast<std::uint32_t>(flow_hash(src, dst) % shape_.channels) : 0;
}

bool MultistageTopology::default_clockwise(NodeId src, NodeId dst) const { return ((flow_hash(src, dst) >> 32) & 1) != 0; }

std::uint32_t MultistageTopology::min_hops(NodeId src, NodeId dst) const {
  const std::uint32_t top = shape_.n - 1;
  auto intra = [&](RouterId a, RouterId b) -> std::uint32_t {
    if (shape_.turn_at_top) return 2 * top;
    if (a == b) return 0;
    std::uint32_t nca = 0;
    for (std::uint32_t pos = 0; pos + 1 < shape_.n; ++pos)
      if (digit(index(a), pos) != digit(index(b), pos)) nca = pos + 1;
    return 2 * nca;
  };
  RouterId cur = leaf_of(src);
  std::uint32_t c = cluster_of_node(src), hops = 0;
  const std::uint32_t dc = cluster_of_node(dst);
  while (c != dc) {
    const std::uint32_t next = next_cluster(c, dc, default_clockwise(src, dst));
    const auto [leaf, port] = channel_port(c, next, default_channel(src, dst));
    hops += intra(cur, leaf) + 1;
    cur = ports_[leaf][port].peer.router;
    c = next;
  }
  return hops + intra(cur, leaf_of(dst));
}

// ---- routing -----------------------------------------------------------------------------------

namespace {
// Spraying's per-flow round-robin pointers, kept where a packet enters the fabric: at a leaf one
// row per attached node, plus (at every router) one shared row for packets the router itself
// emits (a mechanism's control packets); one pointer per destination, starting at
// (src + dst) mod period so that flows do not all start at root 0.
class SprayPointers : public RoutingState {
 public:
  SprayPointers(const MultistageTopology& t, RouterId r)
      : local_(t.level(r) == 0 ? t.k() : 0), nodes_(t.num_nodes()) {
    ptr_.resize(static_cast<std::size_t>(local_ + 1) * nodes_);
    const NodeId first = local_ ? t.peer(r, 0).node : 0;
    for (std::uint32_t row = 0; row <= local_; ++row)
      for (NodeId d = 0; d < nodes_; ++d)
        ptr_[static_cast<std::size_t>(row) * nodes_ + d] = ((row < local_ ? first + row : 0) + d) % t.spray_period();
  }
  // The next selector of flow src->dst.
  std::uint32_t next(const MultistageTopology& t, RouterId here, NodeId src, NodeId dst) {
    const std::uint32_t row = local_ && t.leaf_of(src) == here ? src % local_ : local_;
    std::uint32_t& p = ptr_[static_cast<std::size_t>(row) * nodes_ + dst];
    const std::uint32_t s = p;
    p = (p + 1) % t.spray_period();
    return s;
  }

 private:
  std::uint32_t local_, nodes_;
  std::vector<std::uint32_t> ptr_;
};
}  // namespace

std::unique_ptr<RoutingState> MultistageRouting::make_state(RouterId r) const {
  if (policy_ != UpPolicy::Spray) return nullptr;
  return std::make_unique<SprayPointers>(t_, r);
}

std::uint32_t MultistageRouting::pick(RouteContext& ctx, std::uint32_t level, std::uint32_t count) const {
  const Packet& p = ctx.packet;
  if (MultistageRoute::has_via(p)) return (MultistageRoute::via(p) / t_.stride(level)) % count;
  switch (policy_) {
    case UpPolicy::DestinationModK: return (p.dst / t_.stride(level)) % count;
    case UpPolicy::SourceModK: return (p.src / t_.stride(level)) % count;
    case UpPolicy::Random:
    case UpPolicy::Spray: break;
  }
  return static_cast<std::uint32_t>(ctx.rng.below(count));
}

RouteResult MultistageRouting::route(RouteContext& ctx) const {
  Packet& p = ctx.packet;
  const RouterId r = ctx.router;
  const std::uint32_t k = t_.k(), lvl = t_.level(r);
  // What the packet does not carry yet is decided at the first router it reaches.
  if (policy_ == UpPolicy::Spray && !MultistageRoute::has_via(p)) {
    auto* ptrs = dynamic_cast<SprayPointers*>(ctx.state);
    if (!ptrs) throw std::logic_error("spray routing: router " + std::to_string(r) + " has no pointer state");
    MultistageRoute::pin_via(p, ptrs->next(t_, r, p.src, p.dst));
  }
  if (t_.clusters() > 1) {
    if (!MultistageRoute::has_channel(p)) MultistageRoute::pin_channel(p, t_.default_channel(p.src, p.dst));
    if (!MultistageRoute::has_direction(p)) MultistageRoute::pin_clockwise(p, t_.default_clockwise(p.src, p.dst));
  }
  if (t_.clusters() > 1 && MultistageRoute::channel(p) >= t_.channels())
    throw std::logic_error("packet " + std::to_string(p.id) + " pinned to inter-cluster channel " +
                           std::to_string(MultistageRoute::channel(p)) + " of " + std::to_string(t_.channels()));

  // Target: the destination's leaf and terminal port, or the leaf and port of the channel to
  // the next cluster on the way.
  std::uint8_t crossed = MultistageRoute::crossings(p);
  const std::uint32_t c = t_.cluster_of(r), dc = t_.cluster_of_node(p.dst);
  RouterId target;
  PortId last;
  if (c != dc) {
    const std::uint32_t next = t_.next_cluster(c, dc, MultistageRoute::clockwise(p));
    std::tie(target, last) = t_.channel_port(c, next, MultistageRoute::channel(p));
    if (r == target) {
      // Crossing a cluster boundary is a dateline: the channel and everything after it use the next VC level.
      MultistageRoute::set_crossings(p, ++crossed);
      return {last, crossed};
    }
  } else {
    target = t_.leaf_of(p.dst);
    last = static_cast<PortId>(p.dst % k);
  }
  // Entering: from a node, or from the router's own control source (an input beyond its ports).
  const bool known_port = ctx.in_port < t_.num_ports(r);
  const bool entering = lvl == 0 && (!known_port || ctx.in_port < k);
  const bool descending = known_port && t_.role(r, ctx.in_port) == MultistageTopology::Role::Up;
  if (r == target && !(t_.shape().turn_at_top && entering)) return {last, crossed};
  const bool go_down = t_.shape().turn_at_top ? (lvl + 1 == t_.levels() || descending) : t_.above(r, target);
  if (go_down) {
    PortId cand[2];
    const std::uint32_t n = t_.down_ports(r, target, cand);
    if (n == 0) throw std::logic_error("multistage routing: no down port toward the target");
    return {cand[n == 1 ? 0 : pick(ctx, lvl, n)], crossed};
  }
  const auto& ups = t_.up_ports(r);
  if (ups.empty()) throw std::logic_error("multistage routing: no up port at router " + std::to_string(r));
  return {ups[pick(ctx, lvl, static_cast<std::uint32_t>(ups.size()))], crossed};
}

// ---- routing algorithms (config) ----------------------------------------------------------------

namespace {
const MultistageTopology& multistage_of(const Topology& topo, const std::string& algorithm) {
  const auto* t = dynamic_cast<const MultistageTopology*>(&topo);
  if (!t)
    throw config::ConfigError("routing.algorithm: '" + algorithm +
                              "' needs a multistage topology (fattree, clos, modified_fattree, multicluster), not '" +
                              topo.name() + "'");
  return *t;
}

template <UpPolicy P>
struct MultistageRoutingParams : RoutingParams {
  static const char* name();
  static const config::Schema& schema();
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    return std::make_unique<MultistageRouting>(multistage_of(topo, name()), P);
  }
};
template <>
const char* MultistageRoutingParams<UpPolicy::Random>::name() { return "nca"; }
template <>
const char* MultistageRoutingParams<UpPolicy::DestinationModK>::name() { return "dmodk"; }
template <>
const char* MultistageRoutingParams<UpPolicy::SourceModK>::name() { return "smodk"; }
template <>
const char* MultistageRoutingParams<UpPolicy::Spray>::name() { return "spray"; }
template <>
const config::Schema& MultistageRoutingParams<UpPolicy::Random>::schema() {
  static config::Schema s(
      "Multistage nearest-common-ancestor routing: up to a router above the destination, each up port (and each of "
      "parallel down links) drawn at random from the router's RNG stream, then the unique path down.");
  return s;
}
template <>
const config::Schema& MultistageRoutingParams<UpPolicy::DestinationModK>::schema() {
  static config::Schema s(
      "Multistage d-mod-k: at level l the up port (and a choice among parallel down links) is floor(dst / k^l) mod "
      "(ports to choose from); every packet to one destination reaches the same root.");
  return s;
}
template <>
const config::Schema& MultistageRoutingParams<UpPolicy::SourceModK>::schema() {
  static config::Schema s(
      "Multistage s-mod-k: at level l the up port (and a choice among parallel down links) is floor(src / k^l) mod "
      "(ports to choose from).");
  return s;
}
template <>
const config::Schema& MultistageRoutingParams<UpPolicy::Spray>::schema() {
  static config::Schema s(
      "Multistage spraying via a chosen root: the source's leaf router gives each packet the next root of its flow "
      "(per-flow round-robin pointer, paper 002 section 3.2), carried in the packet; clos: the middle switch.");
  return s;
}
config::PolyRegistrar<RoutingParams, MultistageRoutingParams<UpPolicy::Random>> reg_nca("nca", "multistage nearest common ancestor, random up port");
config::PolyRegistrar<RoutingParams, MultistageRoutingParams<UpPolicy::DestinationModK>> reg_dmodk("dmodk", "multistage d-mod-k");
config::PolyRegistrar<RoutingParams, MultistageRoutingParams<UpPolicy::SourceModK>> reg_smodk("smodk", "multistage s-mod-k");
config::PolyRegistrar<RoutingParams, MultistageRoutingParams<UpPolicy::Spray>> reg_spray("spray", "multistage spraying via a per-packet root");
}  // namespace

}  // namespace ccnet
