// A router and a NIC without a network, for unit tests of a mechanism's hooks
// (docs/writing-a-mechanism.md, "Testing a hook alone"). The test sets the state a hook may
// query (ports, occupancies, credits, queued packets, send queues), calls the hook as the
// router or NIC would, and checks what the hook did: the packets it emitted or sent, holds,
// retransmissions, deliveries, counters. Mechanisms are made from a `cc:` YAML text through the
// same registry and schema as in a run (make_mechanism).
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cc/mechanism.hpp"
#include "core/config.hpp"
#include "core/counters.hpp"
#include "core/packet.hpp"
#include "core/registry.hpp"
#include "nic/hooks.hpp"
#include "nic/nic_config.hpp"
#include "router/hooks.hpp"
#include "router/router_config.hpp"
#include "topology/topology.hpp"

namespace ccnet::test {

// The packet flag / kind a mechanism declared under `name` in the pool's format (throws if none).
inline PacketFlag flag(const PacketPool& pool, const std::string& name) {
  for (unsigned b = kFirstMechanismFlag; b < pool.format().num_flags(); ++b)
    if (pool.format().flag_name(b) == name) return static_cast<PacketFlag>(1u << b);
  throw std::invalid_argument("no packet flag named " + name);
}
inline PacketKind kind(const PacketPool& pool, const std::string& name) {
  PacketKind k = PacketKind::Data;
  if (!pool.format().find_kind(name, k)) throw std::invalid_argument("no packet kind named " + name);
  return k;
}

// A topology of `nodes` nodes on one router (node n on port n); hooks that ask the topology get
// something consistent, tests that need more build a real network.
class SingleRouterTopology : public Topology {
 public:
  explicit SingleRouterTopology(std::uint32_t nodes) : nodes_(nodes) {}
  std::string name() const override { return "single_router"; }
  std::uint32_t num_nodes() const override { return nodes_; }
  std::uint32_t num_routers() const override { return 1; }
  PortId num_ports(RouterId) const override { return static_cast<PortId>(nodes_); }
  PortPeer peer(RouterId, PortId p) const override {
    PortPeer peer;
    peer.kind = PortPeer::Kind::Node;
    peer.node = p;
    peer.link = kTerminalLink;
    return peer;
  }
  std::pair<RouterId, PortId> attach(NodeId n) const override { return {0, static_cast<PortId>(n)}; }
  std::string default_routing() const override { return "none"; }
  std::string describe() const override { return "one router"; }
  std::uint32_t min_hops(NodeId, NodeId) const override { return 0; }
  const std::vector<LinkClassInfo>& link_classes() const override {
    static const std::vector<LinkClassInfo> classes{kTerminalClass};
    return classes;
  }

