// Co-simulation of ccn_injection_engine (RTL) against InjectionEngine
// (systemc/blocks/injection_engine_sc.hpp).
//
// Stimulus: a NIC's send queues. Messages of 1..4 packets arrive at the phase's offered load, at
// random queues or at one hot queue; a queue is non-empty while it holds packets, and each
// packet has its length (1 .. 2^LenWidth - 1 flits, rarely 0). len_i is the granted queue's head
// length, selected combinationally from the model's grant as a NIC would (garbage when there is
// no grant). ready_i follows the data path: low while a granted packet streams out (len cycles)
// in some phases, random stalls in others. BECN lanes carry notifications at a per-phase rate
// (none .. every lane every cycle), mostly for a hot queue, sometimes for a queue >= NumQueues
// when the index can name one (ignored by both sides); idle lanes carry garbage. On timer ticks
// (tick_o) phases aim BECNs at queues with CCTI 0, 1 and CctiLimit, so the decrement and the
// increase meet at the saturation edges. Chaos phases draw non-empty bits at random every cycle.
// Each run starts with a directed sequence: BECN floods for queue 0 (CCTI saturates), a grant
// of queue 0 with its largest gap, and a BECN on the first timer tick.
#include <cstdint>
#include <vector>

#include "blocks/injection_engine_sc.hpp"
#include "ccn_injection_engine_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class InjectionEngineBench : public cosim::Harness {
  static constexpr unsigned N = Set::NumQueues;
  static constexpr unsigned LenW = Set::LenWidth;
  static constexpr unsigned B = Set::NumBecn;
  static constexpr unsigned kLimit = Set::CctiLimit;
  using Model = InjectionEngineSc<N, LenW, Set::IpdUnit, Set::CctiIncrease, kLimit, Set::TimerPeriod, B>;
  static constexpr unsigned kIdxW = Model::kIdxW;
  static constexpr unsigned kCctiW = Model::kCctiW;
  static constexpr unsigned kWaitW = Model::kWaitW;
  static constexpr std::uint32_t kMaxLen = (1u << LenW) - 1;
  // End of the directed BECN flood: enough BECNs to saturate CCTI (at most 64 cycles).
  static constexpr std::uint64_t kFloodSteps = Set::CctiIncrease > 0 ? kLimit / Set::CctiIncrease + 2 : 2;
  static constexpr std::uint64_t kFloodEnd = 2 + (kFloodSteps < 64 ? kFloodSteps : 64);
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  SC_HAS_PROCESS(InjectionEngineBench);
  InjectionEngineBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl"), queues_(N) {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.nonempty_i(nonempty_);
    model_.ready_i(ready_);
    model_.len_i(len_);
    model_.becn_valid_i(becn_valid_);
    model_.becn_queue_i(becn_queue_);
    model_.gnt_o(m_gnt_);
    model_.gnt_valid_o(m_valid_);
    model_.gnt_idx_o(m_idx_);
    model_.ccti_o(m_ccti_);
    model_.wait_o(m_wait_);
    model_.tick_o(m_tick_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.nonempty_i(nonempty_);
    rtl_.ready_i(ready_);
    rtl_.len_i(len_);
    rtl_.becn_valid_i(becn_valid_);
    rtl_.becn_queue_i(becn_queue_);
    rtl_.gnt_o(r_gnt_);
    rtl_.gnt_valid_o(r_valid_);
    rtl_.gnt_idx_o(r_idx_);
    rtl_.ccti_o(r_ccti_);
    rtl_.wait_o(r_wait_);
    rtl_.tick_o(r_tick_);
    input("nonempty_i", nonempty_);
    input("ready_i", ready_);
    input("len_i", len_);
    input("becn_valid_i", becn_valid_);
    input("becn_queue_i", becn_queue_);
    compare("gnt_o", r_gnt_, m_gnt_);
    compare("gnt_valid_o", r_valid_, m_valid_);
    compare("gnt_idx_o", r_idx_, m_idx_);
    compare("ccti_o", r_ccti_, m_ccti_);
    compare("wait_o", r_wait_, m_wait_);
    compare("tick_o", r_tick_, m_tick_);
    // The NIC selects the granted queue's head length with the grant (combinational).
    SC_METHOD(select_len);
    sensitive << m_valid_ << m_idx_ << heads_changed_;
  }

 private:
  static InjectionEngineMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, InjectionEngineMutation> kNames[] = {
        {"none", InjectionEngineMutation::None},
        {"len_short", InjectionEngineMutation::LenShort},
        {"eligible_early", InjectionEngineMutation::EligibleEarly},
        {"lose_becn", InjectionEngineMutation::LoseBecn},
        {"becn_late_on_tick", InjectionEngineMutation::BecnLateOnTick},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Queue {
    std::uint32_t packets = 0;
    std::uint32_t head_len = 1;
  };

  std::uint32_t new_length(cosim::Rng& rng) {
    if (rng.chance(0.01)) return 0;
    if (rng.chance(0.2)) return kMaxLen;
    return 1 + rng.below(kMaxLen);
  }
  std::uint32_t ccti(unsigned q) const { return static_cast<std::uint32_t>(vl::get(m_ccti_.read(), q * kCctiW, kCctiW)); }

  void select_len() {
    auto l = vl::zero<vl::port_t<LenW>>();
    const bool g = m_valid_.read();
    const unsigned q = static_cast<unsigned>(vl::get(m_idx_.read(), 0, kIdxW));
    vl::set(l, 0, LenW, g && q < N ? queues_[q].head_len : garbage_len_);
    len_.write(l);
  }

  // A new phase's BECN behaviour.
  void new_becn_phase(cosim::Rng& rng) {
    static const double kRates[] = {0.0, 0.0, 0.001, 0.01, 0.05, 0.2, 0.6, 1.0};
    becn_rate_ = kRates[rng.below(8)];
    hot_ = rng.below(N);
    on_tick_ = rng.chance(0.4);
    busy_model_ = rng.chance(0.5);
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    const std::uint32_t left = phase_.left;
    phase_.step(rng);
    if (left == 0) new_becn_phase(rng);
    const std::uint64_t c = cycle();
    // Directed start: BECN floods for queue 0 (CCTI to its limit), queue 0 full of packets of the
    // longest length, granted, then a BECN for it on the ticks of the next two timer periods.
    const bool directed = c < kFloodEnd + 2 * Set::TimerPeriod;
    if (c == 0) {
      queues_[0].packets = 4;
      queues_[0].head_len = kMaxLen;
    }

    // Messages arrive.
    if (!phase_.chaos && rng.chance(phase_.load * 0.3)) {
      const unsigned q = rng.chance(0.5) ? hot_ : rng.below(N);
      if (queues_[q].packets == 0) queues_[q].head_len = new_length(rng);
      queues_[q].packets += 1 + rng.below(4);
    }
    auto ne = vl::zero<vl::port_t<N>>();
    for (unsigned q = 0; q < N; ++q) {
      const bool on = phase_.chaos ? rng.chance(phase_.load) : queues_[q].packets > 0;
      if (phase_.chaos && on) queues_[q].head_len = new_length(rng);
      vl::set(ne, q, 1, on);
    }

    // The data path: busy while a packet streams out, or random stalls.
    bool ready;
    if (busy_model_ && !phase_.chaos) {
      ready = busy_ == 0 && !rng.chance(phase_.stall * 0.2);
    } else {
      ready = !rng.chance(phase_.stall);
    }
    if (in_reset) busy_ = 0;

    // BECN lanes.
    auto bv = vl::zero<vl::port_t<B>>();
    auto bq = vl::zero<vl::port_t<B * kIdxW>>();
    const bool tick = m_tick_.read();
    unsigned targets[3] = {hot_, hot_, hot_};
    unsigned nt = 0;
    if (tick && on_tick_) {
      // Queues at CCTI 0, 1 and the limit: the tick and the BECNs meet at the saturation edges.
      for (unsigned q = 0; q < N && nt < 3; ++q) {
        const std::uint32_t v = ccti((q + hot_) % N);
        if (v == 0 || v == 1 || v == kLimit) targets[nt++] = (q + hot_) % N;
      }
    }
    for (unsigned k = 0; k < B; ++k) {
      bool on = false;
      std::uint64_t q = rng.bits(kIdxW);  // garbage unless valid
      if (directed) {
        on = c >= 2 && (c < kFloodEnd || (tick && k == 0));
        q = 0;
      } else if (tick && on_tick_ && nt > 0 && rng.chance(0.8)) {
        on = true;
        q = targets[rng.below(nt)];
      } else if (rng.chance(becn_rate_)) {
        on = true;
        if (rng.chance(0.6)) q = hot_;
        else if (rng.chance(0.1)) q = rng.bits(kIdxW);  // may name no queue
        else q = rng.below(N);
      }
      vl::set(bv, k, 1, on);
      vl::set(bq, k * kIdxW, kIdxW, q);
    }

    garbage_len_ = static_cast<std::uint32_t>(rng.bits(LenW));
    nonempty_.write(ne);
    ready_.write(ready);
    becn_valid_.write(bv);
    becn_queue_.write(bq);
    heads_changed_.notify(sc_core::SC_ZERO_TIME);
    // Next head lengths are drawn after grants (sampled()).
    for (unsigned q = 0; q < N; ++q)
      if (redraw_[q]) {
        queues_[q].head_len = new_length(rng);
        redraw_[q] = false;
      }
  }

  void sampled() override {
    if (busy_ > 0) --busy_;
    if (!rst_n.read()) return;
    const bool g = m_valid_.read();
    const unsigned gq = static_cast<unsigned>(vl::get(m_idx_.read(), 0, kIdxW));
    const auto ne = nonempty_.read();
    const auto wait = m_wait_.read();
    const auto bv = becn_valid_.read();
    const auto bq = becn_queue_.read();
    const bool tick = m_tick_.read();
    bool blocked = false;
    unsigned becns = 0;
    for (unsigned q = 0; q < N; ++q) {
      const std::uint64_t w = vl::get(wait, q * kWaitW, kWaitW);
      blocked = blocked || (vl::bit(ne, q) && w > 0);
      cov_.ccti_at_limit += kLimit > 0 && ccti(q) == kLimit;
    }
    for (unsigned k = 0; k < B; ++k) {
      if (!vl::bit(bv, k)) continue;
      ++becns;
      const auto q = static_cast<unsigned>(vl::get(bq, k * kIdxW, kIdxW));
      if (q >= N) {
        ++cov_.becn_no_queue;
        continue;
      }
      cov_.becn_at_limit += kLimit > 0 && ccti(q) == kLimit;
      cov_.tick_becn_zero += tick && ccti(q) == 0;
      cov_.tick_becn_limit += tick && kLimit > 0 && ccti(q) == kLimit;
    }
    cov_.becns += becns;
    cov_.multi_becn += becns > 1;
    cov_.ticks += tick;
    cov_.tick_becn += tick && becns > 0;
    cov_.gap_blocked += blocked;
    cov_.grants += g;
    cov_.not_ready += !ready_.read() && !g && ne != vl::zero<vl::port_t<N>>();
    if (g && gq < N) {
      const auto len = static_cast<std::uint32_t>(vl::get(len_.read(), 0, LenW));
      cov_.max_len_grants += len == kMaxLen;
      if (!phase_.chaos && queues_[gq].packets > 0) {
        --queues_[gq].packets;
        redraw_[gq] = true;
      }
      if (busy_model_) busy_ = len;
    }
  }

  std::string coverage() const override {
    return cosim::counts({{"grants", cov_.grants},
                          {"max_len_grants", cov_.max_len_grants},
                          {"gap_blocked_cycles", cov_.gap_blocked},
                          {"not_ready_cycles", cov_.not_ready},
                          {"becns", cov_.becns},
                          {"multi_becn_cycles", cov_.multi_becn},
                          {"becn_no_queue", cov_.becn_no_queue},
                          {"becn_at_limit", cov_.becn_at_limit},
                          {"ccti_at_limit_queue_cycles", cov_.ccti_at_limit},
                          {"ticks", cov_.ticks},
                          {"tick_becn_cycles", cov_.tick_becn},
                          {"tick_becn_at_zero", cov_.tick_becn_zero},
                          {"tick_becn_at_limit", cov_.tick_becn_limit}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t grants = 0, max_len_grants = 0, gap_blocked = 0, not_ready = 0, becns = 0, multi_becn = 0,
                  becn_no_queue = 0, becn_at_limit = 0, ccti_at_limit = 0, ticks = 0, tick_becn = 0, tick_becn_zero = 0,
                  tick_becn_limit = 0;
  } cov_;

  Sig<N> nonempty_{"nonempty_i"};
  sc_core::sc_signal<bool> ready_{"ready_i"};
  Sig<LenW> len_{"len_i"};
  Sig<B> becn_valid_{"becn_valid_i"};
  Sig<B * kIdxW> becn_queue_{"becn_queue_i"};
  Sig<N> m_gnt_{"model_gnt_o"}, r_gnt_{"rtl_gnt_o"};
  sc_core::sc_signal<bool> m_valid_{"model_gnt_valid_o"}, r_valid_{"rtl_gnt_valid_o"};
  Sig<kIdxW> m_idx_{"model_gnt_idx_o"}, r_idx_{"rtl_gnt_idx_o"};
  Sig<N * kCctiW> m_ccti_{"model_ccti_o"}, r_ccti_{"rtl_ccti_o"};
  Sig<N * kWaitW> m_wait_{"model_wait_o"}, r_wait_{"rtl_wait_o"};
  sc_core::sc_signal<bool> m_tick_{"model_tick_o"}, r_tick_{"rtl_tick_o"};
  Model model_;
  typename Set::Rtl rtl_;
  sc_core::sc_event heads_changed_;
  cosim::Phase phase_;
  std::vector<Queue> queues_;
  bool redraw_[N] = {};
  std::uint32_t garbage_len_ = 0;
  std::uint32_t busy_ = 0;
  double becn_rate_ = 0.0;
  unsigned hot_ = 0;
  bool on_tick_ = false;
  bool busy_model_ = false;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "injection_engine");
  return cosim::dispatch<ccn_sets::injection_engine_sets, InjectionEngineBench>(opt);
}
