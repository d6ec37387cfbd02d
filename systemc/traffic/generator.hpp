// Traffic generator: the hosts. One module drives every node's NIC through a TLM-2.0 initiator
// socket per node (b_transport posts a message). Message arrivals are Bernoulli per cycle per
// source, drawn as geometric gaps so idle cycles cost nothing, or periodic; a communication phase
// posts all of a source's flows at once at its start. Each class has its own RNG stream, so
// adding a class never changes another's arrivals.
#pragma once

#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "core/rng.hpp"
#include "traffic/pattern.hpp"
#include "traffic/traffic_config.hpp"

namespace ccnet {

struct ResolvedClass {
  TrafficClassConfig config;
  std::vector<NodeId> sources, destinations;
  std::unique_ptr<Pattern> pattern;
  double message_probability = 0;  // per source per cycle
};

class TrafficGenerator : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<TrafficGenerator>>> sockets;

  SC_HAS_PROCESS(TrafficGenerator);
  TrafficGenerator(sc_core::sc_module_name name, std::uint32_t nodes, std::vector<ResolvedClass> classes,
                   std::uint64_t seed, sc_core::sc_time period);

  std::uint64_t messages_posted() const { return posted_; }
  // True once every class has passed its stop cycle.
  bool finished(Cycle now) const;
  // The last stop cycle of all classes (kNever if some class never stops).
  Cycle last_stop() const;
  const std::vector<ResolvedClass>& classes() const { return classes_; }

 private:
  struct Arrival {
    Cycle at;
    std::uint32_t cls;
    NodeId src;
    bool operator>(const Arrival& o) const {
      return at != o.at ? at > o.at : cls != o.cls ? cls > o.cls : src > o.src;
    }
  };
  void tick();
  // Posts one message of class `cls` from `src` (destination and size drawn now).
  void post(std::uint32_t cls, NodeId src);
  void schedule(std::uint32_t cls, NodeId src, Cycle from);

  std::vector<ResolvedClass> classes_;
  std::vector<RngStream> arrival_rng_, size_rng_;
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> heap_;
  std::uint64_t posted_ = 0;
  std::uint64_t period_ps_;
  tlm::tlm_generic_payload payload_;
};

}  // namespace ccnet
