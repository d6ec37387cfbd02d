// Co-simulation of ccn_ps_pacer (RTL) against PsPacer (systemc/blocks/ps_pacer_sc.hpp).
//
// The bench drives the pacer as a source NIC running SAA would: flows open in free slots (a
// destination each, drawn from few values so that ties in V are common), get a rate some cycles
// later (line rate, 1/n of it, any value, or the smallest ones, and changes while they send, as
// probes return), become ready with a number of packets to send, and leave the ready set when
// their last packet goes (in the cycle of the send, as the NIC does) or while held. The NIC's data
// stream is busy for a packet's length after each send, and back-pressure stalls it further
// (phases of idle, light and saturating load; stalled sends test the no-catch-up rule); packets are
// 1 .. 16 flits, now and then the longest the length field holds (2^LenW - 1; one in ten for
// LenW <= 6, one in 200 above). `now_i` counts cycles, and some runs start near the largest time so that
// V and the next send time reach their widths. Chaos phases open, rate, ready and send at random.
// With iterative dividers (DivBits > 0) the same stimulus lands opens, joins and rate changes in
// the cycles the dividers are busy (coverage: busy_cycles, busy_joins, busy_cancels: a new flow
// opened in the granted slot), and the sends the NIC
// would make there are refused grants.
// Without --violate the bench keeps to the contract: it drops an operation the model reports as a
// violation (e.g. a send that would overflow V, which an iterative divider reports only in its
// last cycle: the bench looks ahead), so such a pacer stalls until the next reset.
// With --violate P each cycle breaks the contract with probability P, and every run starts with
// the directed violations (cycles 2 .. 4): a ready slot never opened, a rate of 0, a send without
// a grant; the random ones add a rate above 65536, open of a ready slot, a slot index beyond
// NumFlows (when it is not a power of two), a zero-length send and overflowing sends.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "blocks/ps_pacer_sc.hpp"
#include "ccn_ps_pacer_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class PsPacerBench : public cosim::Harness {
  static constexpr unsigned F = Set::NumFlows;
  static constexpr unsigned DW = Set::DstW;
  static constexpr unsigned TW = Set::TimeW;
  static constexpr unsigned LW = Set::LenW;
  using Model = PsPacerSc<F, DW, TW, LW, Set::Join, Set::DivBits>;
  static constexpr unsigned SW = Model::SlotW;
  static constexpr unsigned NW = Model::NowW;
  static constexpr unsigned RW = Model::RateW;
  static constexpr std::uint64_t kMaxNow = NW >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << NW) - 1;
  static constexpr std::uint32_t kMaxLen = (1u << LW) - 1;
  template <unsigned Width>
  using Sig = sc_core::sc_signal<vl::port_t<Width>>;

 public:
  PsPacerBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), m_("model"), r_("rtl"), model_("model", mutation(opt)), rtl_("rtl") {
    bind(model_, m_);
    bind(rtl_, r_);
    input("now_i", now_);
    input("open_i", open_);
    input("open_slot_i", open_slot_);
    input("open_dst_i", open_dst_);
    input("rate_we_i", rate_we_);
    input("rate_slot_i", rate_slot_);
    input("rate_i", rate_);
    input("ready_i", ready_);
    input("send_i", send_);
    input("len_i", len_);
    compare("grant_valid_o", r_.grant_valid, m_.grant_valid);
    compare("grant_o", r_.grant, m_.grant);
    compare("next_o", r_.next, m_.next);
    compare("vtime_o", r_.vtime, m_.vtime);
    compare("rate_o", r_.rate, m_.rate);
    compare("violation_o", r_.violation, m_.violation);
    compare("error_o", r_.error, m_.error);
    expect_assertions_when(m_.violation);
  }

 private:
  struct Outputs {
    explicit Outputs(const std::string& side)
        : grant_valid((side + "_grant_valid_o").c_str()),
          grant((side + "_grant_o").c_str()),
          next((side + "_next_o").c_str()),
          vtime((side + "_vtime_o").c_str()),
          rate((side + "_rate_o").c_str()),
          violation((side + "_violation_o").c_str()),
          error((side + "_error_o").c_str()) {}
    sc_core::sc_signal<bool> grant_valid;
    Sig<SW> grant;
    Sig<TW> next;
    Sig<F * TW> vtime;
    Sig<F * RW> rate;
    sc_core::sc_signal<bool> violation, error;
  };

  template <class Dut>
  void bind(Dut& d, Outputs& o) {
    d.clk_i(clk);
    d.rst_ni(rst_n);
    d.now_i(now_);
    d.open_i(open_);
    d.open_slot_i(open_slot_);
    d.open_dst_i(open_dst_);
    d.rate_we_i(rate_we_);
    d.rate_slot_i(rate_slot_);
    d.rate_i(rate_);
    d.ready_i(ready_);
    d.send_i(send_);
    d.len_i(len_);
    d.grant_valid_o(o.grant_valid);
    d.grant_o(o.grant);
    d.next_o(o.next);
    d.vtime_o(o.vtime);
    d.rate_o(o.rate);
    d.violation_o(o.violation);
    d.error_o(o.error);
  }

  static PsPacerMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, PsPacerMutation> kNames[] = {
        {"none", PsPacerMutation::None},
        {"join_at_zero", PsPacerMutation::JoinAtZero},
        {"tie_higher_dst", PsPacerMutation::TieHigherDst},
        {"len_off_by_one", PsPacerMutation::LenOffByOne},
        {"div_faster", PsPacerMutation::DivFaster},
    };
    return cosim::mutation(opt, kNames);
  }

  // The NIC's view of a slot.
  struct Flow {
    bool open = false;     // a flow is in the slot (opened, not all sent)
    bool rated = false;    // its rate was written
    std::uint32_t packets = 0;  // left to send
    std::uint32_t hold = 0;     // cycles it is held (not ready) although it has packets
    std::uint32_t dst = 0;
  };

  std::uint32_t some_rate(cosim::Rng& rng) const {
    switch (rng.below(12)) {
      case 0:
      case 1:
      case 2: return PsPacer::kLineRate;
      case 3:
      case 4: return PsPacer::kLineRate / (1 + rng.below(6));
      case 5: return (PsPacer::kLineRate + 1 + rng.below(3)) / 3;  // 1/3 rounded either way
      case 6: return 1 + rng.below(16);                            // the smallest rates: V overflows
      default: return 2048 + rng.below(PsPacer::kLineRate - 2047);
    }
  }

  // Coverage of what the edge about to come does (the model's state is the cycle's start here).
  void count(const PsPacerInputs& in, int grant) {
    const PsPacer& c = model_.core();
    unsigned steady = 0, fresh = 0;
    for (unsigned k = 0; k < F; ++k) {
      const bool r = in.ready[k] && c.slot(k).open;
      steady += r && !c.slot(k).fresh;
      fresh += r && c.slot(k).fresh;
    }
    cov_.joins += fresh > 0 && steady > 0;
    cov_.busy_joins += fresh > 0 && c.busy();
    cov_.busy_cycles += c.busy();
    cov_.busy_cancels += in.open && c.busy_slot() == static_cast<int>(in.open_slot) && !c.slot(in.open_slot).ready;
    if (in.send && grant >= 0) {
      const auto g = static_cast<std::uint32_t>(grant);
      for (unsigned k = 0; k < F; ++k)
        if (k != g && c.slot(k).ready && c.slot(k).rate != 0 && c.slot(k).vtime == c.slot(g).vtime) {
          ++cov_.tied_grants;
          break;
        }
    }
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    PsPacerInputs in;
    in.ready.assign(F, false);
    if (in_reset) {
      flows_.assign(F, Flow{});
      busy_ = 0;
      // Some runs start near the largest time: V and the next send time reach their widths.
      now_v_ = rng.chance(0.1) ? kMaxNow - std::min<std::uint64_t>(kMaxNow, rng.below(4000)) : 0;
      in.now = now_v_;
      write(in);
      return;
    }
    if (now_v_ < kMaxNow) ++now_v_;  // held at the largest time (a run must not outlive its width)
    in.now = now_v_;
    phase_.step(rng);
    const int grant = model_.core().pick(now_v_);
    const bool violate = directed_violations() && rng.chance(opt().violate);
    const std::uint64_t c = cycle();
    if (phase_.chaos) {
      in.open = rng.chance(0.2);
      in.open_slot = static_cast<std::uint32_t>(rng.bits(SW));
      in.open_dst = static_cast<std::uint32_t>(rng.bits(DW));
      in.rate_we = rng.chance(0.3);
      in.rate_slot = static_cast<std::uint32_t>(rng.bits(SW));
      in.rate = some_rate(rng);
      for (unsigned k = 0; k < F; ++k) in.ready[k] = rng.chance(0.5) && model_.core().slot(k).open;
      in.send = grant >= 0 && rng.chance(0.7);
      in.len = 1 + rng.below(kMaxLen);
    } else {
      nic(rng, in, grant);
    }
    if (directed_violations() && c >= 2 && c <= 4) {
      if (c == 2) {
        for (unsigned k = 0; k < F; ++k)
          if (!model_.core().slot(k).open) in.ready[k] = true;
        if (std::all_of(in.ready.begin(), in.ready.end(), [](bool b) { return !b; })) in.rate_we = true, in.rate = 0;
      } else if (c == 3) {
        in.rate_we = true;
        in.rate = 0;
      } else {
        in.send = grant < 0 || in.send;
        if (grant >= 0) in.len = 0;
      }
      ++cov_.violations_driven;
    } else if (violate) {
      violation(rng, in, grant);
      ++cov_.violations_driven;
    } else if (!directed_violations() || !phase_.chaos) {
      legalise(in);
    }
    count(in, grant);
    write(in);
  }

  // A source NIC: open, rate, ready, send.
  void nic(cosim::Rng& rng, PsPacerInputs& in, int grant) {
    // Open a new flow in a free slot (its previous flow sent everything).
    if (rng.chance(phase_.load * 0.1)) {
      const std::uint32_t k = rng.below(F);
      if (!flows_[k].open) {
        in.open = true;
        in.open_slot = k;
        open_packets_ = 1 + rng.below(rng.chance(0.2) ? 400 : 40);
        in.open_dst = static_cast<std::uint32_t>(rng.below(std::min<std::uint32_t>(6, 1u << std::min(DW, 16u))));
      }
    }
    // A rate: the first one some cycles after the open (the setup's return), later changes (probes).
    if (rng.chance(0.15)) {
      const std::uint32_t k = rng.below(F);
      if (flows_[k].open && (!flows_[k].rated || rng.chance(0.3))) {
        in.rate_we = true;
        in.rate_slot = k;
        in.rate = some_rate(rng);
      }
    }
    // The data stream: a granted packet goes when the stream is free and not stalled.
    const bool stalled = busy_ > 0 || rng.chance(phase_.stall);
    if (grant >= 0 && !stalled) {
      in.send = true;
      // Packets of up to 16 flits, now and then the longest the length field holds.
      in.len = rng.chance(LW <= 6 ? 0.1 : 0.005) ? kMaxLen : 1 + rng.below(std::min(kMaxLen, 16u));
    }
    for (unsigned k = 0; k < F; ++k) {
      Flow& f = flows_[k];
      if (f.hold > 0) --f.hold;
      else if (f.packets > 1 && rng.chance(0.005)) f.hold = 1 + rng.below(30);  // held (a NIC hold)
      bool left = f.packets > 0;
      if (in.send && static_cast<int>(k) == grant && f.packets == 1) left = false;  // its last packet goes now
      in.ready[k] = f.open && f.rated && left && f.hold == 0;
    }
  }

  // Whether the cycle keeps to the contract, including a send's overflow that an iterative
  // divider reports only in its last cycle (it depends on the send's cycle alone).
  bool legal(const PsPacerInputs& in) const {
    PsPacer c = model_.core();
    if (c.cycle(in) != PsPacerViolation::None) return false;
    PsPacerInputs idle;
    idle.ready.assign(F, false);
    idle.now = in.now;
    while (c.busy()) {
      ++idle.now;
      if (c.cycle(idle) != PsPacerViolation::None) return false;
    }
    return true;
  }

  // Drop what the model reports as a violation (the NIC keeps to the contract).
  void legalise(PsPacerInputs& in) {
    if (legal(in)) return;
    ++cov_.dropped;
    auto ok = [&](const PsPacerInputs& x) { return legal(x); };
    PsPacerInputs a = in;
    a.send = false;
    if (ok(a)) {
      in = a;
      return;
    }
    a.open = false;
    a.rate_we = false;
    if (!ok(a))
      for (unsigned k = 0; k < F; ++k)
        if (!model_.core().slot(k).open) a.ready[k] = false;
    in = a;
  }

  void violation(cosim::Rng& rng, PsPacerInputs& in, int grant) {
    switch (rng.below(7)) {
      case 0:  // a rate above line rate
        in.rate_we = true;
        in.rate_slot = rng.below(F);
        in.rate = PsPacer::kLineRate + 1 + rng.below(1000);
        break;
      case 1: {  // open of a ready slot
        for (unsigned k = 0; k < F; ++k)
          if (model_.core().slot(k).ready) {
            in.open = true;
            in.open_slot = k;
          }
        break;
      }
      case 2:  // a slot index beyond NumFlows (else a rate of 0)
        if ((1u << SW) > F) {
          in.rate_we = true;
          in.rate_slot = F + rng.below((1u << SW) - F);
          in.rate = some_rate(rng);
        } else {
          in.rate_we = true;
          in.rate = 0;
        }
        break;
      case 3:  // a send of 0 flits
        in.send = true;
        in.len = 0;
        break;
      case 4:  // a send without a grant
        if (grant < 0) in.send = true;
        break;
      case 5:  // ready on a slot never opened
        for (unsigned k = 0; k < F; ++k)
          if (!model_.core().slot(k).open) in.ready[k] = true;
        break;
      default:  // any send: the longest packet on the smallest rates overflows narrow times
        in.send = grant >= 0;
        in.len = kMaxLen;
        break;
    }
  }

  void write(const PsPacerInputs& in) {
    auto now = vl::zero<vl::port_t<NW>>();
    vl::set(now, 0, NW, in.now);
    now_.write(now);
    open_.write(in.open);
    auto os = vl::zero<vl::port_t<SW>>(), rs = vl::zero<vl::port_t<SW>>();
    vl::set(os, 0, SW, in.open_slot);
    vl::set(rs, 0, SW, in.rate_slot);
    open_slot_.write(os);
    rate_slot_.write(rs);
    auto od = vl::zero<vl::port_t<DW>>();
    vl::set(od, 0, DW, in.open_dst);
    open_dst_.write(od);
    rate_we_.write(in.rate_we);
    auto r = vl::zero<vl::port_t<RW>>();
    vl::set(r, 0, RW, in.rate);
    rate_.write(r);
    auto rd = vl::zero<vl::port_t<F>>();
    for (unsigned k = 0; k < F; ++k) vl::set(rd, k, 1, in.ready[k] ? 1u : 0u);
    ready_.write(rd);
    send_.write(in.send);
    auto l = vl::zero<vl::port_t<LW>>();
    vl::set(l, 0, LW, in.len);
    len_.write(l);
  }

  // The edge applied the inputs: the NIC's view follows what the model did.
  void sampled() override {
    if (!rst_n.read()) return;
    if (busy_ > 0) --busy_;
    const bool bad = m_.violation.read();
    cov_.bad_cycles += bad;
    const bool open = open_.read();
    const auto os = static_cast<std::uint32_t>(vl::get(open_slot_.read(), 0, SW));
    if (open && !bad && os < F) {
      flows_[os] = Flow{};
      flows_[os].open = true;
      flows_[os].packets = open_packets_;
      flows_[os].dst = static_cast<std::uint32_t>(vl::get(open_dst_.read(), 0, DW));
      ++cov_.opens;
    }
    const auto rs = static_cast<std::uint32_t>(vl::get(rate_slot_.read(), 0, SW));
    if (rate_we_.read() && !bad && rs < F) {
      flows_[rs].rated = true;
      ++cov_.rate_writes;
    }
    unsigned ready = 0;
    for (unsigned k = 0; k < F; ++k) ready += vl::get(ready_.read(), k, 1) != 0;
    cov_.multi_ready_cycles += ready > 1;
    const bool grant = m_.grant_valid.read();
    if (send_.read() && grant && !bad) {
      const auto g = static_cast<std::uint32_t>(vl::get(m_.grant.read(), 0, SW));
      const auto len = static_cast<std::uint32_t>(vl::get(len_.read(), 0, LW));
      busy_ = std::min(len, 64u);  // the stream is busy for the packet (a 2^16-flit one: 64 cycles)
      ++cov_.sends;
      if (flows_[g].packets > 0 && --flows_[g].packets == 0) flows_[g].open = false;
      const std::uint64_t now_q = vl::get(now_.read(), 0, NW) << PsPacer::kFrac;
      const std::uint64_t next = vl::get(m_.next.read(), 0, TW);
      cov_.late_sends += now_q >= next + PsPacer::kLineRate;
    }
    if (send_.read() && bad && grant) ++cov_.refused_sends;
  }

  std::string coverage() const override {
    return cosim::counts({{"opens", cov_.opens},
                          {"rate_writes", cov_.rate_writes},
                          {"sends", cov_.sends},
                          {"joins", cov_.joins},
                          {"busy_cycles", cov_.busy_cycles},
                          {"busy_joins", cov_.busy_joins},
                          {"busy_cancels", cov_.busy_cancels},
                          {"tied_grants", cov_.tied_grants},
                          {"late_sends", cov_.late_sends},
                          {"multi_ready_cycles", cov_.multi_ready_cycles},
                          {"refused_sends", cov_.refused_sends},
                          {"dropped_ops", cov_.dropped},
                          {"violations_driven", cov_.violations_driven},
                          {"bad_cycles", cov_.bad_cycles}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t opens = 0, rate_writes = 0, sends = 0, joins = 0, busy_cycles = 0, busy_joins = 0, busy_cancels = 0, tied_grants = 0, late_sends = 0,
                  multi_ready_cycles = 0, refused_sends = 0, dropped = 0, violations_driven = 0, bad_cycles = 0;
  } cov_;

  std::vector<Flow> flows_ = std::vector<Flow>(F);
  std::uint32_t busy_ = 0;
  std::uint64_t now_v_ = 0;
  std::uint32_t open_packets_ = 1;  // packets of the flow being opened

  Sig<NW> now_{"now_i"};
  sc_core::sc_signal<bool> open_{"open_i"}, rate_we_{"rate_we_i"}, send_{"send_i"};
  Sig<SW> open_slot_{"open_slot_i"}, rate_slot_{"rate_slot_i"};
  Sig<DW> open_dst_{"open_dst_i"};
  Sig<RW> rate_{"rate_i"};
  Sig<F> ready_{"ready_i"};
  Sig<LW> len_{"len_i"};
  Outputs m_, r_;
  Model model_;
  typename Set::Rtl rtl_;
  cosim::Phase phase_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "ps_pacer");
  return cosim::dispatch<ccn_sets::ps_pacer_sets, PsPacerBench>(opt);
}
