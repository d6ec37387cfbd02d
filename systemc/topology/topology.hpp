// Topologies and routing functions, both registered by name (DESIGN.md section 5).
// A topology describes routers, their ports and what each port connects to; every connection
// is bidirectional (port p of router r is both an input and an output). A routing function
// maps (router, input port, packet) to an output port and a VC level; VC levels are how
// routing functions avoid deadlock (the router maps a level to VCs of the packet's vnet).
// docs/topologies.md describes each topology, its link classes and routing variants.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "core/packet.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace ccnet {

// Link classes come from a table each topology declares (Topology::link_classes()): a name and
// a one-line doc per class. A class's latency is `link.latency.<name>` and the input buffer depth
// of a router port fed by such a link is `router.buffer.<name>`, both looked up by name, so a
// new class is one entry in its topology's table. Class 0 of every topology is "terminal"
// (NIC <-> router).
using LinkClassId = std::uint8_t;
constexpr LinkClassId kTerminalLink = 0;
constexpr LinkClassId kNoLinkClass = 0xFF;
struct LinkClassInfo {
  std::string name;
  std::string doc;
};
// Classes several topologies share.
inline const LinkClassInfo kTerminalClass{"terminal", "NIC <-> router"};
inline const LinkClassInfo kLocalClass{"local", "router <-> router"};
inline const LinkClassInfo kGlobalClass{"global", "dragonfly: between groups"};

struct PortPeer {
  enum class Kind : std::uint8_t { None, Node, Router };
  Kind kind = Kind::None;
  NodeId node = 0;        // Kind::Node
  RouterId router = 0;    // Kind::Router
  PortId port = 0;        // Kind::Router: the peer's port index
  LinkClassId link = kTerminalLink;  // index into the topology's link_classes()
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual std::string name() const = 0;
  virtual std::uint32_t num_nodes() const = 0;
  virtual std::uint32_t num_routers() const = 0;
  virtual PortId num_ports(RouterId r) const = 0;
  virtual PortPeer peer(RouterId r, PortId p) const = 0;
  // Router and port a node attaches to.
  virtual std::pair<RouterId, PortId> attach(NodeId n) const = 0;
  // Routing algorithm used when the config says `routing: {algorithm: auto}`.
  virtual std::string default_routing() const = 0;
  // One-line description for summaries ("8x8 mesh, 64 nodes, 64 routers").
  virtual std::string describe() const = 0;
  // Router-to-router hops of a minimal route (for analytic zero-load latency).
  virtual std::uint32_t min_hops(NodeId src, NodeId dst) const = 0;
  // The classes of this topology's links (LinkClassId = index; class 0 is terminal).
  virtual const std::vector<LinkClassInfo>& link_classes() const = 0;
  // The id of the class named `name`, or kNoLinkClass.
  LinkClassId link_class(const std::string& name) const;
};

// Largest number of nodes or routers a topology may have: ids are 32-bit (NodeId, RouterId),
// and sizes are computed in 64 bits so that a product that would wrap is reported, not run.
constexpr std::uint64_t kMaxTopologySize = 0x7fffffffu;
// Throws config::ConfigError "<key>: <what> has N <things>; at most 2^31 - 1 are supported" if
// `count` exceeds kMaxTopologySize. The one place topology sizes are bounded.
void check_topology_size(std::uint64_t count, const char* key, const std::string& what, const char* things);
// Products for sizes that saturate at 2^64 - 1 instead of wrapping.
std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b);
std::uint64_t checked_pow(std::uint64_t base, std::uint32_t exp);

// What a routing function may look at: the local router's congestion estimates (credits in
// use and output-queue occupancy per output port, as UGAL-L needs) and its RNG stream.
class CongestionView {
 public:
  virtual ~CongestionView() = default;
  virtual std::uint32_t output_occupancy(PortId port) const = 0;
};

// Per-router mutable state of a routing function (e.g. spraying's per-flow pointers): created
// once per router by RoutingFunction::make_state, owned by the router, and handed back in every
// RouteContext of that router. Routing functions themselves are immutable once built.
class RoutingState {
 public:
  virtual ~RoutingState() = default;
};

struct RouteContext {
  RouterId router;
  PortId in_port;
  Packet& packet;
  RngStream& rng;
  const CongestionView& view;
  RoutingState* state = nullptr;  // this router's make_state() object (nullptr if it has none)
};

struct RouteResult {
  PortId port = kNoPort;
  std::uint8_t level = 0;
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  // Called once per packet per router, when its head flit arrives. May update the routing
  // words the packet carries (Packet::route), whose meaning this function defines.
  virtual RouteResult route(RouteContext& ctx) const = 0;
  // VC levels this function needs on every port for deadlock freedom.
  virtual std::uint8_t vc_levels() const = 0;
  // Per-router state, if this function keeps any.
  virtual std::unique_ptr<RoutingState> make_state(RouterId) const { return nullptr; }
};

// Polymorphic config sections: `topology: {type: ...}` and `routing: {algorithm: ...}`.
struct TopologyParams {
  virtual ~TopologyParams() = default;
  // Throws config::ConfigError("topology.<key>: what") when the parameters do not fit together.
  virtual std::unique_ptr<Topology> create() const = 0;
};
struct RoutingParams {
  virtual ~RoutingParams() = default;
  // Throws config::ConfigError if the algorithm does not apply to this topology.
  virtual std::unique_ptr<RoutingFunction> create(const Topology& topo) const = 0;
};

std::unique_ptr<RoutingFunction> make_routing(const config::Poly<RoutingParams>& routing,
                                              const Topology& topo);

}  // namespace ccnet
