// Co-simulation harness shared by the benches tb/<blk>_cosim.cpp (DESIGN.md section 4).
//
// A bench is a Harness subclass holding the block's SystemC wrapper (the C++ core, the model) and
// its Verilated RTL (--sc) bound to the same input signals, each with its own output signals.
// The harness owns the clock (1 ns, rising at 0.5 ns) and the reset, and:
//   * at time 0 and every falling edge: sets rst_ni (2 cycles at each run start, rare random 1-2 cycle
//     resets) and calls stimulus(), which writes the next inputs from the seeded Rng;
//   * at every rising edge (before the edge takes effect): compares every registered output pair
//     and stops at the first difference, printing seed, cycle, signal, both values, the inputs
//     and a command that reproduces it with waves; then calls sampled() so the bench can follow
//     what the block did (e.g. which request was served);
//   * after every rising edge: checks that the RTL assertions fired exactly when the model says
//     the cycle broke the block's contract (violation_o), and never otherwise;
//   * runs `runs` seeds (seed, seed+1, ...) of `cycles` cycles each, with a reset between runs;
//     the RTL flops start with random values (Verilator randReset), so a flop the reset misses
//     shows up as a mismatch.
// --wave writes <prefix>_rtl.fst (Verilator, RTL internals) and <prefix>_sc.vcd (SystemC: inputs,
// model outputs and RTL outputs).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <systemc>
#include <verilated.h>
#include <verilated_fst_sc.h>

#include "blocks/vl_port.hpp"
#include "core/rng.hpp"

namespace cosim {

namespace vl = ccnet::blocks::vl;

struct Options {
  std::string program;
  std::string block;
  std::string set;
  std::uint64_t seed = 1;
  std::uint64_t runs = 1;
  std::uint64_t cycles = 10000;
  bool wave = false;
  std::string wave_prefix;
  std::string mutate = "none";
  double violate = 0.0;  // per-cycle probability of a deliberate contract violation (if the block has one)
  bool list = false;
};

inline void usage(const Options& o) {
  std::printf(
      "usage: %s --set NAME [--seed S] [--runs K] [--cycles C] [--violate P] [--mutate M]\n"
      "       %*s [--wave [PREFIX]] | --list\n"
      "  Co-simulates the %s C++ model against its Verilated RTL for K runs (seeds S..S+K-1)\n"
      "  of C cycles each, comparing every output every cycle.\n"
      "  --set NAME     parameter set (--list shows them)\n"
      "  --violate P    per-cycle probability of deliberate contract violations (blocks with an\n"
      "                 error flag); > 0 also starts each run with directed violations\n"
      "  --mutate M     deliberately break the C++ side (mutation smoke test)\n"
      "  --wave PREFIX  write PREFIX_rtl.fst (RTL) and PREFIX_sc.vcd (SystemC)\n",
      o.program.c_str(), static_cast<int>(o.program.size()), "", o.block.c_str());
}

inline Options parse(int argc, char** argv, const char* block) {
  Options o;
  o.program = argv[0];
  o.block = block;
  auto need = [&](int& i) -> const char* {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
      std::exit(2);
    }
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--set") o.set = need(i);
    else if (a == "--seed") o.seed = std::strtoull(need(i), nullptr, 0);
    else if (a == "--runs") o.runs = std::strtoull(need(i), nullptr, 0);
    else if (a == "--cycles") o.cycles = std::strtoull(need(i), nullptr, 0);
    else if (a == "--violate") o.violate = std::strtod(need(i), nullptr);
    else if (a == "--mutate") o.mutate = need(i);
    else if (a == "--list") o.list = true;
    else if (a == "--wave") {
      o.wave = true;
      if (i + 1 < argc && argv[i + 1][0] != '-') o.wave_prefix = argv[++i];
    } else if (a == "--help" || a == "-h") {
      usage(o);
      std::exit(0);
    } else {
      std::fprintf(stderr, "%s: unknown option %s\n", argv[0], a.c_str());
      usage(o);
      std::exit(2);
    }
  }
  if (o.runs < 1 || o.cycles < 3) {
    std::fprintf(stderr, "%s: need --runs >= 1 and --cycles >= 3\n", argv[0]);
    std::exit(2);
  }
  return o;
}

