// Proactive request/grant buffer reservation in a three-stage Clos (paper 002, Chrysos, Chen,
// Kachris, Katevenis; notes /work/shared/notes/paper-002-chrysos.md sections 1.2-1.4). A packet
// enters the fabric only after the output credit arbiter of its destination reserved a slot for
// it in the last-stage (C) crosspoint buffer of the middle switch it will cross; the slot is
// freed when the packet is delivered in order at the egress (end-to-end credit), so neither the
// C stage nor the reorder buffers ever overflow or back-pressure. Two control planes: the central
// scheduler (section 5.1), one module reached by every adapter over fixed-latency request, grant
// and credit wires, and the distributed scheduler (section 5.2, distributed.hpp), a three-stage
// scheduling network. docs/mechanisms/request-grant.md lists every choice and its key.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cc/mechanism.hpp"

namespace ccnet::reqgrant {

enum class VisitOrder : std::uint8_t { Random, Common };
// Where output arbiter j's distribution pointer for input i starts (R5): spread over the middle
// switches ((i + j) mod M) or at middle switch 0 for every flow.
enum class PathStart : std::uint8_t { Spread, Zero };
// Where the output arbiters are: one central scheduler (section 5.1) or the C switches of a
// three-stage scheduling network (section 5.2, distributed.hpp).
enum class SchedulerDesign : std::uint8_t { Central, Distributed };

// The registered names share this folder and its adapter (spraying, sequence numbers, reorder
// buffer); they differ in what gates injection (paper 002 section 2's comparisons):
//   reqgrant       Reserve: a grant from the output's credit arbiter (the proposal);
//   spray_reorder  None: nothing (the paper's baseline: the same sprayed fabric with hop-by-hop
//                  credits only, re-sequencing at the egress; notes G12);
//   e2e_window     Window: at most `window` unacknowledged packets per flow, acknowledged
//                  out of band when delivered in order (the end2end-ACK comparison, W = 16);
//   netvoq         NetVoq: nothing gates injection, but every fabric output has its own vnet,
//                  so each switch input and output queues packets per destination with credits
//                  per queue (network-level VOQs, notes section 2 item 2);
//   islip          Islip: the scheduler matches inputs to outputs every cycle by iSLIP (notes
//                  section 2 item 4) instead of reserving buffers; a match is a grant.
enum class Scheme : std::uint8_t { Reserve, None, Window, NetVoq, Islip };

struct Params : MechanismParams {
  Scheme scheme = Scheme::Reserve;     // set by the registered name, not a key
  std::uint32_t u = 32;                // request throttle: requested-but-not-granted packets per flow (notes G2)
  std::uint32_t crosspoint = 12;       // B: C-crosspoint slots per (middle switch, output) an output arbiter guards
  std::uint32_t request_combine = 1;   // packets one request message may ask for (notes G1: 1 = no combining)
  std::uint32_t request_latency = 3;   // cycles from an adapter's request to the output arbiter's counter (G4)
  std::uint32_t grant_latency = 3;     // cycles from the input arbiter's grant to the adapter (G4)
  std::uint32_t credit_latency = 3;    // cycles from an in-order delivery to the output arbiter's credit (G4)
  VisitOrder order = VisitOrder::Random;  // output arbiters' visiting order (section 5.1; R5)
  PathStart path_start = PathStart::Spread;  // distribution pointers' first middle switch (R5)
  bool strict_path = true;             // G5: a flow is eligible only if its pointer's crosspoint has a credit
  std::uint64_t grant_start = 0;       // central: first cycle the output arbiters grant (R5: start with full counters)
  bool phase_stats = false;            // central: count the output arbiters' skips and in-phase pairs (R5)
  bool weighted = false;               // output arbiters: smooth weighted round robin (section 6.6)
  std::vector<std::uint32_t> weights;  // per input, at every output (empty: all 1)
  std::uint32_t reorder_buffer = 300;  // egress reorder buffer, packets (asserted bound; >= M x crosspoint)
  std::uint32_t window = 16;           // e2e_window: unacknowledged packets per flow (W)
  std::uint32_t ack_latency = 2;       // e2e_window: cycles from an in-order delivery to the source's window
  std::uint32_t iterations = 2;        // islip: request-grant-accept iterations per cycle
  SchedulerDesign scheduler = SchedulerDesign::Central;  // reqgrant: central chip or scheduling network
  std::uint32_t k = 4;                 // distributed: K, request (grant) credits per upstream link and queue (G3)
  double request_speedup = 1.0;        // distributed: requests per cycle a B -> C request link carries (fan-in run: 1.1)

  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig& n) const override;
};

// Wire encodings (each wire carries one message per cycle; 0 = none).
//   request, adapter i -> scheduler: (count << 16) | (destination + 1)
//   grant, scheduler -> adapter i:   (middle switch << 16) | (output + 1)
//   credit, egress j -> scheduler:   middle switch + 1 (e2e_window: the acknowledged source + 1)
//   (e2e_window: the grant wire carries the acknowledging destination + 1)
constexpr std::uint32_t kWireIdMask = 0xFFFFu;

}  // namespace ccnet::reqgrant
