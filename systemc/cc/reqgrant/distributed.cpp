// The distributed scheduler (paper 002 section 5.2, notes 1.5): see distributed.hpp for the
// modules, the wires and their encodings.
#include "cc/reqgrant/distributed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "blocks/credit_arbiter.hpp"
#include "core/process_error.hpp"
#include "core/ring.hpp"
#include "core/trace_sink.hpp"

namespace ccnet::reqgrant {

namespace {

using Sig = sc_core::sc_signal<std::uint32_t>;
using Sig64 = sc_core::sc_signal<std::uint64_t>;

// Credit wires carry one 4-bit count per upstream queue (at most 2 per cycle each; M <= 8).
constexpr unsigned kFieldBits = 4;
std::uint32_t field(std::uint32_t v, std::uint32_t k) { return (v >> (kFieldBits * k)) & 0xFu; }
std::uint32_t one_in(std::uint32_t k) { return 1u << (kFieldBits * k); }

// A request or grant between switches: destination (output) << 16 | source (input) + 1.
std::uint32_t message(NodeId src, NodeId dst) { return (dst << 16) | (src + 1); }
NodeId src_of(std::uint32_t v) { return (v & kWireIdMask) - 1; }
NodeId dst_of(std::uint32_t v) { return v >> 16; }

void write(Sig* s, std::uint32_t v) {
  if (s->read() != v) s->write(v);
}

// A FIFO of a switch with a fixed capacity the credits guarantee (overflow is an internal error).
template <typename T>
struct Queue {
  Ring<T> q;
  std::uint32_t size = 0;  // traced
  void push(const T& v, std::uint32_t cap, const char* what, const std::string& where) {
    if (size >= cap) throw std::logic_error(fmt::format("reqgrant distributed: {} of {} overflows its {} entries", what, where, cap));
    q.push_back(v);
    ++size;
  }
  T pop() {
    T v = q.front();
    q.pop_front();
    --size;
    return v;
  }
  bool empty() const { return size == 0; }
};

struct Counters {
  std::uint64_t &rq_peak, &gq_peak, &stalls, &grants, &req_peak;
  explicit Counters(CounterSet& c)
      : rq_peak(c.counter("request_queue_peak", CounterSet::Merge::Max)),
        gq_peak(c.counter("grant_queue_peak", CounterSet::Merge::Max)), stalls(c.counter("grant_queue_stalls")),
        grants(c.counter("grants")), req_peak(c.counter("request_counter_peak", CounterSet::Merge::Max)) {}
};

class CtlModule : public sc_core::sc_module, public TracedComponent {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  CtlModule(sc_core::sc_module_name name, const Params& p, std::uint32_t n, std::uint32_t m, std::uint32_t id, Counters& c,
            sc_core::sc_time period)
      : sc_core::sc_module(name), p_(p), n_(n), m_(m), id_(id), cap_(m * p.k), c_(c), period_(period) {}
  std::string trace_scope() const override { return name(); }

 protected:
  // The clocked process: step() under process_error::guard (a broken invariant names the module).
  void tick() {
    process_error::guard(*this, period_, [this] { step(); });
  }
  virtual void step() = 0;
  template <typename T>
  void peak(const Queue<T>& q, std::uint64_t& counter) {
    counter = std::max<std::uint64_t>(counter, q.size);
  }
  const Params& p_;
  std::uint32_t n_, m_, id_, cap_;
  Counters& c_;
  sc_core::sc_time period_;
};

// ---- A switch: the request queues toward the B switches, the grant queues toward its adapters --

class CtlA final : public CtlModule {
 public:
  std::vector<Sig*> adapter_req, adapter_rqcred, adapter_gnt;  // per local adapter
  std::vector<Sig*> req_out, gcred_out;                       // per B: A -> B
  std::vector<Sig*> rqcred_in, gnt_in;                        // per B: B -> A
  SC_HAS_PROCESS(CtlA);
  CtlA(sc_core::sc_module_name name, const Params& p, std::uint32_t n, std::uint32_t m, std::uint32_t a, Counters& c,
       sc_core::sc_time period)
      : CtlModule(name, p, n, m, a, c, period), rq_(m), gq_(m), rqcred_(static_cast<std::size_t>(m) * m, p.k) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void trace(TraceSink& s) override {
    for (std::uint32_t b = 0; b < m_; ++b) {
      s.value(rq_[b].size, fmt::format("request_queue_to_b{}", b));
      s.value(req_out[b]->read(), fmt::format("request_to_b{}", b));
      s.value(gnt_in[b]->read(), fmt::format("grant_from_b{}", b));
    }
    for (std::uint32_t l = 0; l < m_; ++l) s.value(gq_[l].size, fmt::format("grant_queue_to_adapter{}", id_ * m_ + l));
  }

