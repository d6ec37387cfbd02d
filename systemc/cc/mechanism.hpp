// Congestion-control mechanisms as plug-ins (DESIGN.md section 5). A mechanism is selected by
// name (`cc: {mechanism: <name>, ...}`), declares the virtual networks it needs with their
// priorities, and creates the hooks it implements for each router and NIC. The router and NIC
// call hooks only through these interfaces; there is no `if (mechanism == ...)` in the kernel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "blocks/injection_engine.hpp"
#include "core/config.hpp"
#include "core/packet.hpp"
#include "core/types.hpp"
#include "nic/hooks.hpp"
#include "router/hooks.hpp"

namespace ccnet {

class Topology;
struct RouterConfig;
struct NicConfig;

// A virtual network: the papers' "traffic class" (data, ack, speculative, reservation, ...).
// Each vnet has its own VCs and credits, so a lossless vnet never waits behind a lossy one.
struct VnetSpec {
  std::string name;
  std::uint8_t priority = 0;  // higher wins switch and link arbitration
};

struct MechanismContext {
  const Topology& topology;
  const RouterConfig& router;
  std::uint64_t seed;
  bool acks;           // nic.acks: destinations acknowledge every data packet
  PortId max_ports;    // largest router radix
};

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  virtual std::string name() const = 0;
  // Vnets in index order. Baseline: data (0) and ack (1, high priority).
  virtual std::vector<VnetSpec> vnets() const = 0;
  // The vnet a packet travels on.
  virtual std::uint8_t vnet_of(const Packet& p) const = 0;
  // Hooks for one router / NIC, or nullptr where the mechanism adds nothing there.
  virtual std::unique_ptr<RouterHooks> router_hooks(RouterId, const MechanismContext&) const { return nullptr; }
  virtual std::unique_ptr<NicHooks> nic_hooks(NodeId, const MechanismContext&) const { return nullptr; }
  // Whether destination NICs acknowledge every data packet (the mechanism may require it).
  virtual bool requires_acks() const { return false; }
  // Rate-control parameters of every NIC's injection engine (default: rate control off).
  virtual void configure_injection(blocks::InjectionEngineParams&) const {}
  // Whether source NICs keep every unacknowledged data packet for retransmission (lossy
  // mechanisms). Requires ACKs.
  virtual bool keeps_retransmit_buffer() const { return false; }
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
