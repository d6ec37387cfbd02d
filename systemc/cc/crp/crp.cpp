#include "cc/crp/crp.hpp"

#include <cmath>

#include "nic/nic_config.hpp"
#include "router/router_config.hpp"
#include "topology/topology.hpp"

namespace ccnet::crp {

std::uint32_t Params::request_size(std::uint32_t flits) const {
  return static_cast<std::uint32_t>(std::ceil(static_cast<double>(flits) * (1.0 + epsilon) - 1e-9));
}

void Params::validate(const config::BindContext& ctx, const RouterConfig&, const NicConfig& n) const {
  if (n_min > n_max) ctx.fail("cc.n_min", "n_min (" + std::to_string(n_min) + ") exceeds n_max (" + std::to_string(n_max) + ")");
  // R8: N_max <= 2 C_max, i.e. a segment's request straddles at most two cells.
  const std::uint32_t x = request_size(n_max * n.max_packet);
  if (x > 2 * cmax)
    ctx.fail("cc.n_max", "a segment of " + std::to_string(n_max) + " packets of " + std::to_string(n.max_packet) +
                             " flits requests " + std::to_string(x) + " cycles, more than 2 x cmax = " + std::to_string(2 * cmax) +
                             " (a reservation spans at most two cells)");
}

Format declare_format(PacketFormat& f) {
  Format out{};
  out.request = f.declare_kind("request");
  out.grant = f.declare_kind("grant");
  out.retry = f.declare_kind("retry");
  out.nack = f.declare_kind("nack", Answer::Refused);
  out.spec = f.declare_flag("speculative");
  out.reserved = f.declare_flag("reserved");
  out.long_retry = f.declare_flag("long");
  return out;
}

namespace {

class Crp : public Mechanism {
 public:
  Crp(const Params& p, const MechanismContext& ctx)
      : p_(p),
        f_(declare_format(ctx.format)),
        topology_(ctx.topology),
        seed_(ctx.seed),
        zero_load_(Cycle{ctx.router.delays.routing} + ctx.router.delays.vc_alloc) {
    const auto& classes = ctx.topology.link_classes();
    for (std::size_t c = 0; c < classes.size(); ++c)
      if (classes[c].name == p.channel_class) channel_class_ = static_cast<LinkClassId>(c);
  }
  std::string name() const override { return "crp"; }
  std::vector<VnetSpec> vnets() const override {
    return {{"spec", 0}, {"data", 1}, {"request", 2}, {"response", 3}};
  }
  std::uint8_t vnet_of(const Packet& p) const override {
    if (p.kind == PacketKind::Data) return p.has(f_.spec) ? Vnets::kSpec : Vnets::kData;
    if (p.kind == f_.request) return Vnets::kRequest;
    return Vnets::kResponse;  // grants, retries, ACKs, NACKs
  }
  std::unique_ptr<RouterHooks> router_hooks(RouterApi& router, CounterSet& counters) const override {
    return make_router_hooks(p_, f_, channel_class_, zero_load_, router, counters);
  }
  std::unique_ptr<NicHooks> nic_hooks(NicApi& nic, CounterSet& counters) const override {
    return make_nic_hooks(p_, f_, topology_, seed_, nic, counters);
  }
  bool requires_acks() const override { return true; }
  bool keeps_retransmit_buffer() const override { return true; }

 private:
  Params p_;
  Format f_;
  const Topology& topology_;
  std::uint64_t seed_;
  Cycle zero_load_;
  LinkClassId channel_class_ = kNoLinkClass;
};

using config::Declare;

struct CrpParams : Params {
  static const config::Schema& schema() {
    static config::Schema s(
        "CRP: reservation tables on over-subscribed channels and destinations, speculative packets until the grant "
        "(paper 000; defaults of its Table 1). docs/mechanisms/crp.md.");
    static bool init = [] {
      Declare<CrpParams>(s)
          .field("cells", &Params::cells, 32u, "V_cells: cells per reservation table (bits of the request vector)", {2, 64})
          .field("cmax", &Params::cmax, 269u, "C_max: cycles per cell; a cell's counter resets to it", {1, 65535})
          .field("epsilon", &Params::epsilon, 0.05, "requests reserve ceil(flits x (1 + epsilon)) cycles (control overhead)",
                 {0.0, 1.0})
          .field("ttw", &Params::ttw, Cycle{200},
                 "speculative time-to-wait: a speculative packet queued this many cycles in all is dropped (NACK)",
                 {1, Cycle{1} << 40})
          .field("n_min", &Params::n_min, 4u, "messages (and last segments) of fewer packets do not reserve", {1, 1u << 20})
          .field("n_max", &Params::n_max, 16u, "packets per reserved segment of a message", {1, 1u << 20})
          .field("eager", &Params::eager, true,
                 "requests eagerly reserve their earliest slot at each channel (R_res = 1; false: R_res = 0)")
          .field("retry_cycles", &Params::retry_cycles, Cycle{30}, "R_cycles: wait before re-requesting after a short retry",
                 {0, Cycle{1} << 40})
          .str("channel_class", &Params::channel_class, "inter_cluster",
                 "link class whose router output ports keep reservation tables (a class the topology lacks: none)")
          .choice("request_on", &Params::request_on, RequestOn::Start,
                  {{"start", RequestOn::Start}, {"nack", RequestOn::Nack}},
                  "a segment requests when it starts (speculating in parallel), or only after its first NACK (G2)")
          .choice("channel", &Params::channel, ChannelChoice::Random,
                  {{"random", ChannelChoice::Random}, {"flow", ChannelChoice::Flow}},
                  "inter-cluster channel of a segment: drawn per segment, or the topology's per-flow default (G8)")
          .choice("nack_stops", &Params::nack_stops, NackStops::Segment,
                  {{"segment", NackStops::Segment}, {"destination", NackStops::Destination}},
                  "a NACK stops its own segment (a later message to the destination speculates on its own), or the "
                  "whole send queue to the destination until every stopped segment's grant (R11)")
          .field("grant_current_cell", &Params::grant_current_cell, true,
                 "destinations may grant the current cell (its time partly past; the source sends at once) (G7)")
          .field("charge_spill", &Params::charge_spill, true,
                 "a non-participating packet larger than the earliest non-zero cell spills into later cells (G6)")
          .field("retry_jitter", &Params::retry_jitter, 0.0,
                 "each retry delay is shortened by a uniform random share of up to this fraction (R13; 0: exact delays)",
                 {0.0, 1.0})
          .field("max_retrying", &Params::max_retrying, 0u,
                 "segments of one source re-requesting at once after a retry; more wait in order (first requests never wait; 0: no limit)",
                 {0, 1u << 20});
      return true;
    }();
    (void)init;
    return s;
  }
};

config::PolyRegistrar<MechanismParams, CrpParams> reg_crp("crp", "Channel Reservation Protocol (paper 000)");

}  // namespace

std::unique_ptr<Mechanism> Params::create(const MechanismContext& ctx) const { return std::make_unique<Crp>(*this, ctx); }

}  // namespace ccnet::crp
