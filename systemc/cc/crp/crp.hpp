// CRP: the Channel Reservation Protocol of paper 000 (Michelogiannakis, Jiang, Becker, Dally,
// SC'13). Reservation tables (blocks/crp_table.hpp) on the router output ports that drive
// over-subscribed channels (a link class, by default the multicluster topology's inter-cluster
// channels) and on every destination's egress channel; single-flit requests whose vector each
// participating resource ANDs, grants with a time that decrement (or are converted into retries
// at) the channels on their way back; speculative packets until the grant, dropped with a NACK
// after TTW cycles of queuing. Switch side in crp_router.cpp, NIC side in crp_nic.cpp;
// docs/mechanisms/crp.md documents every choice the paper leaves open (notes section 1.7) and
// the key that holds it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "blocks/crp_table.hpp"
#include "blocks/swap.hpp"
#include "cc/mechanism.hpp"


namespace ccnet::crp {

enum class RequestOn : std::uint8_t { Start, Nack };     // G2: when a segment sends its request
enum class ChannelChoice : std::uint8_t { Random, Flow };  // G8: which inter-cluster channel a segment takes
enum class NackStops : std::uint8_t { Segment, Destination };  // R11: what a NACK stops until the grant

struct Params : MechanismParams {
  std::uint32_t cells = 32;             // V_cells (Table 1)
  std::uint32_t cmax = 269;             // C_max: cycles per cell (Table 1)
  double epsilon = 0.05;                // request size x = ceil(flits x (1 + epsilon)) (R10)
  Cycle ttw = 200;                      // speculative time-to-wait: cumulative queuing cycles (R11)
  std::uint32_t n_min = 4;              // packets: smaller messages do not participate (R8)
  std::uint32_t n_max = 16;             // packets per reserved segment (R8)
  bool eager = true;                    // R_res = 1: requests eagerly reserve at channels (R7)
  Cycle retry_cycles = 30;              // R_cycles: wait after a short retry (R4a)
  std::string channel_class = "inter_cluster";  // link class whose router output ports hold tables
  RequestOn request_on = RequestOn::Start;
  ChannelChoice channel = ChannelChoice::Random;
  NackStops nack_stops = NackStops::Segment;
  bool grant_current_cell = true;       // G7: a destination may grant the current (partly past) cell
  bool charge_spill = true;             // G6: a non-participating packet's excess spills into later cells
  double retry_jitter = 0;              // R13: a uniform share up to this of each retry delay is dropped
  std::uint32_t max_retrying = 0;       // segments of one source re-requesting at once after a retry (0: no limit)

  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig& n) const override;

  blocks::CrpTableParams table() const { return {cells, cmax}; }
  // Reservation length of a segment of `flits` flits (R10).
  std::uint32_t request_size(std::uint32_t flits) const;
};

// Vnets (paper 000 section 2.4): the responses (grants, retries, ACKs, NACKs) above the requests,
// both above the data; speculative packets lowest. The topology's dateline levels double each.
struct Vnets {
  static constexpr std::uint8_t kSpec = 0, kData = 1, kRequest = 2, kResponse = 3;
};

// Packet vocabulary. Kinds: request (REQ), grant, retry, nack (Refused: a dropped speculative
// packet). Flags: speculative; reserved (a data packet sent in its segment's granted slot: not
// charged as non-participating traffic); long (a retry whose destination table was full, R4b).
struct Format {
  PacketKind request, grant, retry, nack;
  PacketFlag spec, reserved, long_retry;
};
Format declare_format(PacketFormat& f);

// Payload words. Request: vector, its epoch, eager slot + 1 (0: none), send cycle. Grant and
// retry: the granted time (grant), the request's send cycle. Speculative data: queued cycles.
constexpr unsigned kVectorWord = 0, kEpochWord = 1, kEagerWord = 2, kSentWord = 3;
constexpr unsigned kTimeWord = 0;
constexpr unsigned kQueuedWord = 0;

// Flow identity of a segment (eager reservations are tagged with it, R7).
struct FlowKey {
  NodeId src;
  MessageId message;
  std::uint32_t segment;
  bool operator==(const FlowKey& o) const { return src == o.src && message == o.message && segment == o.segment; }
};
struct FlowKeyHash {
  std::size_t operator()(const FlowKey& k) const {
    return std::hash<std::uint64_t>()(k.message * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{k.src} << 20) ^ k.segment);
  }
};

// zero_load: the router's routing + VC-allocation delay (not counted as queuing time).
std::unique_ptr<RouterHooks> make_router_hooks(const Params& p, const Format& f, LinkClassId channel_class, Cycle zero_load,
                                               const RouterApi& router, CounterSet& counters);
std::unique_ptr<NicHooks> make_nic_hooks(const Params& p, const Format& f, const Topology& topology, std::uint64_t seed,
                                         NicApi& nic, CounterSet& counters);

}  // namespace ccnet::crp