// xoshiro256** seeded through splitmix64 (the model's generator, core/rng.hpp): fast, and the
// same stream on every platform. Seeded straight from the bench seed, not from a component name.
class Rng {
 public:
  void seed(std::uint64_t s) {
    for (auto& x : s_) x = ccnet::splitmix64(s);
  }
  std::uint64_t next() { return ccnet::xoshiro256ss(s_); }
  // Uniform in [0, n), n >= 1.
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return uniform() < p; }
  // Any n-bit value (n <= 64).
  std::uint64_t bits(unsigned n) { return n >= 64 ? next() : next() & ((std::uint64_t{1} << n) - 1); }

 private:
  std::uint64_t s_[4] = {};
};

// Traffic phases: every few hundred cycles pick a new offered load (idle .. saturating bursts), a
// back-pressure level and whether requesters behave (hold requests until served) or are chaotic
// (independent random requests every cycle).
struct Phase {
  double load = 0.5;
  double stall = 0.1;
  bool chaos = false;
  std::uint32_t left = 0;

  void step(Rng& rng) {
    if (left > 0) {
      --left;
      return;
    }
    left = 16 + rng.below(400);
    static const double kLoads[] = {0.0, 0.05, 0.2, 0.5, 0.8, 1.0, 1.0};
    static const double kStalls[] = {0.0, 0.0, 0.1, 0.3, 0.7, 1.0};
    load = kLoads[rng.below(7)];
    stall = kStalls[rng.below(6)];
    chaos = rng.below(5) == 0;
    if (rng.below(8) == 0) load = rng.uniform();
  }
};

