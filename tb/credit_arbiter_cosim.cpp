// Co-simulation of ccn_credit_arbiter (RTL) against CreditArbiter
// (systemc/blocks/credit_arbiter_sc.hpp).
//
// Each reset draws a new configuration: a random visiting order (a permutation) and random
// weights (1 .. 2^WeightW - 1). Legal stimulus, throttled by the traffic phases: request ports
// asking for packets of random inputs within the counter bound MaxReq (ports in order, as the
// block applies them), credits returned only for crosspoint slots taken, a consumer that refuses
// grants (gnt_ready_i low) at the phase's stall rate. With --violate P > 0 each run starts with
// directed violations (a request beyond MaxReq, a credit to a full path, and an input / path index
// out of range where the ports can express one) and then breaks the contract at random with
// probability P per cycle. Every output is compared every cycle, and the RTL assertions must fire
// exactly in the cycles where the model reports a violation.
#include <cstdint>
#include <vector>

#include "blocks/credit_arbiter_sc.hpp"
#include "ccn_credit_arbiter_sets.hpp"
#include "cosim.hpp"

namespace {

using namespace ccnet::blocks;
namespace vl = ccnet::blocks::vl;

template <class Set>
class CreditArbiterBench : public cosim::Harness {
  static constexpr unsigned NumIn = Set::NumIn, NumPath = Set::NumPath, Credits = Set::Credits, MaxReq = Set::MaxReq,
                            NumReq = Set::NumReq, WeightW = Set::WeightW;
  using Model = CreditArbiterSc<NumIn, NumPath, Credits, MaxReq, NumReq, Set::StrictPath, Set::Weighted, WeightW,
                                Set::DistOffset>;
  static constexpr unsigned kInW = Model::kInW, kPathW = Model::kPathW, kCntW = Model::kCntW;
  template <unsigned W>
  using Sig = sc_core::sc_signal<vl::port_t<W>>;

 public:
  CreditArbiterBench(const sc_core::sc_module_name& name, const cosim::Options& opt)
      : cosim::Harness(name, opt, Set::kName), model_("model", mutation(opt)), rtl_("rtl") {
    model_.clk_i(clk);
    model_.rst_ni(rst_n);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    bind(model_, m_);
    bind(rtl_, r_);
    input("req_valid_i", req_valid_);
    input("req_input_i", req_input_);
    input("req_count_i", req_count_);
    input("cred_valid_i", cred_valid_);
    input("cred_path_i", cred_path_);
    input("order_i", order_);
    input("weight_i", weight_);
    input("gnt_ready_i", gnt_ready_);
    compare("gnt_valid_o", r_.gnt_valid, m_.gnt_valid);
    compare("gnt_input_o", r_.gnt_input, m_.gnt_input);
    compare("gnt_path_o", r_.gnt_path, m_.gnt_path);
    compare("ptr_o", r_.ptr, m_.ptr);
    compare("pending_o", r_.pending, m_.pending);
    compare("taken_o", r_.taken, m_.taken);
    compare("violation_o", r_.violation, m_.violation);
    compare("error_o", r_.error, m_.error);
    expect_assertions_when(m_.violation);
  }

 private:
  struct Outs {
    sc_core::sc_signal<bool> gnt_valid;
    Sig<kInW> gnt_input;
    Sig<kPathW> gnt_path;
    Sig<kInW> ptr;
    Sig<Model::kPendW> pending;
    Sig<Model::kTakenW> taken;
    sc_core::sc_signal<bool> violation, error;
  };

  template <class M>
  void bind(M& m, Outs& o) {
    m.req_valid_i(req_valid_);
    m.req_input_i(req_input_);
    m.req_count_i(req_count_);
    m.cred_valid_i(cred_valid_);
    m.cred_path_i(cred_path_);
    m.order_i(order_);
    m.weight_i(weight_);
    m.gnt_ready_i(gnt_ready_);
    m.gnt_valid_o(o.gnt_valid);
    m.gnt_input_o(o.gnt_input);
    m.gnt_path_o(o.gnt_path);
    m.ptr_o(o.ptr);
    m.pending_o(o.pending);
    m.taken_o(o.taken);
    m.violation_o(o.violation);
    m.error_o(o.error);
  }

