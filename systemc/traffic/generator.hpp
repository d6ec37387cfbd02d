// Traffic generator: the hosts. One module drives every node's NIC through a TLM-2.0 initiator
// socket per node (b_transport posts a message). Message arrivals are Bernoulli per cycle per
// source, drawn as geometric gaps so idle cycles cost nothing, periodic, or bursty (ON/OFF:
// geometric bursts of back-to-back messages to one destination, geometric idle gaps); a
// communication phase posts all of a source's flows at once at its start. Each class has its own RNG stream, so
// adding a class never changes another's arrivals.
//
// A class may wait for a number of delivered data packets before it starts
// (start_after_delivered) and may give each source a fixed number of messages (messages). The
// delivered count is sampled at the falling clock edge, after every component's rising-edge
// work of the cycle, so a class triggered by the deliveries of cycle t starts generating from
// cycle t + 1 whatever order the kernel runs the modules in.
#pragma once

#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "core/rng.hpp"
#include "nic/host_message.hpp"
#include "traffic/arrival_queue.hpp"
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

  // Data packets delivered network-wide so far (for start_after_delivered).
  using DeliveredCount = std::function<std::uint64_t()>;

  SC_HAS_PROCESS(TrafficGenerator);
  TrafficGenerator(sc_core::sc_module_name name, std::uint32_t nodes, std::vector<ResolvedClass> classes,
                   std::uint64_t seed, sc_core::sc_time period, DeliveredCount delivered = {});

  std::uint64_t messages_posted() const { return posted_; }
  // True once every class is done: past its stop cycle, or every source has generated its
  // `messages`.
  bool finished(Cycle now) const;
  // Every class generates a finite amount of traffic (TrafficClassConfig::bounded).
  bool bounded() const;
  // The last stop cycle of the classes bounded by a stop cycle (kNever if some class is not
  // bounded at all; classes bounded only by a message count end when finished() says so).
  Cycle last_stop() const;
  // Some class still waits for its start_after_delivered count and no message is scheduled:
  // if the network is empty too, the count can never be reached. Names the first such class.
  bool waiting_for_deliveries(std::string* which = nullptr) const;
  const std::vector<ResolvedClass>& classes() const { return classes_; }

 private:
  void start_of_simulation() override;  // takes each socket's bound target (fw_)
  void tick();  // generate() under process_error::guard
  void generate();
  // Posts one message of class `cls` from `src` (size drawn now; destination drawn now unless
  // given) and returns its size.
  std::uint32_t post(std::uint32_t cls, NodeId src, const NodeId* dst = nullptr);
  static bool active(const ResolvedClass& c);
  void sample_deliveries();
  void start_class(std::uint32_t cls, Cycle from);
  // The next arrival of a geometric process after `from` (kNever at or past the class's stop).
  Cycle next_arrival(std::uint32_t cls, Cycle from);
  bool class_done(std::uint32_t cls, Cycle now) const;

  std::vector<ResolvedClass> classes_;
  DeliveredCount delivered_;
  std::uint64_t delivered_sample_ = 0;       // delivered_() at the last falling edge
  std::vector<std::uint8_t> waiting_;        // per class: waits for its start_after_delivered count
  std::uint32_t classes_waiting_ = 0;
  std::vector<std::vector<std::uint64_t>> sent_;  // per class with a message limit: messages per node
  std::vector<std::uint64_t> sources_done_;       // per class: sources that reached the limit
  sc_core::sc_event never_;                       // parks the sampling process when nothing waits
  std::vector<RngStream> arrival_rng_, size_rng_;
  struct Burst {
    std::uint64_t left = 0;  // messages of the current burst still to post
    NodeId dst = 0;
  };
  std::vector<std::vector<Burst>> burst_;  // per bursty class, per node
  ArrivalQueue arrivals_;  // pending arrivals, one per class and source
  std::vector<double> arrival_log1m_;  // per class: RngStream::log1m of its arrival probability
  std::uint64_t posted_ = 0;
  std::uint64_t period_ps_;
  std::vector<tlm::tlm_fw_transport_if<>*> fw_;  // per node: its socket's bound target
  tlm::tlm_generic_payload payload_;
  MessageRequest request_;  // payload_'s data
};

}  // namespace ccnet