class Harness : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> rst_n;

  SC_HAS_PROCESS(Harness);
  Harness(const sc_core::sc_module_name& name, const Options& opt, const char* set)
      : sc_core::sc_module(name),
        // Starts low and rises at 0.5 ns: no edge before the first reset, even with the random
        // initial values of the RTL's edge detectors.
        clk("clk", 1, sc_core::SC_NS, 0.5, 0.5, sc_core::SC_NS, true),
        rst_n("rst_ni", true),
        opt_(opt),
        set_(set) {
    SC_METHOD(on_negedge);  // also runs once at time 0: reset and first inputs
    sensitive << clk.negedge_event();
    SC_METHOD(on_posedge);
    sensitive << clk.posedge_event();
    dont_initialize();
    input("rst_ni", rst_n);
  }

  // Register an output pair compared every cycle.
  template <class T>
  void compare(const char* name, sc_core::sc_signal<T>& rtl, sc_core::sc_signal<T>& model) {
    probes_.push_back(std::make_unique<TypedProbe<T>>(name, rtl, model));
    tracers_.push_back([name, &rtl, &model](sc_core::sc_trace_file* tf) {
      sc_core::sc_trace(tf, model, std::string("model_") + name);
      sc_core::sc_trace(tf, rtl, std::string("rtl_") + name);
    });
  }
  // Register an input (printed on a mismatch, traced in the VCD).
  template <class T>
  void input(const char* name, sc_core::sc_signal<T>& s) {
    inputs_.push_back({name, [&s] { return vl::hex(s.read()); }});
    tracers_.push_back([name, &s](sc_core::sc_trace_file* tf) { sc_core::sc_trace(tf, s, name); });
  }
  // The model's violation flag: the RTL assertions must fire exactly in the cycles it is set.
  void expect_assertions_when(sc_core::sc_signal<bool>& model_violation) { violation_ = &model_violation; }

  // Elaborate, simulate all runs, report. Returns the process exit code.
  int simulate() {
    Verilated::threadContextp()->errorLimit(1 << 30);  // count assertion failures, keep going
    sc_core::sc_trace_file* vcd = nullptr;
    const std::string prefix = opt_.wave_prefix.empty()
                                   ? opt_.block + "_" + set_ + "_s" + std::to_string(opt_.seed)
                                   : opt_.wave_prefix;
    if (opt_.wave) {
      vcd = sc_core::sc_create_vcd_trace_file((prefix + "_sc").c_str());
      vcd->set_time_unit(1, sc_core::SC_PS);
      sc_core::sc_trace(vcd, clk, "clk");
      for (auto& t : tracers_) t(vcd);
    }
    if (opt_.violate > 0 && violation_ != nullptr)
      std::printf("note: --violate: the RTL assertion failures printed below (%%Error ... Assertion failed) are\n"
                  "      expected; each one is checked against a violation reported by the model\n");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    std::unique_ptr<VerilatedFstSc> fst;
    if (opt_.wave) {
      fst = std::make_unique<VerilatedFstSc>();
      trace_rtl(fst.get());
      fst->open((prefix + "_rtl.fst").c_str());
    }
    sc_core::sc_start();
    if (fst) fst->close();
    if (vcd) sc_core::sc_close_vcd_trace_file(vcd);
    if (opt_.wave)
      std::printf("waves: %s_rtl.fst (RTL, Verilator FST), %s_sc.vcd (SystemC VCD)\n", prefix.c_str(),
                  prefix.c_str());
    if (failed_) return 1;
    const std::uint64_t expected = opt_.runs * opt_.cycles;
    if (total_cycles_ != expected) {
      std::printf("ERROR block=%s set=%s: simulated %llu cycles, expected %llu\n", opt_.block.c_str(),
                  set_.c_str(), static_cast<unsigned long long>(total_cycles_),
                  static_cast<unsigned long long>(expected));
      return 1;
    }
    std::printf(
        "PASS block=%s set=%s seeds=%llu..%llu cycles=%llu outputs=%zu compared_values=%llu resets=%llu "
        "violations=%llu rtl_assertions=%llu mutate=%s coverage: %s\n",
        opt_.block.c_str(), set_.c_str(), static_cast<unsigned long long>(opt_.seed),
        static_cast<unsigned long long>(opt_.seed + opt_.runs - 1), static_cast<unsigned long long>(total_cycles_),
        probes_.size(), static_cast<unsigned long long>(total_cycles_ * probes_.size()),
        static_cast<unsigned long long>(resets_), static_cast<unsigned long long>(violations_),
        static_cast<unsigned long long>(assertions_), opt_.mutate.c_str(), coverage().c_str());
    return 0;
  }

 protected:
  // Write the inputs of the next cycle. `in_reset`: rst_ni is low this cycle (bench state that
  // mirrors the block, e.g. credits owed, must restart).
  virtual void stimulus(Rng& rng, bool in_reset) = 0;
  // Called at each rising edge after a clean comparison: the block's outputs and inputs of the
  // cycle, as the flops see them.
  virtual void sampled() {}
  virtual void trace_rtl(VerilatedFstSc* tfp) = 0;
  // What the stimulus exercised (counts over all runs), for the PASS line.
  virtual std::string coverage() const = 0;

  const Options& opt() const { return opt_; }
  std::uint64_t cycle() const { return cycle_; }
  bool directed_violations() const { return opt_.violate > 0; }

 private:
  struct Probe {
    explicit Probe(const char* n) : name(n) {}
    virtual ~Probe() = default;
    virtual bool equal() const = 0;
    virtual std::string rtl() const = 0;
    virtual std::string model() const = 0;
    const char* name;
  };
  template <class T>
  struct TypedProbe : Probe {
    TypedProbe(const char* n, sc_core::sc_signal<T>& r, sc_core::sc_signal<T>& m) : Probe(n), rtl_sig(r), model_sig(m) {}
    bool equal() const override { return rtl_sig.read() == model_sig.read(); }
    std::string rtl() const override { return vl::hex(rtl_sig.read()); }
    std::string model() const override { return vl::hex(model_sig.read()); }
    sc_core::sc_signal<T>& rtl_sig;
    sc_core::sc_signal<T>& model_sig;
  };

  void on_negedge() {
    if (failed_) return;
    if (edge_seen_) check_assertions();
    if (failed_) return;
    if (!started_ || cycle_ == opt_.cycles) {
      if (started_ && ++run_ == opt_.runs) {
        sc_core::sc_stop();
        return;
      }
      started_ = true;
      cycle_ = 0;
      rng_.seed(opt_.seed + run_);
      reset_left_ = 2;
    }
    bool in_reset = false;
    if (reset_left_ > 0) {
      --reset_left_;
      in_reset = true;
    } else if (rng_.below(4000) == 0) {
      reset_left_ = rng_.below(2);
      in_reset = true;
      ++resets_;
    }
    rst_n.write(!in_reset);
    stimulus(rng_, in_reset);
  }

  void on_posedge() {
    if (failed_ || !started_) return;
    // Assertions count from the first rising edge on (it is inside the first reset): whatever
    // random initial state did before does not count.
    if (!edge_seen_) error_count_ = Verilated::threadContextp()->errorCount();
    for (const auto& p : probes_) {
      if (!p->equal()) {
        report(p->name, p->rtl(), p->model());
        return;
      }
    }
    expect_assert_ = violation_ != nullptr && violation_->read() && rst_n.read();
    if (expect_assert_) ++violations_;
    sampled();
    ++cycle_;
    ++total_cycles_;
    edge_seen_ = true;
  }

  void check_assertions() {
    const int count = Verilated::threadContextp()->errorCount();
    const bool fired = count > error_count_;
    assertions_ += static_cast<std::uint64_t>(count - error_count_);
    error_count_ = count;
    if (fired != expect_assert_) {
      --cycle_;  // the cycle whose rising edge fired (or should have fired) them
      report("rtl_assertion", fired ? "fired" : "quiet", expect_assert_ ? "violation" : "no_violation");
    }
  }

  void report(const char* signal, const std::string& rtl, const std::string& model) {
    failed_ = true;
    const std::uint64_t seed = opt_.seed + run_;
    std::printf("MISMATCH block=%s set=%s seed=%llu cycle=%llu signal=%s rtl=%s model=%s\n", opt_.block.c_str(),
                set_.c_str(), static_cast<unsigned long long>(seed), static_cast<unsigned long long>(cycle_), signal,
                rtl.c_str(), model.c_str());
    std::printf("  inputs:");
    for (const auto& in : inputs_) std::printf(" %s=%s", in.name, in.value().c_str());
    std::printf("\n  reproduce: %s --set %s --seed %llu --cycles %llu", opt_.program.c_str(), set_.c_str(),
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(cycle_ + 1));
    if (opt_.violate > 0) std::printf(" --violate %g", opt_.violate);
    if (opt_.mutate != "none") std::printf(" --mutate %s", opt_.mutate.c_str());
    std::printf(" --wave\n");
    std::fflush(stdout);
    sc_core::sc_stop();
  }

  struct Input {
    const char* name;
    std::function<std::string()> value;
  };

  const Options& opt_;
  std::string set_;
  Rng rng_;
  std::vector<std::unique_ptr<Probe>> probes_;
  std::vector<Input> inputs_;
  std::vector<std::function<void(sc_core::sc_trace_file*)>> tracers_;
  sc_core::sc_signal<bool>* violation_ = nullptr;
  std::uint64_t run_ = 0;
  std::uint64_t cycle_ = 0;
  std::uint64_t total_cycles_ = 0;
  std::uint64_t resets_ = 0;
  std::uint64_t violations_ = 0;
  std::uint64_t assertions_ = 0;
  std::uint32_t reset_left_ = 0;
  int error_count_ = 0;
  bool started_ = false;
  bool edge_seen_ = false;
  bool expect_assert_ = false;
  bool failed_ = false;
};

