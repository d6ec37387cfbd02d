// Congestion-control mechanisms as plug-ins (DESIGN.md section 5; how to write one:
// docs/writing-a-mechanism.md). A mechanism is selected by name (`cc: {mechanism: <name>, ...}`),
// declares the virtual networks it needs with their priorities, its packet kinds and flags, and
// creates the hooks it implements for each router and NIC; it may add modules and wires of its
// own to the network. The router and NIC call it only through these interfaces; there is no
// `if (mechanism == ...)` in the kernel.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "core/counters.hpp"
#include "core/packet.hpp"
#include "core/packet_format.hpp"
#include "core/trace_sink.hpp"
#include "core/types.hpp"
#include "nic/hooks.hpp"
#include "router/hooks.hpp"

namespace ccnet {

class Topology;
struct RouterConfig;
struct LinkConfig;
struct NicConfig;

// A virtual network: the papers' "traffic class" (data, ack, speculative, reservation, ...).
// Each vnet has its own VCs and credits, so a lossless vnet never waits behind a lossy one.
struct VnetSpec {
  std::string name;
  std::uint8_t priority = 0;  // higher wins switch and link arbitration
};

// What a mechanism learns when it is created (MechanismParams::create), before any router or
// NIC exists.
struct MechanismContext {
  const Topology& topology;
  const RouterConfig& router;
  std::uint64_t seed;
  bool acks;              // nic.acks: destinations acknowledge every data packet
  PacketFormat& format;   // declare the mechanism's packet kinds and flags here
  const LinkConfig& link;  // link latencies by class (e.g. to derive a round-trip time)
  const NicConfig& nic;    // NIC settings (packet size, ACKs, ejection buffer)
};

// What a mechanism may add to the network it runs in (Mechanism::build): modules and wires of
// its own, e.g. a central scheduler on fixed-latency channels to every NIC, or a second router
// plane (Routers from router/ joined by sc_signals). build() runs once, inside the network's
// elaboration, after every router and NIC exists with its hooks and is wired: modules
// constructed there are children of the network module ("net.<name>").
class NetworkBuilder {
 public:
  virtual ~NetworkBuilder() = default;
  virtual const Topology& topology() const = 0;
  virtual std::uint32_t num_nodes() const = 0;
  virtual std::uint32_t num_routers() const = 0;
  virtual sc_core::sc_clock& clock() = 0;
  virtual sc_core::sc_time period() const = 0;
  virtual std::uint64_t seed() const = 0;
  virtual PacketPool& packets() = 0;
  // The routers and NICs, and the hooks the mechanism created for them (nullptr: none).
  virtual RouterApi& router(RouterId r) = 0;
  virtual NicApi& nic(NodeId n) = 0;
  virtual RouterHooks* router_hooks(RouterId r) = 0;
  virtual NicHooks* nic_hooks(NodeId n) = 0;
  // Creates a T (a module, a signal, ...) that lives as long as the network.
  template <class T, class... Args>
  T& make(Args&&... args) {
    auto object = std::make_shared<T>(std::forward<Args>(args)...);
    T& ref = *object;
    keep(std::move(object));
    return ref;
  }
  // Traces a module created in build() like the routers and NICs (--trace-scope matches its
  // name and its signals' names, docs/tracing.md). The network keeps the reference.
  virtual void trace(TracedComponent& component) = 0;
  // Counters and series of the modules the mechanism adds (merged into stats.json's `cc`
  // section like the hooks' own).
  virtual CounterSet& counters() = 0;
  // Implementations of the mirrored blocks for the modules build() adds, as the routers' and NICs'
  // (RouterApi::block_source; null: the C++ cores).
  virtual const blocks::BlockSource* block_source() const = 0;

 protected:
  virtual void keep(std::shared_ptr<void> object) = 0;
};

class Mechanism : public VnetClassifier {
 public:
  ~Mechanism() override = default;
  virtual std::string name() const = 0;
  // Vnets in index order. Baseline: data (0) and control (1, high priority).
  virtual std::vector<VnetSpec> vnets() const = 0;
  // The vnet a packet travels on (VnetClassifier; the kernel stamps it once per packet).
  std::uint8_t vnet_of(const Packet& p) const override = 0;
  // Hooks for one router / NIC, or nullptr where the mechanism adds nothing there. Called right
  // after the router (NIC) is built: the hooks may query it (ports, buffer depths) and register
  // their counters in `counters` now.
  virtual std::unique_ptr<RouterHooks> router_hooks(RouterApi& /*router*/, CounterSet& /*counters*/) const {
    return nullptr;
  }
  virtual std::unique_ptr<NicHooks> nic_hooks(NicApi& /*nic*/, CounterSet& /*counters*/) const { return nullptr; }
  // Modules and wires of the mechanism's own (default: none).
  virtual void build(NetworkBuilder&) const {}
  // Whether destination NICs acknowledge every data packet (the mechanism may require it).
  virtual bool requires_acks() const { return false; }
  // Whether source NICs keep every unacknowledged data packet for retransmission (lossy
  // mechanisms). Requires ACKs.
  virtual bool keeps_retransmit_buffer() const { return false; }
  // The longest a source's injection policy may legitimately keep a ready send queue waiting
  // between two packets (e.g. a rate limiter's largest inter-packet delay), in cycles. The run's
  // watchdogs allow for it, so a throttled network is not reported as stuck (docs/outputs.md).
  virtual Cycle max_injection_gap() const { return 0; }
};

// `cc:` section parameters; each mechanism registers a params struct deriving from this.
struct MechanismParams {
  virtual ~MechanismParams() = default;
  virtual std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const = 0;
  // Cross-field validation against the router and NIC settings (throws config::ConfigError
  // through ctx.fail, naming the key).
  virtual void validate(const config::BindContext&, const RouterConfig&, const NicConfig&) const {}
};

}  // namespace ccnet