  static CreditArbiterMutation mutation(const cosim::Options& opt) {
    static const std::pair<const char*, CreditArbiterMutation> kNames[] = {
        {"none", CreditArbiterMutation::None},
        {"not_strict", CreditArbiterMutation::NotStrict},
        {"unweighted", CreditArbiterMutation::Unweighted},
        {"credit_too_late", CreditArbiterMutation::CreditTooLate},
        {"order_ignored", CreditArbiterMutation::OrderIgnored},
    };
    return cosim::mutation(opt, kNames);
  }

  struct Req {
    bool valid = false;
    std::uint32_t input = 0, count = 0;
  };

  // Directed violations after the reset at the start of a run (--violate > 0): fill input 0's
  // counter to MaxReq with grants refused, then one more request (beyond MaxReq); a credit to a
  // full path; an input index >= NumIn and a path index >= NumPath where the ports can carry one.
  // Returns false when the script is over.
  bool directed(std::vector<Req>& reqs, bool& cred, std::uint32_t& path, bool& ready) {
    const std::uint64_t c = cycle();
    ready = false;
    if (c < 2) return true;
    switch (c) {
      case 2: reqs[0] = {true, 0, MaxReq}; return true;            // legal: counter at MaxReq
      case 3: reqs[0] = {true, 0, 1}; return true;                 // beyond MaxReq
      case 4: cred = true; path = 0; return true;                  // path 0 is full (no grant used)
      case 5:
        if ((1u << kInW) > NumIn) reqs[0] = {true, NumIn, 1};      // input out of range
        return true;
      case 6:
        if ((1u << kPathW) > NumPath) {
          cred = true;
          path = NumPath;                                           // path out of range
        }
        return true;
      default: return false;
    }
  }

  void stimulus(cosim::Rng& rng, bool in_reset) override {
    phase_.step(rng);
    std::vector<Req> reqs(NumReq);
    bool cred = false, ready = false;
    std::uint32_t path = 0;
    if (in_reset) {
      // A new configuration: a random permutation and random weights, stable until the next reset.
      std::vector<std::uint32_t> order(NumIn);
      for (unsigned i = 0; i < NumIn; ++i) order[i] = i;
      for (unsigned k = NumIn; k > 1; --k) std::swap(order[k - 1], order[rng.below(k)]);
      auto o = vl::zero<vl::port_t<NumIn * kInW>>();
      auto w = vl::zero<vl::port_t<NumIn * WeightW>>();
      for (unsigned i = 0; i < NumIn; ++i) {
        vl::set(o, i * kInW, kInW, order[i]);
        vl::set(w, i * WeightW, WeightW, 1 + rng.below((1u << WeightW) - 1));
      }
      order_.write(o);
      weight_.write(w);
    } else if (!(directed_violations() && directed(reqs, cred, path, ready))) {
      const CreditArbiter& core = model_.core();
      std::vector<std::uint32_t> planned(NumIn, 0);  // this cycle's earlier ports
      for (unsigned p = 0; p < NumReq; ++p) {
        if (!rng.chance(phase_.load)) continue;
        const std::uint32_t i = rng.below(NumIn);
        const std::uint32_t room = MaxReq - core.requests(i) - planned[i];
        if (room == 0) continue;
        const std::uint32_t n = phase_.chaos ? 1 + rng.below(room) : 1 + rng.below(room < 3 ? room : 3);
        reqs[p] = {true, i, n};
        planned[i] += n;
      }
      if (!rng.chance(phase_.stall)) {
        const std::uint32_t b = rng.below(NumPath);
        if (core.credits(b) < Credits) {
          cred = true;
          path = b;
        }
      }
      ready = !rng.chance(phase_.stall);
      if (opt().violate > 0 && rng.chance(opt().violate)) {
        switch (rng.below(4)) {
          case 0: {  // a request beyond MaxReq on port 0, if the count field can carry it
            const std::uint32_t i = rng.below(NumIn);
            const std::uint32_t over = MaxReq - core.requests(i) + 1;
            if (over < (1u << kCntW)) reqs[0] = {true, i, over};
            break;
          }
          case 1:  // any input index
            reqs[0] = {true, rng.below(1u << kInW), 1};
            break;
          case 2:  // a credit to any path (a full one is a violation)
            cred = true;
            path = rng.below(1u << kPathW);
            break;
          default:  // a credit to a full path, if there is one
            for (std::uint32_t b = 0; b < NumPath; ++b)
              if (core.credits(b) == Credits) {
                cred = true;
                path = b;
                break;
              }
            break;
        }
      }
    }
    auto valid = vl::zero<vl::port_t<NumReq>>();
    auto input = vl::zero<vl::port_t<NumReq * kInW>>();
    auto count = vl::zero<vl::port_t<NumReq * kCntW>>();
    for (unsigned p = 0; p < NumReq; ++p) {
      vl::set(valid, p, 1, reqs[p].valid ? 1 : 0);
      vl::set(input, p * kInW, kInW, reqs[p].input);
      vl::set(count, p * kCntW, kCntW, reqs[p].count);
    }
    req_valid_.write(valid);
    req_input_.write(input);
    req_count_.write(count);
    cred_valid_.write(cred);
    auto pa = vl::zero<vl::port_t<kPathW>>();
    vl::set(pa, 0, kPathW, path);
    cred_path_.write(pa);
    gnt_ready_.write(ready);
  }

