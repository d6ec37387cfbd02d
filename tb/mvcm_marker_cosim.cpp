// Co-simulation of ccn_mvcm_marker (RTL) against MvcmMarker (systemc/blocks/mvcm_marker_sc.hpp).
//
// Stimulus, per lane and cycle: a packet head (valid) at the phase's offered load, mostly data
// packets, with header bits drawn as a network would carry them (input lane: MB set upstream
// now and then; output lane: (0,0), (1,0) and (1,1) headers, MB more likely once the input side
// is busy) and the buffer's occupancy following a random walk the load drives up and stalls keep
// up, plus jumps to the thresholds' edges (T - 1, T, T + 1), to 0 and to the largest value the
// port carries. Chaos phases draw every field at random each cycle, including the (0,1) header
// the output lane must flag (out_violation_o). Idle lanes carry garbage. Each run starts with a
// directed sequence on both lanes: at each threshold (no decision), just above (MB; VB on a
// marked packet), an already marked / validated packet above (no new decision), an unmarked
// packet above the output threshold (never validated), a control packet above (never marked),
// a (0,1) header (flagged) and an idle cycle above both thresholds. The block has no clock and no
// state: every output is compared every cycle.
#include <cstdint>

#include "blocks/mvcm_marker_sc.hpp"
#include "ccn_mvcm_marker_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class MvcmMarkerBench : public cosim::Harness {
  static constexpr unsigned W = Set::OccWidth;
  static constexpr std::uint64_t kInThr = Set::InThreshold;
  static constexpr std::uint64_t kOutThr = Set::OutThreshold;
  using Model = MvcmMarkerSc<W, Set::InThreshold, Set::OutThreshold>;
  static constexpr std::uint64_t kMaxOcc = (std::uint64_t{1} << W) - 1;  // W <= 32
  template <unsigned Width>
  using Sig = sc_core::sc_signal<vl::port_t<Width>>;

 public:
  MvcmMarkerBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    bind(model_, m_);
    bind(rtl_, r_);
    input("in_valid_i", in_valid_);
    input("in_data_i", in_data_);
    input("in_mb_i", in_mb_);
    input("in_occupancy_i", in_occ_);
    input("out_valid_i", out_valid_);
    input("out_data_i", out_data_);
    input("out_mb_i", out_mb_);
    input("out_vb_i", out_vb_);
    input("out_occupancy_i", out_occ_);
    compare("in_mark_o", r_.in_mark, m_.in_mark);
    compare("in_mb_o", r_.in_mb, m_.in_mb);
    compare("out_above_o", r_.out_above, m_.out_above);
    compare("out_validate_o", r_.out_validate, m_.out_validate);
    compare("out_vb_o", r_.out_vb, m_.out_vb);
    compare("out_violation_o", r_.out_violation, m_.out_violation);
  }

 private:
  struct Outputs {
    explicit Outputs(const char* side)
        : in_mark((std::string(side) + "_in_mark_o").c_str()),
          in_mb((std::string(side) + "_in_mb_o").c_str()),
          out_above((std::string(side) + "_out_above_o").c_str()),
          out_validate((std::string(side) + "_out_validate_o").c_str()),
          out_vb((std::string(side) + "_out_vb_o").c_str()),
          out_violation((std::string(side) + "_out_violation_o").c_str()) {}
    sc_core::sc_signal<bool> in_mark, in_mb, out_above, out_validate, out_vb, out_violation;
  };

  template <class Dut>
  void bind(Dut& d, Outputs& o) {
    d.in_valid_i(in_valid_);
    d.in_data_i(in_data_);
    d.in_mb_i(in_mb_);
    d.in_occupancy_i(in_occ_);
    d.in_mark_o(o.in_mark);
    d.in_mb_o(o.in_mb);
    d.out_valid_i(out_valid_);
    d.out_data_i(out_data_);
    d.out_mb_i(out_mb_);
    d.out_vb_i(out_vb_);
    d.out_occupancy_i(out_occ_);
    d.out_above_o(o.out_above);
    d.out_validate_o(o.out_validate);
    d.out_vb_o(o.out_vb);
    d.out_violation_o(o.out_violation);
  }

  static MvcmMarkerMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, MvcmMarkerMutation> kNames[] = {
        {"none", MvcmMarkerMutation::None},
        {"threshold_inclusive", MvcmMarkerMutation::ThresholdInclusive},
        {"validate_unmarked", MvcmMarkerMutation::ValidateUnmarked},
        {"mark_control", MvcmMarkerMutation::MarkControl},
    };
    return cosim::mutation(opt, kNames);
  }

  static std::uint64_t clamp(std::int64_t v) {
    if (v < 0) return 0;
    return static_cast<std::uint64_t>(v) > kMaxOcc ? kMaxOcc : static_cast<std::uint64_t>(v);
  }
  static std::uint64_t at(std::uint64_t thr, int d) { return clamp(static_cast<std::int64_t>(thr) + d); }
  // An occupancy at one of a threshold's edges, or an extreme.
  static std::uint64_t edge(cosim::Rng& rng, std::uint64_t thr) {
    switch (rng.below(6)) {
      case 0: return at(thr, -1);
      case 1: return at(thr, 0);
      case 2:
      case 3: return at(thr, 1);
      case 4: return 0;
      default: return kMaxOcc;
    }
  }

  struct Lanes {
    bool in_valid = false, in_data = false, in_mb = false;
    std::uint64_t in_occ = 0;
    bool out_valid = false, out_data = false, out_mb = false, out_vb = false;
    std::uint64_t out_occ = 0;
  };

  // Directed start of a run (cycles 0, 1: reset). Returns false when the script is over.
  bool directed(Lanes& l) {
    const std::uint64_t c = cycle();
    l.in_valid = l.out_valid = l.in_data = l.out_data = true;
    l.out_mb = true;
    l.in_occ = at(kInThr, 1);
    l.out_occ = at(kOutThr, 1);
    switch (c) {
      case 0:
      case 1:
      case 3: break;  // just above both: MB, and VB on the marked packet
      case 2:
        l.in_occ = at(kInThr, 0);  // at the thresholds: nothing
        l.out_occ = at(kOutThr, 0);
        break;
      case 4:
        l.in_mb = true;  // already marked / validated: nothing new
        l.out_vb = true;
        break;
      case 5: l.out_mb = false; break;  // unmarked above the output threshold: never validated
      case 6:
        l.in_data = l.out_data = false;  // control packets, full buffers
        l.in_occ = l.out_occ = kMaxOcc;
        break;
      case 7:
        l.out_mb = false;  // the (0,1) header: flagged, passes unchanged
        l.out_vb = true;
        break;
      case 8:
        l.in_valid = l.out_valid = false;  // idle lanes above both thresholds
        l.in_occ = l.out_occ = kMaxOcc;
        break;
      default: return false;
    }
    return true;
  }

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    phase_.step(rng);
    Lanes l;
    if (!directed(l)) {
      if (phase_.chaos) {
        l.in_valid = rng.chance(phase_.load);
        l.in_data = rng.chance(0.5);
        l.in_mb = rng.chance(0.5);
        l.in_occ = rng.chance(0.5) ? rng.bits(W) : edge(rng, kInThr);
        l.out_valid = rng.chance(phase_.load);
        l.out_data = rng.chance(0.5);
        l.out_mb = rng.chance(0.5);
        l.out_vb = rng.chance(0.5);
        l.out_occ = rng.chance(0.5) ? rng.bits(W) : edge(rng, kOutThr);
      } else {
        // The buffers fill while heads arrive faster than their links drain them.
        walk(rng, in_walk_, kInThr);
        walk(rng, out_walk_, kOutThr);
        const bool busy = in_walk_ > static_cast<std::int64_t>(kInThr);
        l.in_valid = rng.chance(phase_.load);
        l.in_data = rng.chance(0.85);
        l.in_mb = rng.chance(0.1);
        l.in_occ = rng.chance(0.1) ? edge(rng, kInThr) : static_cast<std::uint64_t>(in_walk_);
        l.out_valid = rng.chance(phase_.load);
        l.out_data = rng.chance(0.85);
        l.out_mb = rng.chance(busy ? 0.7 : 0.2);
        l.out_vb = l.out_mb && rng.chance(0.3);
        l.out_occ = rng.chance(0.1) ? edge(rng, kOutThr) : static_cast<std::uint64_t>(out_walk_);
      }
      if (!l.in_valid) {  // garbage
        l.in_data = rng.chance(0.5);
        l.in_mb = rng.chance(0.5);
        l.in_occ = rng.bits(W);
      }
      if (!l.out_valid) {
        l.out_data = rng.chance(0.5);
        l.out_mb = rng.chance(0.5);
        l.out_vb = rng.chance(0.5);
        l.out_occ = rng.bits(W);
      }
    }
    in_valid_.write(l.in_valid);
    in_data_.write(l.in_data);
    in_mb_.write(l.in_mb);
    in_occ_.write(port(l.in_occ));
    out_valid_.write(l.out_valid);
    out_data_.write(l.out_data);
    out_mb_.write(l.out_mb);
    out_vb_.write(l.out_vb);
    out_occ_.write(port(l.out_occ));
  }

  void walk(cosim::Rng& rng, std::int64_t& w, std::uint64_t thr) {
    const std::int64_t step = static_cast<std::int64_t>(1 + rng.below(4));
    if (rng.chance(phase_.load)) w += step;
    if (!rng.chance(phase_.stall)) w -= step;
    w = static_cast<std::int64_t>(clamp(w));
    if (rng.chance(0.02)) w = static_cast<std::int64_t>(edge(rng, thr));
    if (rng.chance(0.005)) w = static_cast<std::int64_t>(rng.bits(W));
  }
  static vl::port_t<W> port(std::uint64_t v) {
    auto o = vl::zero<vl::port_t<W>>();
    vl::set(o, 0, W, v);
    return o;
  }

  void sampled() override {
    const bool iv = in_valid_.read(), id = in_data_.read(), imb = in_mb_.read();
    const std::uint64_t iocc = vl::get(in_occ_.read(), 0, W);
    const bool ov = out_valid_.read(), od = out_data_.read(), omb = out_mb_.read(), ovb = out_vb_.read();
    const std::uint64_t oocc = vl::get(out_occ_.read(), 0, W);
    cov_.marks += m_.in_mark.read();
    cov_.validations += m_.out_validate.read();
    cov_.violations += m_.out_violation.read();
    cov_.in_at_threshold += iv && id && !imb && iocc == kInThr;
    cov_.in_just_above += iv && id && !imb && iocc == kInThr + 1;
    cov_.out_at_threshold += ov && od && omb && !ovb && oocc == kOutThr;
    cov_.out_just_above += ov && od && omb && !ovb && oocc == kOutThr + 1;
    cov_.marked_above += iv && id && imb && iocc > kInThr;
    cov_.unmarked_above += ov && od && !omb && oocc > kOutThr;
    cov_.control_above += (iv && !id && iocc > kInThr) || (ov && !od && oocc > kOutThr);
    cov_.idle_above += (!iv && iocc > kInThr) || (!ov && oocc > kOutThr);
  }

  std::string coverage() const override {
    return cosim::counts({{"marks", cov_.marks},
                          {"validations", cov_.validations},
                          {"violations", cov_.violations},
                          {"in_at_threshold", cov_.in_at_threshold},
                          {"in_just_above", cov_.in_just_above},
                          {"out_at_threshold", cov_.out_at_threshold},
                          {"out_just_above", cov_.out_just_above},
                          {"marked_above", cov_.marked_above},
                          {"unmarked_above", cov_.unmarked_above},
                          {"control_above", cov_.control_above},
                          {"idle_above", cov_.idle_above}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t marks = 0, validations = 0, violations = 0, in_at_threshold = 0, in_just_above = 0,
                  out_at_threshold = 0, out_just_above = 0, marked_above = 0, unmarked_above = 0, control_above = 0,
                  idle_above = 0;
  } cov_;

  cosim::Phase phase_;
  std::int64_t in_walk_ = 0, out_walk_ = 0;
  sc_core::sc_signal<bool> in_valid_{"in_valid_i"}, in_data_{"in_data_i"}, in_mb_{"in_mb_i"};
  Sig<W> in_occ_{"in_occupancy_i"};
  sc_core::sc_signal<bool> out_valid_{"out_valid_i"}, out_data_{"out_data_i"}, out_mb_{"out_mb_i"}, out_vb_{"out_vb_i"};
  Sig<W> out_occ_{"out_occupancy_i"};
  Outputs m_{"model"}, r_{"rtl"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "mvcm_marker");
  return cosim::dispatch<ccn_sets::mvcm_marker_sets, MvcmMarkerBench>(opt);
}
