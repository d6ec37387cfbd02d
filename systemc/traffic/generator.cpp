#include "traffic/generator.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/process_error.hpp"
#include "nic/host_message.hpp"

namespace ccnet {

namespace {
// The per-cycle probability of a geometric class's next arrival (a message, or a burst's start).
double arrival_probability(const ResolvedClass& rc) {
  return rc.config.process == InjectionProcess::Bursty ? rc.config.burst_start_probability() : rc.message_probability;
}
}  // namespace

TrafficGenerator::TrafficGenerator(sc_core::sc_module_name name, std::uint32_t nodes, std::vector<ResolvedClass> classes,
                                   std::uint64_t seed, sc_core::sc_time period, DeliveredCount delivered)
    : sc_core::sc_module(name), classes_(std::move(classes)), delivered_(std::move(delivered)), period_ps_(period.value()) {
  for (std::uint32_t n = 0; n < nodes; ++n)
    sockets.push_back(std::make_unique<tlm_utils::simple_initiator_socket<TrafficGenerator>>(
        ("host_" + std::to_string(n)).c_str()));
  payload_.set_command(tlm::TLM_WRITE_COMMAND);
  payload_.set_data_ptr(reinterpret_cast<unsigned char*>(&request_));
  payload_.set_data_length(sizeof request_);
  payload_.set_streaming_width(sizeof request_);
  arrivals_.configure(nodes, static_cast<std::uint32_t>(classes_.size()));
  waiting_.assign(classes_.size(), 0);
  sent_.resize(classes_.size());
  burst_.resize(classes_.size());
  sources_done_.assign(classes_.size(), 0);
  for (std::uint32_t c = 0; c < classes_.size(); ++c) {
    arrival_log1m_.push_back(RngStream::log1m(arrival_probability(classes_[c])));
    arrival_rng_.emplace_back(seed, "traffic." + classes_[c].config.name + ".arrivals");
    size_rng_.emplace_back(seed, "traffic." + classes_[c].config.name + ".sizes");
    if (!active(classes_[c])) continue;
    const TrafficClassConfig& tc = classes_[c].config;
    if (tc.messages > 0) sent_[c].assign(nodes, 0);
    if (tc.process == InjectionProcess::Bursty) burst_[c].assign(nodes, Burst{});
    if (tc.start_after_delivered > 0) {
      if (!delivered_) throw ModelError(std::string(this->name()) + ": class " + tc.name +
                                        " waits for delivered packets but the generator has no delivery count");
      waiting_[c] = 1;
      ++classes_waiting_;
      continue;
    }
    start_class(c, tc.start);
  }
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(sample_deliveries);
  sensitive << clk.neg();
  dont_initialize();
}

void TrafficGenerator::start_of_simulation() {
  // Binding is complete: each socket's target, called directly per message.
  fw_.clear();
  for (auto& s : sockets) fw_.push_back((*s).operator->());
}

// A class with messages to generate: a positive rate, or a communication phase.
bool TrafficGenerator::active(const ResolvedClass& c) { return c.config.phase() || c.message_probability > 0; }

void TrafficGenerator::start_class(std::uint32_t cls, Cycle from) {
  const TrafficClassConfig& tc = classes_[cls].config;
  for (NodeId s : classes_[cls].sources) {
    if (tc.phase()) {  // a communication phase: every source posts all its flows at once
      if (from < tc.stop) arrivals_.push(Arrival(from, cls, s));
    } else if (tc.process == InjectionProcess::Periodic) {
      const Cycle at = add_cycles(from, arrival_rng_[cls].below(tc.period()));
      if (at < tc.stop) arrivals_.push(Arrival(at, cls, s));
    } else {
      const Cycle at = next_arrival(cls, from);
      if (at != kNever) arrivals_.push(Arrival(at, cls, s));
    }
  }
}

Cycle TrafficGenerator::next_arrival(std::uint32_t cls, Cycle from) {
  const ResolvedClass& rc = classes_[cls];
  const Cycle at = add_cycles(from, arrival_rng_[cls].geometric(arrival_probability(rc), arrival_log1m_[cls]));
  return at >= rc.config.stop ? kNever : at;
}

void TrafficGenerator::sample_deliveries() {
  if (classes_waiting_ == 0) {
    next_trigger(never_);  // nothing waits any more: stop sampling
    return;
  }
  delivered_sample_ = delivered_();
}

bool TrafficGenerator::class_done(std::uint32_t cls, Cycle now) const {
  const ResolvedClass& c = classes_[cls];
  if (!active(c) || c.config.stop <= now) return true;
  // A phase or a message limit: done once every source posted its last message.
  return (c.config.phase() || c.config.messages > 0) && !waiting_[cls] && sources_done_[cls] == c.sources.size();
}

bool TrafficGenerator::finished(Cycle now) const {
  for (std::uint32_t c = 0; c < classes_.size(); ++c)
    if (!class_done(c, now)) return false;
  return true;
}

bool TrafficGenerator::bounded() const {
  for (const auto& c : classes_)
    if (active(c) && !c.config.bounded()) return false;
  return true;
}

Cycle TrafficGenerator::last_stop() const {
  Cycle last = 0;
  for (const auto& c : classes_) {
    if (!active(c)) continue;
    if (!c.config.bounded()) return kNever;
    if (c.config.phase()) last = std::max(last, std::min(c.config.stop, add_cycles(c.config.start, 1)));
    else if (c.config.stop != kNever) last = std::max(last, c.config.stop);
  }
  return last;
}

bool TrafficGenerator::waiting_for_deliveries(std::string* which) const {
  if (classes_waiting_ == 0 || !arrivals_.empty()) return false;
  for (std::uint32_t c = 0; c < classes_.size(); ++c)
    if (waiting_[c]) {
      if (which) *which = classes_[c].config.name;
      return true;
    }
  return false;
}

std::uint32_t TrafficGenerator::post(std::uint32_t cls, NodeId src, const NodeId* dst) {
  ResolvedClass& rc = classes_[cls];
  MessageRequest& req = request_;  // payload_'s data (its command, pointer and lengths are set once)
  req.dst = dst ? *dst : rc.pattern->destination(src);
  req.size = rc.config.size_max > rc.config.size
                 ? rc.config.size + static_cast<std::uint32_t>(size_rng_[cls].below(rc.config.size_max - rc.config.size + 1))
                 : rc.config.size;
  req.traffic_class = static_cast<std::uint8_t>(cls);
  payload_.set_address(req.dst);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  fw_[src]->b_transport(payload_, delay);
  if (payload_.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw ModelError(std::string(name()) + ": NIC " + std::to_string(src) + " refused a message to " +
                     std::to_string(req.dst) + ": " + payload_.get_response_string());
  ++posted_;
  return req.size;
}

void TrafficGenerator::tick() {
  process_error::guard(*this, sc_core::sc_time::from_value(period_ps_), [this] { generate(); });
}

void TrafficGenerator::generate() {
  const Cycle now = sc_core::sc_time_stamp().value() / period_ps_;
  if (classes_waiting_ > 0) {
    for (std::uint32_t c = 0; c < classes_.size(); ++c) {
      if (!waiting_[c] || delivered_sample_ < classes_[c].config.start_after_delivered) continue;
      waiting_[c] = 0;
      --classes_waiting_;
      start_class(c, std::max(now, classes_[c].config.start));
    }
  }
  Arrival a(0, 0, 0);
  while (arrivals_.take(now, a)) {
    const std::uint32_t cls = a.cls();
    const NodeId src = a.src();
    ResolvedClass& rc = classes_[cls];
    if (rc.config.phase()) {
      for (std::uint32_t k = 0; k < rc.config.flows; ++k) post(cls, src);
      ++sources_done_[cls];
      continue;
    }
    std::uint32_t size = 0;
    if (rc.config.process == InjectionProcess::Bursty) {
      Burst& b = burst_[cls][src];
      if (b.left == 0) {  // a new burst: its destination and length
        b.dst = rc.pattern->destination(src);
        b.left = 1 + arrival_rng_[cls].geometric(1.0 / rc.config.burst);
      }
      size = post(cls, src, &b.dst);
      --b.left;
    } else {
      post(cls, src);
    }
    Cycle next = kNever;
    if (rc.config.messages > 0 && ++sent_[cls][src] == rc.config.messages) {
      ++sources_done_[cls];  // this source has sent its messages
    } else if (rc.config.process == InjectionProcess::Bursty && burst_[cls][src].left > 0) {
      next = add_cycles(a.at, size);  // the next message of the burst, back to back
      if (next >= rc.config.stop) next = kNever;
    } else if (rc.config.process == InjectionProcess::Bursty) {
      next = next_arrival(cls, a.at + size);  // the idle gap after the burst's last flit
    } else if (rc.config.process == InjectionProcess::Periodic) {
      next = add_cycles(a.at, rc.config.period());
      if (next >= rc.config.stop) next = kNever;
    } else {
      next = next_arrival(cls, now + 1);
    }
    if (next != kNever) arrivals_.push(Arrival(next, cls, src));
  }
}

}  // namespace ccnet
