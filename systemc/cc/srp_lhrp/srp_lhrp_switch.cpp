// Switch side of SRP/SMSRP/LHRP: the speculative queuing-timeout drop (SRP, SMSRP, LHRP fabric
// drop) and the last-hop scheduler (LHRP drops and retransmission times, reservations served at
// the last hop). Every drop emits exactly one NACK from the switch's own control source; when
// that source is full the packet is not dropped.
#include <memory>
#include <ostream>
#include <vector>

#include "blocks/swap.hpp"
#include "cc/srp_lhrp/srp_lhrp.hpp"
#include "core/error.hpp"
#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "router/router_config.hpp"

namespace ccnet::srp_lhrp {
namespace {

class SwitchHooks : public RouterHooks {
 public:
  // The scheduler's endpoints are indexed by output port (terminal ports only are used); its
  // arrival lanes are the input ports.
  SwitchHooks(const Params& p, const Vnets& v, const Format& f, const RouterApi& router)
      : p_(p), v_(v), f_(f),
        sched_(blocks::LhrpSchedulerParams{router.num_ports(), p.last_hop_drop() ? p.threshold : 0xffffffffu},
               router.num_ports(), router.block_source(), std::string(router.component_name()) + " lhrp scheduler") {}

  std::uint32_t uses() const override { return p_.timeout_drop() ? std::uint32_t{kHeadScan} : 0u; }

  ArrivalAction on_arrival(RouterApi& api, Packet& pkt, const BufferState&) override {
    const PortId e = api.terminal_port_of(pkt.dst);
    if (e == kNoPort) return ArrivalAction::Accept;  // not the last hop
    if (pkt.kind == f_.res && p_.last_hop_scheduler()) {
      const auto d = sched_.arrive({e, pkt.amount, blocks::LhrpKind::Reservation}, api.now(), true);
      queue_grant(api, pkt, d.time);
      return ArrivalAction::Consume;
    }
    if (pkt.kind != PacketKind::Data) return ArrivalAction::Accept;
    const bool spec = pkt.has(f_.spec);
    const bool slot = api.can_emit(v_.ack, 1);
    const auto d = sched_.arrive({e, pkt.size, spec ? blocks::LhrpKind::Speculative : blocks::LhrpKind::Data}, api.now(), slot);
    if (!d.drop) return ArrivalAction::Accept;
    nack(api, pkt, true, d.time);
    return ArrivalAction::Drop;
  }

  void on_output_tail(RouterApi& api, Packet& pkt, PortId out) override {
    if (pkt.kind == PacketKind::Data && api.terminal_port_of(pkt.dst) == out) {
      sched_.depart(api.now(), out, pkt.size);
      check(api);
    }
  }

  bool on_queue_head(RouterApi& api, Packet& pkt, PortId, Cycle waiting_since) override {
    if (pkt.kind != PacketKind::Data || !pkt.has(f_.spec)) return false;
    // Queuing time only: a timeout shorter than the router pipeline must not drop every packet.
    if (api.now() < waiting_since + p_.timeout || !api.can_emit(v_.ack, 1)) return false;
    // Counted at arrival for its last-hop endpoint: it will never leave on the ejection port.
    const PortId e = api.terminal_port_of(pkt.dst);
    if (e != kNoPort) sched_.depart(api.now(), e, pkt.size);
    nack(api, pkt, false, 0);
    return true;
  }

  // Waveforms: the last-hop scheduler's per-endpoint state (docs/tracing.md).
  void trace(TraceSink& s) override {
    for (std::uint32_t e = 0; e < sched_.params().endpoints; ++e) {
      s.value(sched_.queued_ref(e), "lhrp.endpoint_" + std::to_string(e) + ".queued");
      s.value(sched_.next_free_ref(e), "lhrp.endpoint_" + std::to_string(e) + ".next_free");
    }
  }

  void dump_state(std::ostream& os) const override {
    for (const PacketId g : grants_) os << "  grant waiting for the control source: packet " << g << "\n";
  }

  void tick(RouterApi& api) override {
    sched_.sync(api.now());
    // Grants wait for room in the switch's control source.
    while (!grants_.empty() && api.can_emit(v_.gnt, 1)) {
      Packet& g = api.packets()[grants_.front()];
      if (!api.emit(g)) break;
      grants_.erase(grants_.begin());
    }
  }

 private:
  void nack(RouterApi& api, const Packet& pkt, bool timed, Cycle t) {
    Packet& n = api.packets().control(f_.nack, pkt, pkt.dst, pkt.src, api.now());
    n.amount = pkt.size;  // flits dropped
    if (timed) {
      n.set(f_.timed);
      n.payload[kTimeWord] = t;
    }
    if (PacketWatch* w = api.packets().watch()) w->answered(pkt, n, api.now(), {});
    if (!api.emit(n)) throw ModelError("router " + std::to_string(api.id()) + ": NACK queue full after a drop");
  }
  void queue_grant(RouterApi& api, const Packet& res, Cycle t) {
    Packet& g = api.packets().control(f_.gnt, res, res.dst, res.src, api.now());  // seq tags coalesced reservations
    g.set(f_.timed);
    g.payload[kTimeWord] = t;
    if (PacketWatch* w = api.packets().watch()) w->answered(res, g, api.now(), {});
    grants_.push_back(g.id);
  }
  void check(RouterApi& api) const {
    if (sched_.error())
      throw ModelError("router " + std::to_string(api.id()) + ": LHRP queued-flit counter went negative");
  }
  const Params& p_;
  Vnets v_;
  Format f_;
  blocks::LhrpSchedulerSlot sched_;
  std::vector<PacketId> grants_;
};

}  // namespace

std::unique_ptr<RouterHooks> make_switch_hooks(const Params& p, const Vnets& v, const Format& f, const RouterApi& router) {
  if (!p.last_hop_scheduler() && !p.timeout_drop()) return nullptr;
  return std::make_unique<SwitchHooks>(p, v, f, router);
}

}  // namespace ccnet::srp_lhrp
