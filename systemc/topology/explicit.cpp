// An explicit topology written out in the configuration: where each node attaches, a list of
// router-to-router links (each with its link class), and a routing table. It is for small
// directed tests, e.g. a mechanism's hook on a hand-made network of three routers:
//
//   topology:
//     type: explicit
//     routers: 2
//     nodes: [{router: 0, port: 0}, {router: 1, port: 0}]
//     links: [{a: [0, 1], b: [1, 1], class: local}]
//     routes: [{router: 0, dst: [1], port: 1}, {router: 1, dst: [0], port: 1}]
//   routing: {algorithm: table}           # the default for this topology
//
// A router's route to a node attached to it is implicit (its terminal port, level 0). At
// creation every route from every node to every other one is walked: a missing entry, a wrong
// turn into another node or a loop is an error naming the key.
#include <algorithm>
#include <sstream>

#include "topology/topology.hpp"

namespace ccnet {
namespace {

struct ExplicitNode {
  std::uint32_t router = 0;
  std::uint32_t port = 0;
  static const config::Schema& schema() {
    static config::Schema s("Where a node attaches (node i is the i-th entry).");
    static bool init = [] {
      config::Declare<ExplicitNode>(s)
          .field("router", &ExplicitNode::router, 0u, "router")
          .field("port", &ExplicitNode::port, 0u, "port of that router");
      return true;
    }();
    (void)init;
    return s;
  }
};

struct ExplicitLink {
  std::vector<std::uint32_t> a, b;
  std::string link_class = "local";
  static const config::Schema& schema() {
    static config::Schema s("A bidirectional router-to-router link.");
    static bool init = [] {
      config::Declare<ExplicitLink>(s)
          .list("a", &ExplicitLink::a, {}, "one end: [router, port]")
          .list("b", &ExplicitLink::b, {}, "the other end: [router, port]")
          .str("class", &ExplicitLink::link_class, "local",
               "link class (its latency and buffer depth: link.latency.<class>, router.buffer.<class>)");
      return true;
    }();
    (void)init;
    return s;
  }
};

struct ExplicitRoute {
  std::uint32_t router = 0;
  std::vector<std::uint32_t> dst;
  std::uint32_t port = 0;
  std::uint32_t level = 0;
  static const config::Schema& schema() {
    static config::Schema s("A routing-table entry: at `router`, packets for the nodes in `dst` leave on `port`.");
    static bool init = [] {
      config::Declare<ExplicitRoute>(s)
          .field("router", &ExplicitRoute::router, 0u, "router")
          .list("dst", &ExplicitRoute::dst, {}, "destination nodes")
          .field("port", &ExplicitRoute::port, 0u, "output port")
          .field("level", &ExplicitRoute::level, 0u, "VC level of the output VC", {0, 15});
      return true;
    }();
    (void)init;
    return s;
  }
};

class ExplicitTopology : public Topology {
 public:
  std::string name() const override { return "explicit"; }
  std::uint32_t num_nodes() const override { return static_cast<std::uint32_t>(attach_.size()); }
  std::uint32_t num_routers() const override { return static_cast<std::uint32_t>(ports_.size()); }
  PortId num_ports(RouterId r) const override { return static_cast<PortId>(ports_[r].size()); }
  PortPeer peer(RouterId r, PortId p) const override { return ports_[r][p]; }
  std::pair<RouterId, PortId> attach(NodeId n) const override { return attach_[n]; }
  std::string default_routing() const override { return "table"; }
  std::string describe() const override {
    std::ostringstream os;
    os << "explicit topology, " << num_nodes() << " nodes, " << num_routers() << " routers, " << links_ << " links";
    return os.str();
  }
  std::uint32_t min_hops(NodeId src, NodeId dst) const override {
    std::uint32_t hops = 0;
    RouterId r = attach_[src].first;
    for (PortPeer pp = ports_[r][entry(r, dst).port]; pp.kind == PortPeer::Kind::Router; pp = ports_[r][entry(r, dst).port]) {
      r = pp.router;
      ++hops;
    }
    return hops;
  }
  const std::vector<LinkClassInfo>& link_classes() const override { return classes_; }
  const RouteResult& entry(RouterId r, NodeId dst) const { return table_[static_cast<std::size_t>(r) * num_nodes() + dst]; }
  std::uint8_t levels() const { return levels_; }

