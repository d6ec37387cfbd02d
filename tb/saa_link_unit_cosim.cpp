// Co-simulation of ccn_saa_link_unit (RTL) against SaaLinkUnit (systemc/blocks/saa_link_unit_sc.hpp).
//
// The bench follows the link as a network would load it: it keeps the multiset of the flows
// announced on the link (the weights of the starts that took effect, read back from the model's
// bad_o at each edge) and drives, per lane and cycle, at the phase's offered load:
//   * announce-starts with weights drawn small (1 .. 3), medium, near the room left, or exactly
//     the room left (W_l becomes 2^WeightW - 1), when the link can take one more flow;
//   * announce-ends of a flow of the multiset (the last one brings W_l exactly back to 0);
//   * probes, and wmax_i drawn at 0, at W_l - 1, W_l, W_l + 1, at random or at the largest value.
// Each phase picks a mix: filling (starts), draining (ends), probing or balanced; the lanes of one
// cycle see each other's effects, so several lanes often start and end flows on the same link in
// one cycle. The block has no handshake, so back-pressure shows only as idle lanes and idle
// phases. Chaos phases draw every field at random. Idle lanes and the fields an operation ignores
// carry garbage.
// With --violate P, each lane breaks the contract with probability P, and every run starts with
// the directed violations (cycles 2 .. 4): two operations in a lane, a zero weight, and an
// announce-end with no flow; the random ones add a start past 2^WeightW - 1, a start past
// 2^CountW - 1 flows (when the count is full), an end above W_l, and an end that leaves W_l below
// one flit per remaining flow (or the last flow's end not returning W_l to 0).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "blocks/saa_link_unit_sc.hpp"
#include "ccn_saa_link_unit_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class SaaLinkUnitBench : public cosim::Harness {
  static constexpr unsigned L = Set::NumLanes;
  static constexpr unsigned WW = Set::WeightW;
  static constexpr unsigned CW = Set::CountW;
  using Model = SaaLinkUnitSc<L, WW, CW>;
  static constexpr std::uint64_t kMaxW = WW >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << WW) - 1;
  static constexpr std::uint64_t kMaxN = (std::uint64_t{1} << CW) - 1;  // CW <= 32
  template <unsigned Width>
  using Sig = sc_core::sc_signal<vl::port_t<Width>>;

 public:
  SaaLinkUnitBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), m_("model"), r_("rtl"), model_("model", mutation(opt)), rtl_("rtl") {
    bind(model_, m_);
    bind(rtl_, r_);
    input("start_i", start_);
    input("end_i", end_);
    input("probe_i", probe_);
    input("weight_i", weight_);
    input("wmax_i", wmax_);
    compare("wmax_o", r_.wmax, m_.wmax);
    compare("bad_o", r_.bad, m_.bad);
    compare("weight_o", r_.weight, m_.weight);
    compare("flows_o", r_.flows, m_.flows);
    compare("violation_o", r_.violation, m_.violation);
    compare("error_o", r_.error, m_.error);
    expect_assertions_when(m_.violation);
  }

 private:
  struct Outputs {
    explicit Outputs(const std::string& side)
        : wmax((side + "_wmax_o").c_str()),
          bad((side + "_bad_o").c_str()),
          weight((side + "_weight_o").c_str()),
          flows((side + "_flows_o").c_str()),
          violation((side + "_violation_o").c_str()),
          error((side + "_error_o").c_str()) {}
    Sig<L * WW> wmax;
    Sig<L> bad;
    Sig<WW> weight;
    Sig<CW> flows;
    sc_core::sc_signal<bool> violation, error;
  };

  template <class Dut>
  void bind(Dut& d, Outputs& o) {
    d.clk_i(clk);
    d.rst_ni(rst_n);
    d.start_i(start_);
    d.end_i(end_);
    d.probe_i(probe_);
    d.weight_i(weight_);
    d.wmax_i(wmax_);
    d.wmax_o(o.wmax);
    d.bad_o(o.bad);
    d.weight_o(o.weight);
    d.flows_o(o.flows);
    d.violation_o(o.violation);
    d.error_o(o.error);
  }

  static SaaLinkUnitMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, SaaLinkUnitMutation> kNames[] = {
        {"none", SaaLinkUnitMutation::None},
        {"lanes_see_cycle_start", SaaLinkUnitMutation::LanesSeeCycleStart},
        {"start_max_before_add", SaaLinkUnitMutation::StartMaxBeforeAdd},
        {"two_ops_first_wins", SaaLinkUnitMutation::TwoOpsFirstWins},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Lane {
    bool start = false, end = false, probe = false;
    std::uint64_t weight = 0, wmax = 0;
  };
  enum class Kind { Idle, Start, End, Probe };

  // The link as the lanes before this one left it (the bench's view: sum and count of `flows_`).
  std::uint64_t sum_ = 0;
  std::vector<std::uint64_t> flows_;  // weights of the flows announced on the link

  std::uint64_t room() const { return kMaxW - sum_; }
  bool can_start() const { return room() > 0 && flows_.size() < kMaxN; }

  std::uint64_t some_wmax(cosim::Rng& rng) const {
    switch (rng.below(7)) {
      case 0: return 0;
      case 1: return sum_ > 0 ? sum_ - 1 : 0;
      case 2: return sum_;
      case 3: return sum_ < kMaxW ? sum_ + 1 : kMaxW;
      case 4: return kMaxW;
      default: return rng.bits(WW);
    }
  }
  std::uint64_t start_weight(cosim::Rng& rng) const {
    const std::uint64_t r = room();
    std::uint64_t w = 1;
    switch (rng.below(6)) {
      case 0:
      case 1: w = 1 + rng.below(3); break;
      case 2: w = 1 + rng.bits(WW > 8 ? WW / 2 : WW); break;
      case 3: w = r; break;                                  // fills W_l to the largest value
      case 4: w = r > 4 ? r - rng.below(4) : r; break;        // near the room left
      default: w = 1 + (rng.bits(WW) % r); break;
    }
    return std::min(std::max<std::uint64_t>(w, 1), r);
  }

  // A legal lane of the given kind (the link's view moves on as if it took effect).
  Lane legal(cosim::Rng& rng, Kind k) {
    Lane l;
    if (k == Kind::Start && !can_start()) k = flows_.empty() ? Kind::Probe : Kind::End;
    if (k == Kind::End && flows_.empty()) k = Kind::Probe;
    switch (k) {
      case Kind::Idle: break;
      case Kind::Start:
        l.start = true;
        l.weight = start_weight(rng);
        l.wmax = some_wmax(rng);
        sum_ += l.weight;
        flows_.push_back(l.weight);
        ++cov_.starts;
        cov_.filled += sum_ == kMaxW;
        break;
      case Kind::End: {
        const std::size_t i = rng.below(static_cast<std::uint32_t>(flows_.size()));
        l.end = true;
        l.weight = flows_[i];
        flows_[i] = flows_.back();
        flows_.pop_back();
        sum_ -= l.weight;
        ++cov_.ends;
        cov_.drained += flows_.empty();
        break;
      }
      case Kind::Probe:
        l.probe = true;
        l.wmax = some_wmax(rng);
        ++cov_.probes;
        break;
    }
    return l;
  }

  // A lane that breaks the contract (the link's view does not move).
  Lane violation(cosim::Rng& rng, unsigned kind) {
    Lane l;
    l.weight = 1 + rng.below(3);
    l.wmax = some_wmax(rng);
    const std::uint64_t n = flows_.size();
    switch (kind) {
      case 0:  // two or three operations
        l.start = true;
        l.end = rng.chance(0.5);
        l.probe = !l.end || rng.chance(0.5);
        if (rng.chance(0.3)) l.start = false, l.end = l.probe = true;
        break;
      case 1:  // a zero weight
        (rng.chance(0.5) ? l.start : l.end) = true;
        l.weight = 0;
        break;
      case 2:  // start past the largest W_l
        l.start = true;
        if (sum_ == 0) l.end = true;  // no overflow possible: two operations instead
        else l.weight = room() + 1 + (rng.bits(WW) % sum_);
        break;
      case 3:  // start past the largest flow count, else an end above W_l
        if (n == kMaxN) {
          l.start = true;
          l.weight = 1;
          if (room() == 0) l.weight = 0;
        } else {
          l.end = true;
          l.weight = sum_ < kMaxW ? sum_ + 1 + (rng.bits(WW) % (kMaxW - sum_)) : 0;
        }
        break;
      default:  // an end that leaves too little (or not 0), else an end with no flow
        l.end = true;
        if (n >= 2) l.weight = sum_ - n + 2 + rng.below(static_cast<std::uint32_t>(std::min<std::uint64_t>(n - 1, 1u << 20)));
        else if (n == 1 && sum_ >= 2) l.weight = 1 + (rng.bits(WW) % (sum_ - 1));
        else if (n == 1) l.weight = sum_ + 1 <= kMaxW && sum_ < kMaxW ? sum_ + 1 : 0;
        break;
    }
    ++cov_.violations_driven;
    return l;
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    if (in_reset) {
      sum_ = 0;
      flows_.clear();
    } else {
      // The last edge applied the lanes: the view follows what the model did (a random lane of a
      // violation run may have been legal): rebuilt from the model's state when the two disagree.
      const std::uint64_t w = model_.core().weight(), n = model_.core().flows();
      if (w != sum_ || n != flows_.size()) rebuild(w, n);
    }
    if (phase_.left == 0) {
      // Per phase: percent of busy lanes that start, end, probe (filling, draining, probing, balanced).
      static const unsigned kMixes[][3] = {{70, 15, 15}, {15, 70, 15}, {10, 10, 80}, {40, 40, 20}, {34, 33, 33}};
      const unsigned m = rng.below(5);
      std::copy(kMixes[m], kMixes[m] + 3, mix_);
    }
    phase_.step(rng);
    std::vector<Lane> lanes(L);
    const std::uint64_t c = cycle();
    for (unsigned k = 0; k < L; ++k) {
      Lane& l = lanes[k];
      if (in_reset) {
        // Idle lanes (garbage below): the state restarts at 0.
      } else if (directed_violations() && c >= 2 && c <= 4 && k == 0) {
        l = violation(rng, c == 2 ? 0 : c == 3 ? 1 : 4);
        if (c == 4) l.weight = sum_ + 1 <= kMaxW && sum_ < kMaxW ? sum_ + 1 : 0;  // above W_l (no flow at a run start)
      } else if (directed_violations() && rng.chance(opt().violate)) {
        l = violation(rng, rng.below(5));
      } else if (phase_.chaos && directed_violations()) {
        l.start = rng.chance(0.3), l.end = rng.chance(0.3), l.probe = rng.chance(0.3);
        l.weight = rng.chance(0.5) ? rng.bits(WW) : rng.below(4);
        l.wmax = rng.bits(WW);
      } else if (phase_.chaos) {  // every lane busy, any legal operation, any wmax_i
        l = legal(rng, static_cast<Kind>(rng.below(4)));
        l.wmax = rng.bits(WW);
      } else if (rng.chance(phase_.load)) {
        const unsigned p = rng.below(100);
        l = legal(rng, p < mix_[0] ? Kind::Start : p < mix_[0] + mix_[1] ? Kind::End : Kind::Probe);
      }
      // Garbage in what the operation ignores.
      if (!l.start && !l.end) l.weight = rng.bits(WW);
      if (!l.start && !l.probe) l.wmax = rng.bits(WW);
    }
    write(lanes);
  }

  void write(const std::vector<Lane>& lanes) {
    auto s = vl::zero<vl::port_t<L>>(), e = vl::zero<vl::port_t<L>>(), p = vl::zero<vl::port_t<L>>();
    auto w = vl::zero<vl::port_t<L * WW>>(), m = vl::zero<vl::port_t<L * WW>>();
    for (unsigned k = 0; k < L; ++k) {
      vl::set(s, k, 1, lanes[k].start);
      vl::set(e, k, 1, lanes[k].end);
      vl::set(p, k, 1, lanes[k].probe);
      vl::set(w, k * WW, WW, lanes[k].weight);
      vl::set(m, k * WW, WW, lanes[k].wmax);
    }
    start_.write(s);
    end_.write(e);
    probe_.write(p);
    weight_.write(w);
    wmax_.write(m);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    unsigned busy = 0;
    for (unsigned k = 0; k < L; ++k) {
      const bool s = vl::get(start_.read(), k, 1) != 0, e = vl::get(end_.read(), k, 1) != 0,
                 p = vl::get(probe_.read(), k, 1) != 0;
      const bool bad = vl::get(m_.bad.read(), k, 1) != 0;
      busy += s || e || p;
      cov_.bad_lanes += bad;
      if (!bad && (s || p) &&
          vl::get(m_.wmax.read(), k * WW, WW) > vl::get(wmax_.read(), k * WW, WW))
        ++cov_.wmax_raised;
    }
    cov_.multi_op_cycles += busy > 1;
    cov_.full_count_cycles += model_.core().flows() == kMaxN;
  }
  // A multiset of n flows summing to w (n - 1 of weight 1).
  void rebuild(std::uint64_t w, std::uint64_t n) {
    flows_.assign(n, 1);
    if (n > 0) flows_.back() = w - (n - 1);
    sum_ = w;
    ++cov_.rebuilds;
  }

  std::string coverage() const override {
    return cosim::counts({{"starts", cov_.starts},
                          {"ends", cov_.ends},
                          {"probes", cov_.probes},
                          {"wmax_raised", cov_.wmax_raised},
                          {"multi_op_cycles", cov_.multi_op_cycles},
                          {"filled_to_max", cov_.filled},
                          {"drained_to_zero", cov_.drained},
                          {"full_count_cycles", cov_.full_count_cycles},
                          {"violations_driven", cov_.violations_driven},
                          {"bad_lanes", cov_.bad_lanes},
                          {"view_rebuilds", cov_.rebuilds}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t starts = 0, ends = 0, probes = 0, wmax_raised = 0, multi_op_cycles = 0, filled = 0, drained = 0,
                  full_count_cycles = 0, violations_driven = 0, bad_lanes = 0, rebuilds = 0;
  } cov_;

  Sig<L> start_{"start_i"}, end_{"end_i"}, probe_{"probe_i"};
  Sig<L * WW> weight_{"weight_i"}, wmax_{"wmax_i"};
  Outputs m_, r_;
  Model model_;
  typename Set::Rtl rtl_;
  cosim::Phase phase_;
  unsigned mix_[3] = {34, 33, 33};
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "saa_link_unit");
  return cosim::dispatch<ccn_sets::saa_link_unit_sets, SaaLinkUnitBench>(opt);
}