  void sampled() override {
    if (!rst_n.read()) return;
    const bool g = m_.gnt_valid.read();
    cov_.grants += g && gnt_ready_.read();
    cov_.refused += g && !gnt_ready_.read();
    cov_.idle += !g;
    cov_.credits += cred_valid_.read();
    cov_.violations += m_.violation.read();
    const auto pending = vl::get(m_.pending.read(), 0, Model::kPendW);
    cov_.backlogged += pending >= NumIn;
    cov_.all_taken += vl::get(m_.taken.read(), 0, Model::kTakenW) == NumPath * Credits;
  }

  std::string coverage() const override {
    return cosim::counts({{"grants_used", cov_.grants},
                          {"grants_refused", cov_.refused},
                          {"no_grant_cycles", cov_.idle},
                          {"credits_returned", cov_.credits},
                          {"backlogged_cycles", cov_.backlogged},
                          {"all_credits_taken_cycles", cov_.all_taken},
                          {"violations", cov_.violations}});
  }

  void trace_rtl(VerilatedFstSc* tfp) override { rtl_.trace(tfp, 99); }

  struct Coverage {
    std::uint64_t grants = 0, refused = 0, idle = 0, credits = 0, violations = 0, backlogged = 0, all_taken = 0;
  } cov_;

  cosim::Phase phase_;
  Sig<NumReq> req_valid_{"req_valid_i"};
  Sig<NumReq * kInW> req_input_{"req_input_i"};
  Sig<NumReq * kCntW> req_count_{"req_count_i"};
  sc_core::sc_signal<bool> cred_valid_{"cred_valid_i"};
  Sig<kPathW> cred_path_{"cred_path_i"};
  Sig<NumIn * kInW> order_{"order_i"};
  Sig<NumIn * WeightW> weight_{"weight_i"};
  sc_core::sc_signal<bool> gnt_ready_{"gnt_ready_i"};
  Outs m_, r_;
  Model model_;
  typename Set::Rtl rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const cosim::Options opt = cosim::parse(argc, argv, "credit_arbiter");
  return cosim::dispatch<ccn_sets::credit_arbiter_sets, CreditArbiterBench>(opt);
}
