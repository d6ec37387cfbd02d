#include "cc/srp_lhrp/srp_lhrp.hpp"

#include <cmath>

#include "nic/nic_config.hpp"
#include "router/router_config.hpp"

namespace ccnet::srp_lhrp {

std::uint32_t Params::reservation_length(std::uint32_t flits) const {
  return static_cast<std::uint32_t>(
      std::ceil(static_cast<double>(flits) * (1.0 + reservation_overhead) * port_speedup - 1e-9));
}

void Params::validate(const config::BindContext& ctx, const RouterConfig&, const NicConfig& n) const {
  if (!n.acks) ctx.fail("nic.acks", "the speculative protocols need ACKs (the source keeps every packet until its ACK)");
}

Format declare_format(PacketFormat& f) {
  Format out{};
  out.nack = f.declare_kind("nack", Answer::Refused);
  out.res = f.declare_kind("reservation");
  out.gnt = f.declare_kind("grant");
  out.spec = f.declare_flag("speculative");
  out.timed = f.declare_flag("timed");
  return out;
}

Vnets vnets_of(const Params& p) {
  Vnets v;
  if (p.uses_reservations()) {
    v.res = 3;
    v.gnt = 4;
  }
  return v;
}

namespace {

class SpeculativeFamily : public Mechanism {
 public:
  SpeculativeFamily(const Params& p, std::string name, PacketFormat& format)
      : p_(p), v_(vnets_of(p)), f_(declare_format(format)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::vector<VnetSpec> vnets() const override {
    if (!p_.uses_reservations()) return {{"spec", 0}, {"data", 1}, {"ack", 2}};
    return {{"spec", 0}, {"data", 1}, {"ack", 3}, {"res", 2}, {"gnt", 4}};
  }
  std::uint8_t vnet_of(const Packet& p) const override {
    if (p.kind == PacketKind::Data) return p.has(f_.spec) ? v_.spec : v_.data;
    if (p.kind == f_.res) return v_.res;
    if (p.kind == f_.gnt) return v_.gnt;
    return v_.ack;  // ACKs and NACKs
  }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& router, CounterSet&) const override {
    return make_switch_hooks(p_, v_, f_, router);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& counters) const override {
    return make_nic_hooks(p_, f_, nic.id(), counters);
  }
  bool requires_acks() const override { return true; }
  bool keeps_retransmit_buffer() const override { return true; }

 private:
  Params p_;
  Vnets v_;
  Format f_;
  std::string name_;
};

using config::Declare;
using config::Range;

template <Protocol P>
struct FamilyParams : Params {
  FamilyParams() { protocol = P; }
  static const config::Schema& schema() {
    static config::Schema s(P == Protocol::Srp
                                ? "SRP: a reservation for every message, speculative packets until the grant, dropped at any "
                                  "switch after a queuing timeout (paper 003 section 2.2)."
                            : P == Protocol::Smsrp
                                ? "SMSRP: speculative first, a reservation only after a NACK (paper 003 section 3.1)."
                                : "LHRP: speculative packets dropped only at the last-hop switch when the endpoint's queued flits "
                                  "reach the threshold; the NACK carries a retransmission time from the switch's scheduler "
                                  "(paper 003 section 3.2), with the fabric-drop (6.1) and LHRP+SRP (6.4) extensions.");
    static bool init = [] {
      Declare<FamilyParams> d(s);
      if (P == Protocol::Lhrp) {
        d.field("threshold", &Params::threshold, 1000u,
                "flits queued for an endpoint in its last-hop switch at which speculative packets to it are dropped (inf: never)",
                Range<std::uint32_t>{1, 0xffffffffu, true})
            .field("fabric_drop", &Params::fabric_drop, false,
                   "also drop speculative packets at any switch after `timeout` cycles of queuing (NACK without time)")
            .field("timeout", &Params::timeout, Cycle{1000}, "fabric-drop queuing timeout in cycles", {1, Cycle{1} << 40})
            .field("coalesce_after", &Params::coalesce_after, 0u,
                   "after this many consecutive NACKs without time to a destination, reserve for the dropped packets (0 = never)",
                   {0, 1000})
            .field("srp_from", &Params::srp_from, 0u,
                   "messages of at least this many flits use SRP with the last-hop scheduler (paper: 48; 0 = never)", {0, 1u << 24})
            .field("reservation_overhead", &Params::reservation_overhead, 0.0,
                   "reservations cover ceil(flits x (1 + this) x nic.port_speedup) cycles", {0.0, 1.0});
      } else {
        d.field("timeout", &Params::timeout, Cycle{1000},
                "cycles a speculative packet may wait at one switch before it is dropped (paper: 1 us)", {1, Cycle{1} << 40})
            .field("reservation_overhead", &Params::reservation_overhead, 0.0,
                   "reservations cover ceil(flits x (1 + this) x nic.port_speedup) cycles", {0.0, 1.0})
            .choice("scheduler", &Params::scheduler, Scheduler::Destination,
                    {{"destination", Scheduler::Destination}, {"last_hop", Scheduler::LastHop}},
                    "reservation scheduler in the destination NIC (SRP) or in the last-hop switch (section 6.4)");
      }
      return true;
    }();
    (void)init;
    return s;
  }
};

config::PolyRegistrar<MechanismParams, FamilyParams<Protocol::Srp>> reg_srp("srp", "Speculative Reservation Protocol");
config::PolyRegistrar<MechanismParams, FamilyParams<Protocol::Smsrp>> reg_smsrp("smsrp", "Small-Message SRP");
config::PolyRegistrar<MechanismParams, FamilyParams<Protocol::Lhrp>> reg_lhrp("lhrp", "Last-Hop Reservation Protocol");

}  // namespace

std::unique_ptr<Mechanism> Params::create(const MechanismContext& ctx) const {
  const char* name = protocol == Protocol::Srp ? "srp" : protocol == Protocol::Smsrp ? "smsrp" : "lhrp";
  Params p = *this;
  p.port_speedup = ctx.nic.port_speedup;
  return std::make_unique<SpeculativeFamily>(p, name, ctx.format);
}

}  // namespace ccnet::srp_lhrp
