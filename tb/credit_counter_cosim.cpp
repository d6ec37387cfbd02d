// Co-simulation of ccn_credit_counter (RTL) against CreditCounter
// (systemc/blocks/credit_counter_sc.hpp).
//
// Legal stimulus: a sender that takes a credit only when the counter is not empty, and a
// downstream that returns, on up to MaxGive lanes, only credits it owes (Init - count), both
// throttled by the traffic phases. With --violate P > 0 each run starts with directed
// violations (take at zero, take at zero while a credit arrives, more credits than MaxGive when
// give_i can express it, give at full) and then breaks the contract at random with probability P
// per cycle. violation_o and error_o are compared every cycle, and the RTL assertions must fire
// exactly in the cycles where the model reports a violation.
#include <cstdint>

#include "blocks/credit_counter_sc.hpp"
#include "ccn_credit_counter_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class CreditCounterBench : public cosim::Harness {
  static constexpr unsigned Init = Set::Init;
  static constexpr unsigned MaxGive = Set::MaxGive;
  using Model = CreditCounterSc<Init, MaxGive>;
  static constexpr unsigned kGiveMax = (1u << Model::kGiveW) - 1;  // largest value give_i can carry
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  CreditCounterBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    model_.give_i(give_);
    model_.take_i(take_);
    model_.count_o(m_count_);
    model_.empty_o(m_empty_);
    model_.full_o(m_full_);
    model_.violation_o(m_violation_);
    model_.error_o(m_error_);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.give_i(give_);
    rtl_.take_i(take_);
    rtl_.count_o(r_count_);
    rtl_.empty_o(r_empty_);
    rtl_.full_o(r_full_);
    rtl_.violation_o(r_violation_);
    rtl_.error_o(r_error_);
    input("give_i", give_);
    input("take_i", take_);
    compare("count_o", r_count_, m_count_);
    compare("empty_o", r_empty_, m_empty_);
    compare("full_o", r_full_, m_full_);
    compare("violation_o", r_violation_, m_violation_);
    compare("error_o", r_error_, m_error_);
    expect_assertions_when(m_violation_);
  }

 private:
  static CreditCounterMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, CreditCounterMutation> kNames[] = {
        {"none", CreditCounterMutation::None},
        {"same_cycle_credit", CreditCounterMutation::SameCycleCredit},
        {"lane_check_off_by_one", CreditCounterMutation::LaneCheckOffByOne},
    };
    return cosim::mutation(opt, kNames);
  }

  // Directed violations after the reset at the start of a run (--violate > 0). Returns false
  // when the script is over.
  bool directed(std::uint32_t& give, bool& take) {
    const std::uint64_t c = cycle();  // 0, 1: reset
    std::uint64_t at = 2;
    give = 0;
    take = false;
    if (c < at) return true;
    if (c < (at += Init)) {  // drain to zero (legal)
      take = true;
      return true;
    }
    if (c < (at += 1)) {  // underflow: take at zero
      take = true;
      return true;
    }
    if (c < (at += 1)) {  // underflow although a credit arrives in the same cycle
      take = true;
      give = 1;
      return true;
    }
    if (c < (at += 1)) {  // at count 1: the widest give_i, a pure lane violation if it fits in Init
      give = kGiveMax;
      return true;
    }
    if (c < (at += (Init + MaxGive - 1) / MaxGive + 1)) {  // fill up, then overflow at full
      give = MaxGive;
      return true;
    }
    if (c < (at += 1)) {  // widest give_i (a lane violation when > MaxGive) with a take, at full
      give = kGiveMax;
      take = true;
      return true;
    }
    return false;
  }

  void stimulus(cosim::Rng& rng, bool /*in_reset*/) override {
    phase_.step(rng);
    const auto count = static_cast<std::uint32_t>(vl::get(m_count_.read(), 0, Model::kCntW));
    const std::uint32_t owed = Init - count;
    std::uint32_t give = 0;
    bool take = false;
    if (!(directed_violations() && directed(give, take))) {
      if (phase_.chaos) {
        give = rng.below((owed < MaxGive ? owed : MaxGive) + 1);
        take = count > 0 && rng.chance(0.5);
      } else {
        for (unsigned k = 0; k < MaxGive; ++k)
          if (give < owed && !rng.chance(phase_.stall)) ++give;
        take = count > 0 && rng.chance(phase_.load);
      }
      if (opt().violate > 0 && rng.chance(opt().violate)) {
        switch (rng.below(3)) {
          case 0:  // take regardless of the count (underflow at zero)
            take = true;
            break;
          case 1:  // any give_i value (overflow and lane violations)
            give = static_cast<std::uint32_t>(rng.below(kGiveMax + 1));
            break;
          default:  // one credit more than owed, if give_i can carry it
            if (owed + 1 <= kGiveMax) give = owed + 1;
            break;
        }
      }
    }
    auto g = vl::zero<vl::port_t<Model::kGiveW>>();
    vl::set(g, 0, Model::kGiveW, give);
    give_.write(g);
    take_.write(take);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const auto count = static_cast<std::uint32_t>(vl::get(m_count_.read(), 0, Model::kCntW));
    const auto give = static_cast<std::uint32_t>(vl::get(give_.read(), 0, Model::kGiveW));
    const bool take = take_.read();
    cov_.takes += take;
    cov_.credits += give;
    cov_.give_and_take += take && give > 0;
    cov_.empty += count == 0;
    cov_.full += count == Init;
    cov_.underflow += take && count == 0;
    cov_.lane += give > MaxGive;
    cov_.overflow += count - (take && count > 0 ? 1u : 0u) + give > Init;
  }

  std::string coverage() const override {
    return cosim::counts({{"takes", cov_.takes},
                          {"credits_given", cov_.credits},
                          {"give_and_take_cycles", cov_.give_and_take},
                          {"empty_cycles", cov_.empty},
                          {"full_cycles", cov_.full},
                          {"underflows", cov_.underflow},
                          {"overflows", cov_.overflow},
                          {"lane_violations", cov_.lane}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t takes = 0, credits = 0, give_and_take = 0, empty = 0, full = 0, underflow = 0, overflow = 0,
                  lane = 0;
  } cov_;

  cosim::Phase phase_;
  Sig<Model::kGiveW> give_{"give_i"};
  sc_core::sc_signal<bool> take_{"take_i"};
  Sig<Model::kCntW> m_count_{"model_count_o"}, r_count_{"rtl_count_o"};
  sc_core::sc_signal<bool> m_empty_{"model_empty_o"}, r_empty_{"rtl_empty_o"};
  sc_core::sc_signal<bool> m_full_{"model_full_o"}, r_full_{"rtl_full_o"};
  sc_core::sc_signal<bool> m_violation_{"model_violation_o"}, r_violation_{"rtl_violation_o"};
  sc_core::sc_signal<bool> m_error_{"model_error_o"}, r_error_{"rtl_error_o"};
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "credit_counter");
  return cosim::dispatch<ccn_sets::credit_counter_sets, CreditCounterBench>(opt);
}