 private:
  struct Entry {
    std::uint32_t msg, path;
  };
  void step() override {
    for (std::uint32_t b = 0; b < m_; ++b)
      for (std::uint32_t c = 0; c < m_; ++c) rqcred_[b * m_ + c] += field(rqcred_in[b]->read(), c);
    for (std::uint32_t l = 0; l < m_; ++l)
      if (const std::uint32_t v = adapter_req[l]->read()) {
        const std::uint32_t b = v >> 16;
        if (b >= m_) throw std::logic_error(fmt::format("{}: request on path {} of {}", name(), b, m_));
        rq_[b].push({message(id_ * m_ + l, (v & kWireIdMask) - 1), b}, cap_, "request queue", name());
        peak(rq_[b], c_.rq_peak);
      }
    for (std::uint32_t b = 0; b < m_; ++b)
      if (const std::uint32_t v = gnt_in[b]->read()) {
        gq_[src_of(v) % m_].push({v, b}, cap_, "grant queue", name());
        peak(gq_[src_of(v) % m_], c_.gq_peak);
      }
    std::vector<std::uint32_t> rqbits(m_, 0), gcred(m_, 0);
    for (std::uint32_t b = 0; b < m_; ++b) {
      std::uint32_t out = 0;
      if (!rq_[b].empty()) {
        const Entry& e = rq_[b].q.front();
        std::uint32_t& cred = rqcred_[b * m_ + dst_of(e.msg) / m_];
        if (cred > 0) {
          --cred;
          out = e.msg;
          rqbits[src_of(e.msg) % m_] |= 1u << b;  // the adapter's share of this queue is free again
          rq_[b].pop();
        }
      }
      write(req_out[b], out);
    }
    for (std::uint32_t l = 0; l < m_; ++l) {
      std::uint32_t out = 0;
      if (!gq_[l].empty()) {
        const Entry e = gq_[l].pop();
        out = (e.path << 16) | (dst_of(e.msg) + 1);
        gcred[e.path] += one_in(l);
      }
      write(adapter_gnt[l], out);
      write(adapter_rqcred[l], rqbits[l]);
    }
    for (std::uint32_t b = 0; b < m_; ++b) write(gcred_out[b], gcred[b]);
  }
  std::vector<Queue<Entry>> rq_, gq_;  // rq_[b]: toward B_b; gq_[l]: toward local adapter l
  std::vector<std::uint32_t> rqcred_;  // [b * M + c]: credits for B_b's request queue toward C_c
};

// ---- B switch: request queues toward the C switches (speedup, no flow control), grant queues
// toward the A switches ------------------------------------------------------------------------

class CtlB final : public CtlModule {
 public:
  std::vector<Sig*> req_in, gcred_in;    // per A: A -> B
  std::vector<Sig*> rqcred_out, gnt_out;  // per A: B -> A
  std::vector<Sig64*> req_out;            // per C: B -> C (up to two requests)
  std::vector<Sig*> gcred_out;            // per C: B -> C
  std::vector<Sig*> gnt_in;               // per C: C -> B
  SC_HAS_PROCESS(CtlB);
  CtlB(sc_core::sc_module_name name, const Params& p, std::uint32_t n, std::uint32_t m, std::uint32_t b, Counters& c,
       sc_core::sc_time period)
      : CtlModule(name, p, n, m, b, c, period), rq_(m), gq_(m), acc_(m, 0.0), gcred_(static_cast<std::size_t>(m) * m, p.k) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void trace(TraceSink& s) override {
    for (std::uint32_t c = 0; c < m_; ++c) {
      s.value(rq_[c].size, fmt::format("request_queue_to_c{}", c));
      s.value(req_out[c]->read(), fmt::format("requests_to_c{}", c));
    }
    for (std::uint32_t a = 0; a < m_; ++a) {
      s.value(gq_[a].size, fmt::format("grant_queue_to_a{}", a));
      s.value(gnt_out[a]->read(), fmt::format("grant_to_a{}", a));
    }
  }