 private:
  std::uint32_t nodes_;
};

// A mechanism made from a `cc:` YAML map, e.g. "{mechanism: ecn, threshold: 0.5}", with the
// parameters kept alive beside it.
struct MadeMechanism {
  std::shared_ptr<MechanismParams> params;
  std::unique_ptr<Mechanism> mechanism;
  Mechanism* operator->() const { return mechanism.get(); }
};

inline MadeMechanism make_mechanism(const std::string& cc_yaml, const MechanismContext& ctx) {
  const YAML::Node node = YAML::Load(cc_yaml);
  const std::string name = node["mechanism"].as<std::string>();
  const auto* e = Registry<config::PolyEntry<MechanismParams>>::instance().find(name);
  if (!e) throw std::invalid_argument("no mechanism '" + name + "'");
  MadeMechanism m;
  m.params = e->make();
  e->schema->apply_defaults(m.params.get());
  config::BindContext bind("test");
  e->schema->bind(m.params.get(), node, bind, "cc", {"mechanism"});
  m.mechanism = m.params->create(ctx);
  return m;
}

// Everything a mechanism is created from, with defaults a test may change before make().
struct FakeNetwork {
  explicit FakeNetwork(std::uint32_t nodes = 4, bool with_acks = true) : topology(nodes), acks(with_acks) {
    LinkConfig::schema().apply_defaults(&link);
    NicConfig::schema().apply_defaults(&nic);
  }
  SingleRouterTopology topology;
  RouterConfig router;
  LinkConfig link;
  NicConfig nic;
  PacketPool packets;
  bool acks;
  MadeMechanism make(const std::string& cc_yaml) {
    return make_mechanism(cc_yaml, MechanismContext{topology, router, 1, acks, packets.format(), link, nic});
  }
};

class FakeRouter : public RouterApi {
 public:
  // `ports` input buffers of `depth` flits per VC, each a terminal port to node p (change
  // ports_ for other shapes); `num_vnets` x `vcs_per_vnet` VCs per port.
  FakeRouter(PacketPool& packets, const Topology& topology, PortId ports, std::uint32_t depth, std::uint32_t num_vnets,
             std::uint32_t vcs_per_vnet = 1)
      : packets_(packets), topology_(topology), vcs_per_vnet_(vcs_per_vnet), num_vcs_(num_vnets * vcs_per_vnet) {
    for (PortId p = 0; p < ports; ++p) {
      PortInfo info;
      info.peer = topology.peer(0, p);
      info.in_depth = depth;
      info.out_depth = depth;
      info.latency = 1;
      ports_.push_back(info);
    }
    emit_room.assign(num_vnets, 64);
  }

  // State a test sets.
  Cycle cycle = 0;
  std::vector<PortInfo> ports_;
  std::uint32_t oq_depth = 0;
  std::map<std::pair<PortId, VcId>, std::uint32_t> in_occupancy, credits, oq_occupancy;
  std::vector<std::pair<Packet*, QueuedAt>> queued;  // what visit_input/visit_output see
  RouteResult route_result{0, 0};                      // default_route()'s answer
  std::vector<std::uint32_t> emit_room;                // flits free in the control source, per vnet
  const VnetClassifier* vnets = nullptr;               // stamps emitted packets (the mechanism)
  // What hooks did.
  std::vector<PacketId> emitted;

  RouterId id() const override { return 0; }
  Cycle now() const override { return cycle; }
  PacketPool& packets() override { return packets_; }
  const Topology& topology() const override { return topology_; }
  PortId num_ports() const override { return static_cast<PortId>(ports_.size()); }
  const PortInfo& port(PortId p) const override { return ports_.at(p); }
  std::uint32_t output_buffer() const override { return oq_depth; }
  const blocks::BlockSource* block_source() const override { return nullptr; }
  const char* component_name() const override { return "fake_router"; }
  std::uint32_t num_vcs() const override { return num_vcs_; }
  std::uint8_t vnet_of_vc(VcId vc) const override { return static_cast<std::uint8_t>(vc / vcs_per_vnet_); }
  PortId terminal_port_of(NodeId n) const override {
    for (PortId p = 0; p < ports_.size(); ++p)
      if (ports_[p].terminal() && ports_[p].peer.node == n) return p;
    return kNoPort;
  }
  std::uint32_t input_occupancy(PortId port, VcId vc) const override { return get(in_occupancy, port, vc); }
  std::uint32_t input_occupancy(PortId port) const override {
    std::uint32_t n = 0;
    for (VcId v = 0; v < num_vcs_; ++v) n += get(in_occupancy, port, v);
    return n;
  }
  std::uint32_t output_credits(PortId port, VcId vc) const override { return get(credits, port, vc); }
  std::uint32_t output_queue_occupancy(PortId port, VcId vc) const override { return get(oq_occupancy, port, vc); }
  std::uint32_t output_occupancy(PortId port) const override {
    std::uint32_t n = 0;
    for (VcId v = 0; v < num_vcs_; ++v) n += ports_.at(port).out_depth - get(credits, port, v) + get(oq_occupancy, port, v);
    return n;
  }
  void visit_input(PortId in, const QueuedPacketVisitor& visit) override {
    for (auto& [p, at] : queued)
      if (!at.output_queue && at.in_port == in) visit(*p, at);
  }
  void visit_output(PortId out, const QueuedPacketVisitor& visit) override {
    for (auto& [p, at] : queued)
      if (at.out_port == out) visit(*p, at);
  }
  RouteResult default_route(Packet&, PortId) override { return route_result; }
  bool emit(Packet& p) override {
    const std::uint8_t vnet = vnets ? vnets->vnet_of(p) : 0;
    if (!can_emit(vnet, p.size)) return false;
    p.vnet = vnet;
    p.injected = cycle;
    emit_room.at(vnet) -= p.size;
    emitted.push_back(p.id);
    return true;
  }
  bool can_emit(std::uint8_t vnet, std::uint32_t flits) const override { return emit_room.at(vnet) >= flits; }