// "name=value ..." from counters (coverage lines).
inline std::string counts(std::initializer_list<std::pair<const char*, std::uint64_t>> items) {
  std::string s;
  for (const auto& [name, value] : items) {
    if (!s.empty()) s += ' ';
    s += std::string(name) + '=' + std::to_string(value);
  }
  return s;
}

// Run the bench of the parameter set named opt.set (Sets: std::tuple of generated set structs,
// see rtl/CMakeLists.txt). Bench<Set> is a Harness subclass constructed as Bench<Set>(name, opt).
template <class Sets, template <class> class Bench>
int dispatch(const Options& opt) {
  int rc = -1;
  std::string names;
  std::apply(
      [&](auto... sets) {
        auto one = [&](auto set) {
          using Set = decltype(set);
          names += std::string(names.empty() ? "" : " ") + Set::kName;
          if (rc != -1 || opt.set != Set::kName) return;
          if (opt.wave) Verilated::traceEverOn(true);
          // Random initial values in every RTL flop: state that a reset leaves alone would show
          // as a mismatch after the first reset (the model resets everything).
          Verilated::threadContextp()->randReset(2);
          Verilated::threadContextp()->randSeed(static_cast<int>(opt.seed & 0x7fffffff));
          auto bench = std::make_unique<Bench<Set>>("bench", opt);
          rc = bench->simulate();
        };
        (one(sets), ...);
      },
      Sets{});
  if (opt.list) {
    std::printf("%s\n", names.c_str());
    return 0;
  }
  if (rc == -1) {
    std::fprintf(stderr, "%s: unknown or missing --set '%s'; sets: %s\n", opt.program.c_str(), opt.set.c_str(),
                 names.c_str());
    return 2;
  }
  return rc;
}

// Parse a mutation name against a list {name, value}; exits with usage on an unknown name.
template <class E, std::size_t N>
E mutation(const Options& opt, const std::pair<const char*, E> (&names)[N]) {
  for (const auto& [n, v] : names)
    if (opt.mutate == n) return v;
  std::fprintf(stderr, "%s: unknown --mutate '%s'; known:", opt.program.c_str(), opt.mutate.c_str());
  for (const auto& [n, v] : names) std::fprintf(stderr, " %s", n);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

}  // namespace cosim
