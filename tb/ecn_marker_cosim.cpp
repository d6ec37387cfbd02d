// Co-simulation of ccn_ecn_marker (RTL) against EcnMarker (systemc/blocks/ecn_marker_sc.hpp).
//
// Stimulus: packet heads passing the marking point (valid_i) at the phase's offered load, mostly
// data packets (data_i), with the measured buffer's occupancy following a random walk that the
// load drives up and back-pressure-free phases drain, plus jumps to the threshold's edges
// (Threshold - 1, Threshold, Threshold + 1), to 0 and to the largest value occupancy_i can
// carry. Chaos phases draw every field at random each cycle. Idle cycles carry garbage in
// data_i / occupancy_i. Each run starts with a directed sequence: a head exactly at the
// threshold (not eligible), one just above (marked), a control packet and an idle cycle with a
// full buffer (neither eligible), then MarkingRate + 1 eligible heads (the skip counter wraps)
// when MarkingRate is small. The block has no contract to violate (every input is legal).
#include <cstdint>

#include "blocks/ecn_marker_sc.hpp"
#include "ccn_ecn_marker_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class EcnMarkerBench : public cosim::Harness {
  static constexpr unsigned W = Set::OccWidth;
  static constexpr std::uint64_t kThreshold = Set::Threshold;
  static constexpr std::uint64_t kRate = Set::MarkingRate;
  using Model = EcnMarkerSc<W, Set::Threshold, Set::MarkingRate>;
  static constexpr unsigned kSkipW = Model::kSkipW;
  static constexpr std::uint64_t kMaxOcc = (std::uint64_t{1} << W) - 1;  // W <= 32
  template <unsigned Width>
  using Sig = sc_core::sc_signal<vl::port_t<Width>>;

 public:
  EcnMarkerBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.valid_i(valid_);
    model_.data_i(data_);
    model_.occupancy_i(occ_);
    model_.eligible_o(m_eligible_);
    model_.mark_o(m_mark_);
    model_.skip_o(m_skip_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.valid_i(valid_);
    rtl_.data_i(data_);
    rtl_.occupancy_i(occ_);
    rtl_.eligible_o(r_eligible_);
    rtl_.mark_o(r_mark_);
    rtl_.skip_o(r_skip_);
    input("valid_i", valid_);
    input("data_i", data_);
    input("occupancy_i", occ_);
    compare("eligible_o", r_eligible_, m_eligible_);
    compare("mark_o", r_mark_, m_mark_);
    compare("skip_o", r_skip_, m_skip_);
  }

 private:
  static EcnMarkerMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, EcnMarkerMutation> kNames[] = {
        {"none", EcnMarkerMutation::None},
        {"threshold_inclusive", EcnMarkerMutation::ThresholdInclusive},
        {"rate_off_by_one", EcnMarkerMutation::RateOffByOne},
        {"skip_counts_all", EcnMarkerMutation::SkipCountsAll},
    };
    return cosim::mutation(opt, kNames);
  }

  static std::uint64_t clamp(std::int64_t v) {
    if (v < 0) return 0;
    return static_cast<std::uint64_t>(v) > kMaxOcc ? kMaxOcc : static_cast<std::uint64_t>(v);
  }
  // An occupancy at one of the threshold's edges, or an extreme.
  std::uint64_t edge(cosim::Rng& rng) {
    switch (rng.below(6)) {
      case 0: return clamp(static_cast<std::int64_t>(kThreshold) - 1);
      case 1: return clamp(static_cast<std::int64_t>(kThreshold));
      case 2:
      case 3: return clamp(static_cast<std::int64_t>(kThreshold) + 1);
      case 4: return 0;
      default: return kMaxOcc;
    }
  }

  // Directed start of a run (cycles 0, 1: reset). Returns false when the script is over.
  bool directed(bool& valid, bool& data, std::uint64_t& occ) {
    const std::uint64_t c = cycle();
    valid = true;
    data = true;
    occ = clamp(static_cast<std::int64_t>(kThreshold) + 1);
    if (c < 2) return true;
    if (c == 2) {
      occ = clamp(static_cast<std::int64_t>(kThreshold));  // at the threshold: not above
    } else if (c == 3) {
      // just above: eligible and marked
    } else if (c == 4) {
      data = false;  // control packet, full buffer
      occ = kMaxOcc;
    } else if (c == 5) {
      valid = false;  // idle, full buffer, data
      occ = kMaxOcc;
    } else if (kRate <= 64 && c < 6 + kRate + 2) {
      // eligible heads back to back: the counter runs down to 0 and marks again
    } else {
      return false;
    }
    return true;
  }

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    phase_.step(rng);
    bool valid = false, data = false;
    std::uint64_t occ = 0;
    if (!directed(valid, data, occ)) {
      if (phase_.chaos) {
        valid = rng.chance(phase_.load);
        data = rng.chance(0.5);
        occ = rng.chance(0.5) ? rng.bits(W) : edge(rng);
      } else {
        // The buffer fills while heads arrive faster than the link drains it.
        const std::int64_t step = static_cast<std::int64_t>(1 + rng.below(4));
        if (rng.chance(phase_.load)) walk_ += step;
        if (!rng.chance(phase_.stall)) walk_ -= step;
        walk_ = static_cast<std::int64_t>(clamp(walk_));
        if (rng.chance(0.02)) walk_ = static_cast<std::int64_t>(edge(rng));
        if (rng.chance(0.005)) walk_ = static_cast<std::int64_t>(rng.bits(W));
        valid = rng.chance(phase_.load);
        data = rng.chance(0.85);
        occ = rng.chance(0.1) ? edge(rng) : static_cast<std::uint64_t>(walk_);
      }
      if (!valid) {
        data = rng.chance(0.5);  // garbage
        occ = rng.bits(W);
      }
    }
    auto o = vl::zero<vl::port_t<W>>();
    vl::set(o, 0, W, occ);
    valid_.write(valid);
    data_.write(data);
    occ_.write(o);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const bool valid = valid_.read();
    const bool data = data_.read();
    const std::uint64_t occ = vl::get(occ_.read(), 0, W);
    const bool eligible = m_eligible_.read();
    cov_.heads += valid;
    cov_.eligible += eligible;
    cov_.marks += m_mark_.read();
    cov_.skipped += eligible && !m_mark_.read();
    cov_.at_threshold += valid && data && occ == kThreshold;
    cov_.just_above += valid && data && occ == kThreshold + 1;
    cov_.control_above += valid && !data && occ > kThreshold;
    cov_.idle_above += !valid && occ > kThreshold;
    const std::uint64_t skip = vl::get(m_skip_.read(), 0, kSkipW);
    cov_.rate_reloads += m_mark_.read() && kRate > 0;
    cov_.skip_ends += eligible && skip == 1;  // the next eligible head is marked again
  }

  std::string coverage() const override {
    return cosim::counts({{"heads", cov_.heads},
                          {"eligible", cov_.eligible},
                          {"marks", cov_.marks},
                          {"skipped", cov_.skipped},
                          {"at_threshold", cov_.at_threshold},
                          {"just_above", cov_.just_above},
                          {"control_above", cov_.control_above},
                          {"idle_above", cov_.idle_above},
                          {"skip_reloads", cov_.rate_reloads},
                          {"skip_ends", cov_.skip_ends}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t heads = 0, eligible = 0, marks = 0, skipped = 0, at_threshold = 0, just_above = 0, control_above = 0,
                  idle_above = 0, rate_reloads = 0, skip_ends = 0;
  } cov_;

  cosim::Phase phase_;
  std::int64_t walk_ = 0;
  sc_core::sc_signal<bool> valid_{"valid_i"};
  sc_core::sc_signal<bool> data_{"data_i"};
  Sig<W> occ_{"occupancy_i"};
  sc_core::sc_signal<bool> m_eligible_{"model_eligible_o"}, r_eligible_{"rtl_eligible_o"};
  sc_core::sc_signal<bool> m_mark_{"model_mark_o"}, r_mark_{"rtl_mark_o"};
  Sig<kSkipW> m_skip_{"model_skip_o"}, r_skip_{"rtl_skip_o"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "ecn_marker");
  return cosim::dispatch<ccn_sets::ecn_marker_sets, EcnMarkerBench>(opt);
}