 private:
  static std::uint32_t get(const std::map<std::pair<PortId, VcId>, std::uint32_t>& m, PortId p, VcId v) {
    const auto it = m.find({p, v});
    return it == m.end() ? 0 : it->second;
  }
  PacketPool& packets_;
  const Topology& topology_;
  std::uint32_t vcs_per_vnet_, num_vcs_;
};

class FakeNic : public NicApi {
 public:
  FakeNic(PacketPool& packets, NodeId id, std::uint32_t nodes) : packets_(packets), id_(id), nodes_(nodes) {}

  // State a test sets.
  Cycle cycle = 0;
  bool in_window = true;
  std::map<NodeId, MessageId> head;  // head_message()
  std::map<std::uint8_t, std::uint32_t> vnet_credits;  // injection_credits() (absent: 0)
  std::map<NodeId, SendQueueLength> queues;
  const VnetClassifier* vnets = nullptr;  // stamps sent control packets (the mechanism)
  // What hooks did.
  struct Retransmission {
    MessageId message;
    std::uint32_t seq;
    Cycle at;
    std::uint32_t flags;
  };
  std::vector<PacketId> sent;  // control packets, in order
  std::map<NodeId, Cycle> holds;
  std::vector<Retransmission> retransmissions;
  std::vector<PacketId> delivered;
  std::map<std::uint8_t, bool> stalled;

  NodeId id() const override { return id_; }
  Cycle now() const override { return cycle; }
  PacketPool& packets() override { return packets_; }
  std::uint32_t num_nodes() const override { return nodes_; }
  bool measuring() const override { return in_window; }
  const blocks::BlockSource* block_source() const override { return nullptr; }
  const char* component_name() const override { return "fake_nic"; }
  void send_control(Packet& p) override {
    p.src = id_;
    p.vnet = vnets ? vnets->vnet_of(p) : 0;
    sent.push_back(p.id);
  }
  void hold(NodeId dst, Cycle until) override { holds[dst] = until; }
  bool head_message(NodeId dst, MessageId& m) const override {
    const auto it = head.find(dst);
    if (it == head.end()) return false;
    m = it->second;
    return true;
  }
  SendQueueLength send_queue(NodeId dst) const override {
    const auto it = queues.find(dst);
    return it == queues.end() ? SendQueueLength{} : it->second;
  }
  std::uint32_t injection_credits(std::uint8_t vnet) const override {
    const auto it = vnet_credits.find(vnet);
    return it == vnet_credits.end() ? 0 : it->second;
  }
  bool retransmit(MessageId message, std::uint32_t seq, Cycle at, std::uint32_t flags) override {
    retransmissions.push_back({message, seq, at, flags});
    return true;
  }
  void deliver(PacketId held) override { delivered.push_back(held); }
  void stall_ejection(std::uint8_t vnet, bool s) override { stalled[vnet] = s; }

  // The control packets sent so far, as packets.
  const Packet& sent_packet(std::size_t i) const { return packets_[sent.at(i)]; }

 private:
  PacketPool& packets_;
  NodeId id_;
  std::uint32_t nodes_;
};

}  // namespace ccnet::test
