#include "traffic/generator.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "nic/host_message.hpp"

namespace ccnet {

TrafficGenerator::TrafficGenerator(sc_core::sc_module_name name, std::uint32_t nodes, std::vector<ResolvedClass> classes,
                                   std::uint64_t seed, sc_core::sc_time period)
    : sc_core::sc_module(name), classes_(std::move(classes)), period_ps_(period.value()) {
  for (std::uint32_t n = 0; n < nodes; ++n)
    sockets.push_back(std::make_unique<tlm_utils::simple_initiator_socket<TrafficGenerator>>(
        ("host_" + std::to_string(n)).c_str()));
  for (std::uint32_t c = 0; c < classes_.size(); ++c) {
    arrival_rng_.emplace_back(seed, "traffic." + classes_[c].config.name + ".arrivals");
    size_rng_.emplace_back(seed, "traffic." + classes_[c].config.name + ".sizes");
    const TrafficClassConfig& tc = classes_[c].config;
    if (tc.phase()) {
      // A communication phase: every source posts all its flows at `start`.
      if (tc.start < tc.stop)
        for (NodeId s : classes_[c].sources) heap_.push(Arrival{tc.start, c, s});
      continue;
    }
    if (classes_[c].message_probability <= 0) continue;
    for (NodeId s : classes_[c].sources) {
      if (tc.process == InjectionProcess::Periodic) {
        const Cycle at = add_cycles(tc.start, arrival_rng_[c].below(tc.period()));
        if (at < tc.stop) heap_.push(Arrival{at, c, s});
      } else {
        schedule(c, s, tc.start);
      }
    }
  }
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void TrafficGenerator::schedule(std::uint32_t cls, NodeId src, Cycle from) {
  const ResolvedClass& rc = classes_[cls];
  const Cycle at = add_cycles(from, arrival_rng_[cls].geometric(rc.message_probability));
  if (at >= rc.config.stop) return;
  heap_.push(Arrival{at, cls, src});
}

// When a class posts its last message: a phase right after its start, the others at `stop`.
static Cycle class_stop(const ResolvedClass& c) {
  if (c.config.phase()) return std::min(c.config.stop, add_cycles(c.config.start, 1));
  return c.message_probability > 0 ? c.config.stop : 0;
}

bool TrafficGenerator::finished(Cycle now) const {
  for (const auto& c : classes_)
    if (class_stop(c) > now) return false;
  return true;
}

Cycle TrafficGenerator::last_stop() const {
  Cycle last = 0;
  for (const auto& c : classes_) last = std::max(last, class_stop(c));
  return last;
}

void TrafficGenerator::post(std::uint32_t cls, NodeId src) {
  ResolvedClass& rc = classes_[cls];
  MessageRequest req;
  req.dst = rc.pattern->destination(src);
  req.size = rc.config.size_max > rc.config.size
                 ? rc.config.size + static_cast<std::uint32_t>(size_rng_[cls].below(rc.config.size_max - rc.config.size + 1))
                 : rc.config.size;
  req.traffic_class = static_cast<std::uint8_t>(cls);
  payload_.set_command(tlm::TLM_WRITE_COMMAND);
  payload_.set_address(req.dst);
  payload_.set_data_ptr(reinterpret_cast<unsigned char*>(&req));
  payload_.set_data_length(sizeof req);
  payload_.set_streaming_width(sizeof req);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*sockets[src])->b_transport(payload_, delay);
  if (payload_.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw ModelError(std::string(name()) + ": NIC " + std::to_string(src) + " refused a message to " +
                     std::to_string(req.dst) + ": " + payload_.get_response_string());
  ++posted_;
}

void TrafficGenerator::tick() {
  const Cycle now = sc_core::sc_time_stamp().value() / period_ps_;
  while (!heap_.empty() && heap_.top().at <= now) {
    const Arrival a = heap_.top();
    heap_.pop();
    ResolvedClass& rc = classes_[a.cls];
    if (rc.config.phase()) {
      for (std::uint32_t k = 0; k < rc.config.flows; ++k) post(a.cls, a.src);
      continue;
    }
    post(a.cls, a.src);
    if (rc.config.process == InjectionProcess::Periodic) {
      const Cycle next = add_cycles(a.at, rc.config.period());
      if (next < rc.config.stop) heap_.push(Arrival{next, a.cls, a.src});
    } else {
      schedule(a.cls, a.src, now + 1);
    }
  }
}

}  // namespace ccnet