  static std::unique_ptr<ExplicitTopology> build(std::uint32_t routers, const std::vector<ExplicitNode>& nodes,
                                                 const std::vector<ExplicitLink>& links,
                                                 const std::vector<ExplicitRoute>& routes);

 private:
  std::vector<std::vector<PortPeer>> ports_;
  std::vector<std::pair<RouterId, PortId>> attach_;
  std::vector<LinkClassInfo> classes_;
  std::vector<RouteResult> table_;
  std::uint32_t links_ = 0;
  std::uint8_t levels_ = 1;
};

[[noreturn]] void fail(const std::string& key, const std::string& what) { throw config::ConfigError(key + ": " + what); }
constexpr std::uint32_t kMaxPorts = 256;

std::unique_ptr<ExplicitTopology> ExplicitTopology::build(std::uint32_t routers, const std::vector<ExplicitNode>& nodes,
                                                          const std::vector<ExplicitLink>& links,
                                                          const std::vector<ExplicitRoute>& routes) {
  if (nodes.empty()) fail("topology.nodes", "an explicit topology needs at least one node");
  if (static_cast<std::uint64_t>(routers) * nodes.size() > (1u << 24))
    fail("topology.routers", "an explicit topology is for small tests: routers x nodes must stay within 2^24");
  auto t = std::make_unique<ExplicitTopology>();
  t->ports_.resize(routers);
  t->classes_ = {kTerminalClass};
  // Occupy (router, port) once; grows the router's port list as needed.
  auto occupy = [&](const std::string& key, std::uint32_t r, std::uint32_t p, const PortPeer& peer) {
    if (r >= routers) fail(key, "router " + std::to_string(r) + " does not exist (" + std::to_string(routers) + " routers)");
    if (p >= kMaxPorts) fail(key, "port " + std::to_string(p) + " is beyond the " + std::to_string(kMaxPorts) + " ports a router may have here");
    auto& ports = t->ports_[r];
    if (ports.size() <= p) ports.resize(p + 1);
    if (ports[p].kind != PortPeer::Kind::None) fail(key, "port " + std::to_string(p) + " of router " + std::to_string(r) + " is already connected");
    ports[p] = peer;
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    PortPeer pp;
    pp.kind = PortPeer::Kind::Node;
    pp.node = static_cast<NodeId>(i);
    pp.link = kTerminalLink;
    occupy("topology.nodes[" + std::to_string(i) + "]", nodes[i].router, nodes[i].port, pp);
    t->attach_.emplace_back(nodes[i].router, static_cast<PortId>(nodes[i].port));
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string key = "topology.links[" + std::to_string(i) + "]";
    const ExplicitLink& l = links[i];
    if (l.a.size() != 2) fail(key + ".a", "expected [router, port]");
    if (l.b.size() != 2) fail(key + ".b", "expected [router, port]");
    if (l.link_class.empty() || l.link_class == kTerminalClass.name)
      fail(key + ".class", "a router-to-router link needs a class other than 'terminal'");
    LinkClassId cls = t->link_class(l.link_class);
    if (cls == kNoLinkClass) {
      if (t->classes_.size() >= kNoLinkClass) fail(key + ".class", "too many link classes");
      cls = static_cast<LinkClassId>(t->classes_.size());
      t->classes_.push_back({l.link_class, "explicit topology links"});
    }
    occupy(key + ".a", l.a[0], l.a[1], PortPeer{PortPeer::Kind::Router, 0, l.b[0], static_cast<PortId>(l.b[1]), cls});
    occupy(key + ".b", l.b[0], l.b[1], PortPeer{PortPeer::Kind::Router, 0, l.a[0], static_cast<PortId>(l.a[1]), cls});
    ++t->links_;
  }
  const std::uint32_t n = t->num_nodes();
  t->table_.assign(static_cast<std::size_t>(routers) * n, RouteResult{});
  for (NodeId d = 0; d < n; ++d) t->table_[static_cast<std::size_t>(t->attach_[d].first) * n + d] = {t->attach_[d].second, 0};
  std::vector<std::size_t> given(t->table_.size(), routes.size());
  for (std::size_t i = 0; i < routes.size(); ++i) {
    const std::string key = "topology.routes[" + std::to_string(i) + "]";
    const ExplicitRoute& e = routes[i];
    if (e.router >= routers) fail(key + ".router", "router " + std::to_string(e.router) + " does not exist (" + std::to_string(routers) + " routers)");
    if (e.port >= t->ports_[e.router].size() || t->ports_[e.router][e.port].kind == PortPeer::Kind::None)
      fail(key + ".port", "port " + std::to_string(e.port) + " of router " + std::to_string(e.router) + " is not connected");
    if (e.dst.empty()) fail(key + ".dst", "no destination");
    for (NodeId d : e.dst) {
      if (d >= n) fail(key + ".dst", "node " + std::to_string(d) + " does not exist (" + std::to_string(n) + " nodes)");
      const std::size_t at = static_cast<std::size_t>(e.router) * n + d;
      if (given[at] < routes.size())
        fail(key + ".dst", "router " + std::to_string(e.router) + " already has a route to node " + std::to_string(d) +
                               " (topology.routes[" + std::to_string(given[at]) + "])");
      given[at] = i;
      t->table_[at] = {static_cast<PortId>(e.port), static_cast<std::uint8_t>(e.level)};
      t->levels_ = std::max<std::uint8_t>(t->levels_, static_cast<std::uint8_t>(e.level + 1));
    }
  }
  // Every route must reach its destination.
  for (NodeId s = 0; s < n; ++s)
    for (NodeId d = 0; d < n; ++d) {
      if (s == d) continue;
      RouterId r = t->attach_[s].first;
      for (std::uint32_t hops = 0;; ++hops) {
        const RouteResult& e = t->entry(r, d);
        const std::string from = " (on the way from node " + std::to_string(s) + ")";
        if (e.port == kNoPort) fail("topology.routes", "router " + std::to_string(r) + " has no route to node " + std::to_string(d) + from);
        const PortPeer& pp = t->ports_[r][e.port];
        if (pp.kind == PortPeer::Kind::Node) {
          if (pp.node != d)
            fail("topology.routes", "router " + std::to_string(r) + " sends packets for node " + std::to_string(d) +
                                        " to node " + std::to_string(pp.node) + from);
          break;
        }
        if (hops >= routers) fail("topology.routes", "the route from node " + std::to_string(s) + " to node " + std::to_string(d) + " loops");
        r = pp.router;
      }
    }
  return t;
}

struct ExplicitParams : TopologyParams {
  std::uint32_t routers = 1;
  std::vector<ExplicitNode> nodes;
  std::vector<ExplicitLink> links;
  std::vector<ExplicitRoute> routes;
  static const config::Schema& schema() {
    static config::Schema s(
        "An explicit topology for small directed tests: node attachments, router-to-router links with their classes, and "
        "a routing table (routing algorithm `table`). Link classes: terminal and those the links name.");
    static bool init = [] {
      config::Declare<ExplicitParams>(s)
          .field("routers", &ExplicitParams::routers, 1u, "number of routers", {1, 1u << 16})
          .sections("nodes", &ExplicitParams::nodes, 1, "where each node attaches, node 0 first")
          .sections("links", &ExplicitParams::links, 0, "router-to-router links")
          .sections("routes", &ExplicitParams::routes, 0, "routing table (a router's own nodes are implicit)");
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override { return ExplicitTopology::build(routers, nodes, links, routes); }
};
config::PolyRegistrar<TopologyParams, ExplicitParams> reg_explicit("explicit", "link list and routing table from the configuration");

class TableRouting : public RoutingFunction {
 public:
  explicit TableRouting(const ExplicitTopology& t) : t_(t) {}
  RouteResult route(RouteContext& ctx) const override {
    const RouteResult& e = t_.entry(ctx.router, ctx.packet.dst);
    if (e.port == kNoPort)
      throw std::logic_error("table routing: router " + std::to_string(ctx.router) + " has no route to node " +
                             std::to_string(ctx.packet.dst));
    return e;
  }
  std::uint8_t vc_levels() const override { return t_.levels(); }

 private:
  const ExplicitTopology& t_;
};

struct TableParams : RoutingParams {
  static const config::Schema& schema() {
    static config::Schema s("The routing table of an explicit topology (topology.routes).");
    return s;
  }
  std::unique_ptr<RoutingFunction> create(const Topology& topo) const override {
    const auto* t = dynamic_cast<const ExplicitTopology*>(&topo);
    if (!t) throw config::ConfigError("routing.algorithm: 'table' needs topology 'explicit', not '" + topo.name() + "'");
    return std::make_unique<TableRouting>(*t);
  }
};
config::PolyRegistrar<RoutingParams, TableParams> reg_table("table", "explicit routing table");

}  // namespace
}  // namespace ccnet
