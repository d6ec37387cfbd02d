// The switch side of the request/grant mechanisms (reqgrant.cpp, inband.cpp): hooks on the A/C
// routers that only observe the paper's invariants (notes R15), and the fabric both run on.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "cc/mechanism.hpp"
#include "topology/multistage.hpp"

namespace ccnet::reqgrant {

// On the A/C routers (level 0 of the folded Clos): the occupancy of the crosspoint a packet from
// a middle switch enters (its VOQ at the C input, with router.voq), of the output queue toward an
// adapter it enters (CIOQ), and the cycles an output to an adapter had no credit on the data vnet
// (the egress back-pressuring the fabric).
class InvariantObserver final : public RouterHooks {
 public:
  InvariantObserver(std::uint32_t m, bool all_vnets_data, CounterSet& c)
      : m_(m), all_data_(all_vnets_data), xp_peak_(c.counter("c_crosspoint_peak", CounterSet::Merge::Max)),
        oq_peak_(c.counter("c_output_queue_peak", CounterSet::Merge::Max)), stall_(c.counter("egress_backpressure_cycles")) {}
  ArrivalAction on_arrival(RouterApi&, Packet& p, const BufferState& b) override {
    if (p.kind == PacketKind::Data && b.port >= m_) xp_peak_ = std::max<std::uint64_t>(xp_peak_, b.voq_occupancy);
    return ArrivalAction::Accept;
  }
  void on_output_enqueue(RouterApi&, Packet& p, const BufferState& b) override {
    if (p.kind == PacketKind::Data && b.port < m_) oq_peak_ = std::max<std::uint64_t>(oq_peak_, b.occupancy);
  }
  void tick(RouterApi& api) override {
    for (PortId port = 0; port < m_; ++port)
      for (VcId v = 0; v < api.num_vcs(); ++v)
        if ((all_data_ || api.vnet_of_vc(v) == 0) && api.output_credits(port, v) == 0) ++stall_;
  }

 private:
  std::uint32_t m_;
  bool all_data_;  // netvoq: every vnet carries data (one per destination)
  std::uint64_t &xp_peak_, &oq_peak_, &stall_;
};

// The observer on the routers with adapters attached (the A/C routers, level 0 of the folded
// Clos); none on the middle switches.
inline std::unique_ptr<RouterHooks> edge_observer(RouterApi& r, std::uint32_t m, bool all_vnets_data, CounterSet& c) {
  for (PortId port = 0; port < r.num_ports(); ++port)
    if (r.port(port).terminal()) return std::make_unique<InvariantObserver>(m, all_vnets_data, c);
  return nullptr;
}

// The three-stage Clos a request/grant mechanism runs on; `who` names it in the error.
inline const MultistageTopology& require_clos(const MechanismContext& ctx, const char* who) {
  const auto* t = dynamic_cast<const MultistageTopology*>(&ctx.topology);
  if (!t || t->name() != "clos")
    throw config::ConfigError(fmt::format("cc.mechanism: {} runs on a three-stage Clos (topology.type: clos), not '{}'", who,
                                          ctx.topology.name()));
  return *t;
}

}  // namespace ccnet::reqgrant