 private:
  void step() override {
    for (std::uint32_t a = 0; a < m_; ++a)
      for (std::uint32_t l = 0; l < m_; ++l) gcred_[a * m_ + l] += field(gcred_in[a]->read(), l);
    for (std::uint32_t a = 0; a < m_; ++a)
      if (const std::uint32_t v = req_in[a]->read()) {
        auto& q = rq_.at(dst_of(v) / m_);
        q.push(v, cap_, "request queue", name());
        peak(q, c_.rq_peak);
      }
    for (std::uint32_t c = 0; c < m_; ++c)
      if (const std::uint32_t v = gnt_in[c]->read()) {
        auto& q = gq_.at(src_of(v) / m_);
        q.push(v, cap_, "grant queue", name());
        peak(q, c_.gq_peak);
      }
    std::vector<std::uint32_t> rqcred(m_, 0), gcred(m_, 0);
    for (std::uint32_t c = 0; c < m_; ++c) {
      // request_speedup requests per cycle on average, at most two in one cycle; an idle link banks
      // at most one.
      acc_[c] += p_.request_speedup;
      std::uint64_t out = 0;
      for (unsigned k = 0; k < 2 && acc_[c] >= 1.0 && !rq_[c].empty(); ++k) {
        const std::uint32_t v = rq_[c].pop();
        out |= static_cast<std::uint64_t>(v) << (32 * k);
        rqcred[src_of(v) / m_] += one_in(c);
        acc_[c] -= 1.0;
      }
      if (rq_[c].empty()) acc_[c] = std::min(acc_[c], 1.0);
      if (req_out[c]->read() != out) req_out[c]->write(out);
    }
    for (std::uint32_t a = 0; a < m_; ++a) {
      std::uint32_t out = 0;
      if (!gq_[a].empty()) {
        const std::uint32_t v = gq_[a].q.front();
        std::uint32_t& cred = gcred_[a * m_ + src_of(v) % m_];
        if (cred > 0) {
          --cred;
          out = v;
          gcred[dst_of(v) / m_] += one_in(a);
          gq_[a].pop();
        }
      }
      write(gnt_out[a], out);
      write(rqcred_out[a], rqcred[a]);
    }
    for (std::uint32_t c = 0; c < m_; ++c) write(gcred_out[c], gcred[c]);
  }
  std::vector<Queue<std::uint32_t>> rq_, gq_;  // rq_[c]: toward C_c; gq_[a]: toward A_a
  std::vector<double> acc_;                    // per C link: request sending allowance
  std::vector<std::uint32_t> gcred_;           // [a * M + l]: credits for A_a's grant queue toward its adapter l
};

// ---- C switch: the output arbiters of its M outputs, grant queues toward the B switches ---------

class CtlC final : public CtlModule {
 public:
  std::vector<Sig64*> req_in;   // per B
  std::vector<Sig*> gcred_in;   // per B
  std::vector<Sig*> gnt_out;    // per B
  std::vector<Sig*> e2e_in;     // per local output (its egress adapter's credit wire)
  SC_HAS_PROCESS(CtlC);
  CtlC(sc_core::sc_module_name name, const Params& p, std::uint32_t n, std::uint32_t m, std::uint32_t c, Counters& cnt,
       std::uint64_t seed, const blocks::BlockSource* blocks, sc_core::sc_time period)
      : CtlModule(name, p, n, m, c, cnt, period), gq_(m),
        gqcred_(static_cast<std::size_t>(m) * m, p.k), gcred_(static_cast<std::size_t>(m) * m, p.k), pending_(m, 0),
        taken_(m, 0), period_ps_(period.value()) {
    for (std::uint32_t l = 0; l < m; ++l)
      arbiters_.push_back(
          output_arbiter(p, n, m, seed, c * m + l, blocks, fmt::format("{} output {} credit arbiter", this->name(), c * m + l)));
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void trace(TraceSink& s) override {
    for (std::uint32_t l = 0; l < m_; ++l) {
      s.value(pending_[l], fmt::format("out{}.requests", id_ * m_ + l));
      s.value(taken_[l], fmt::format("out{}.credits_taken", id_ * m_ + l));
    }
    for (std::uint32_t b = 0; b < m_; ++b) {
      s.value(gq_[b].size, fmt::format("grant_queue_to_b{}", b));
      s.value(gnt_out[b]->read(), fmt::format("grant_to_b{}", b));
    }
  }

 private:
  struct Due {
    Cycle at;
    std::uint32_t out, path;
  };
  struct Entry {
    std::uint32_t msg, out;  // out: the local output arbiter that issued the grant
  };
  void step() override {
    const Cycle now = sc_core::sc_time_stamp().value() / period_ps_;
    for (std::uint32_t b = 0; b < m_; ++b)
      for (std::uint32_t a = 0; a < m_; ++a) gcred_[b * m_ + a] += field(gcred_in[b]->read(), a);
    for (std::uint32_t b = 0; b < m_; ++b) {
      const std::uint64_t v = req_in[b]->read();
      for (unsigned k = 0; k < 2; ++k)
        if (const auto r = static_cast<std::uint32_t>(v >> (32 * k))) {
          blocks::CreditArbiterSlot& arb = arbiters_.at(dst_of(r) - id_ * m_);
          arb.add_request(src_of(r), 1);
          c_.req_peak = std::max<std::uint64_t>(c_.req_peak, arb.requests(src_of(r)));
        }
    }
    for (std::uint32_t l = 0; l < m_; ++l)
      if (const std::uint32_t v = e2e_in[l]->read()) credits_.push_back({now + p_.credit_latency - 1, l, v - 1});
    while (!credits_.empty() && credits_.front().at <= now) {
      arbiters_[credits_.front().out].add_credit(credits_.front().path);
      credits_.pop_front();
    }
    // Output arbiters: a grant needs a credit of the grant queue of the path it takes (footnote 9).
    for (std::uint32_t l = 0; l < m_; ++l) {
      blocks::CreditArbiterSlot& arb = arbiters_[l];
      const blocks::CreditArbiter::Grant g = arb.pick();
      if (g.valid()) {
        std::uint32_t& cred = gqcred_[l * m_ + g.path];
        if (cred > 0) {
          arb.commit(g);
          --cred;
          gq_[g.path].push({message(static_cast<NodeId>(g.input), id_ * m_ + l), l}, cap_, "grant queue", name());
          peak(gq_[g.path], c_.gq_peak);
          ++c_.grants;
        } else {
          ++c_.stalls;
        }
      }
      pending_[l] = static_cast<std::uint32_t>(arb.pending());
      taken_[l] = arb.credits_taken();
    }
    for (std::uint32_t b = 0; b < m_; ++b) {
      std::uint32_t out = 0;
      if (!gq_[b].empty()) {
        const Entry& e = gq_[b].q.front();
        std::uint32_t& cred = gcred_[b * m_ + src_of(e.msg) / m_];
        if (cred > 0) {
          --cred;
          out = e.msg;
          ++gqcred_[e.out * m_ + b];
          gq_[b].pop();
        }
      }
      write(gnt_out[b], out);
    }
  }
  std::vector<blocks::CreditArbiterSlot> arbiters_;  // outputs id * M + l
  std::vector<Queue<Entry>> gq_;                  // toward B_b
  std::vector<std::uint32_t> gqcred_;            // [l * M + b]: arbiter l's credits for gq_[b]
  std::vector<std::uint32_t> gcred_;             // [b * M + a]: credits for B_b's grant queue toward A_a
  std::vector<std::uint32_t> pending_, taken_;   // waveforms, per local output
  Ring<Due> credits_;
  std::uint64_t period_ps_;
};

}  // namespace

void build_distributed(NetworkBuilder& bld, const Params& p, std::uint32_t n, std::uint32_t m, std::uint64_t seed,
                       const std::vector<AdapterWires>& adapters) {
  Counters& cnt = bld.make<Counters>(bld.counters());  // shared by the modules
  auto sig = [&](const std::string& name) { return &bld.make<Sig>(name.c_str()); };
  auto sig64 = [&](const std::string& name) { return &bld.make<Sig64>(name.c_str()); };
  std::vector<CtlA*> as;
  std::vector<CtlB*> bs;
  std::vector<CtlC*> cs;
  for (std::uint32_t x = 0; x < m; ++x) {
    as.push_back(&bld.make<CtlA>(fmt::format("reqgrant_a{}", x).c_str(), p, n, m, x, cnt, bld.period()));
    bs.push_back(&bld.make<CtlB>(fmt::format("reqgrant_b{}", x).c_str(), p, n, m, x, cnt, bld.period()));
    cs.push_back(&bld.make<CtlC>(fmt::format("reqgrant_c{}", x).c_str(), p, n, m, x, cnt, seed, bld.block_source(), bld.period()));
  }
  for (std::uint32_t x = 0; x < m; ++x) {
    for (std::uint32_t l = 0; l < m; ++l) {
      const AdapterWires& w = adapters.at(x * m + l);
      as[x]->adapter_req.push_back(w.request);
      as[x]->adapter_rqcred.push_back(w.request_credit);
      as[x]->adapter_gnt.push_back(w.grant);
      cs[x]->e2e_in.push_back(w.credit);
    }
  }
  for (std::uint32_t a = 0; a < m; ++a)
    for (std::uint32_t b = 0; b < m; ++b) {
      Sig* req = sig(fmt::format("reqgrant_req_a{}_b{}", a, b));
      Sig* gcred = sig(fmt::format("reqgrant_gcred_a{}_b{}", a, b));
      Sig* rqcred = sig(fmt::format("reqgrant_rqcred_b{}_a{}", b, a));
      Sig* gnt = sig(fmt::format("reqgrant_gnt_b{}_a{}", b, a));
      as[a]->req_out.push_back(req);
      as[a]->gcred_out.push_back(gcred);
      as[a]->rqcred_in.push_back(rqcred);
      as[a]->gnt_in.push_back(gnt);
      bs[b]->req_in.push_back(req);
      bs[b]->gcred_in.push_back(gcred);
      bs[b]->rqcred_out.push_back(rqcred);
      bs[b]->gnt_out.push_back(gnt);
    }
  for (std::uint32_t b = 0; b < m; ++b)
    for (std::uint32_t c = 0; c < m; ++c) {
      Sig64* req = sig64(fmt::format("reqgrant_req_b{}_c{}", b, c));
      Sig* gcred = sig(fmt::format("reqgrant_gcred_b{}_c{}", b, c));
      Sig* gnt = sig(fmt::format("reqgrant_gnt_c{}_b{}", c, b));
      bs[b]->req_out.push_back(req);
      bs[b]->gcred_out.push_back(gcred);
      bs[b]->gnt_in.push_back(gnt);
      cs[c]->req_in.push_back(req);
      cs[c]->gcred_in.push_back(gcred);
      cs[c]->gnt_out.push_back(gnt);
    }
  for (std::uint32_t x = 0; x < m; ++x) {
    for (CtlModule* mod : {static_cast<CtlModule*>(as[x]), static_cast<CtlModule*>(bs[x]), static_cast<CtlModule*>(cs[x])}) {
      mod->clk(bld.clock());
      bld.trace(*mod);
    }
  }
}

}  // namespace ccnet::reqgrant
