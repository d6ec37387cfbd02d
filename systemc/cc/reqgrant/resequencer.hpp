// The egress adapter's reorder buffer of the request/grant mechanisms (reqgrant.cpp, inband.cpp):
// packets of a source carry a per-flow sequence number; one that arrives in order is delivered at
// once and releases the packets it was holding up, the others are held until then.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "nic/hooks.hpp"
#include "topology/multistage.hpp"

namespace ccnet::reqgrant {

class Resequencer {
 public:
  // `who` names the mechanism in the model error of a duplicate sequence number.
  Resequencer(const char* who, NodeId self, std::uint32_t nodes) : who_(who), self_(self), expected_(nodes, 0), held_(nodes) {}

  // Packet `p` with sequence number `seq` arrived from its source. In order: `in_order(path, wait)`
  // for it (wait 0) and for every held packet it releases (each handed to the host with
  // NicApi::deliver first; wait = cycles it was held), and Deliver. Otherwise it is held: Hold.
  template <class InOrder>
  Delivery arrive(NicApi& api, const Packet& p, std::uint64_t seq, InOrder&& in_order) {
    const NodeId src = p.src;
    if (seq == expected_[src]) {
      in_order(MultistageRoute::via(p), Cycle{0});
      ++expected_[src];
      auto& h = held_[src];
      for (auto it = h.begin(); it != h.end() && it->first == expected_[src]; it = h.erase(it), ++expected_[src]) {
        api.deliver(it->second.id);
        --held_total_;
        in_order(it->second.path, api.now() - it->second.arrived);
      }
      return Delivery::Deliver;
    }
    if (seq < expected_[src] || held_[src].count(seq))
      throw std::logic_error(fmt::format("{}: node {} received sequence number {} from {} twice", who_, self_, seq, src));
    held_[src].emplace(seq, Held{p.id, MultistageRoute::via(p), api.now()});
    ++held_total_;
    return Delivery::Hold;
  }

  // Packets held, from every source.
  std::uint32_t occupancy() const { return held_total_; }
  // Traced as the mechanism's reorder occupancy.
  const std::uint32_t& occupancy_ref() const { return held_total_; }

 private:
  struct Held {
    PacketId id;
    std::uint32_t path;
    Cycle arrived;
  };
  const char* who_;
  NodeId self_;
  std::vector<std::uint64_t> expected_;              // next in-order sequence number per source
  std::vector<std::map<std::uint64_t, Held>> held_;  // out-of-order packets per source
  std::uint32_t held_total_ = 0;
};

}  // namespace ccnet::reqgrant
