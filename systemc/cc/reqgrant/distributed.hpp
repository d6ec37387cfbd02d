// The distributed scheduler of paper 002 section 5.2 (notes 1.5): the output credit arbiters sit
// in the C switches of a separate three-stage scheduling network that mirrors the Clos. Internal
// to cc/reqgrant (reqgrant.cpp builds it for `scheduler: distributed`).
//
// Modules (one per switch) and wires (sc_signal registers: written at cycle t, read at t + 1):
//   adapter i -> A(i): request (path b << 16 | destination + 1), one per cycle; the adapter holds K
//                      request credits per path b (its share of A's queue toward B_b) and sends
//                      the flow's next request through the flow's next path (request pointer);
//   A(i) -> adapter i: request credits, a bit per path b (one request forwarded on A -> B_b);
//                      grants (path << 16 | output + 1), one per cycle, from A's grant queue;
//   A_a -> B_b:        a request (destination << 16 | source + 1) per cycle from RQ_A[b] (M x K),
//                      sent only with a credit for B_b's queue toward the destination's C switch;
//                      grant credits, 4 bits per adapter of A_a (grants A_a passed on);
//   B_b -> C_c:        up to 2 requests per cycle (64 bits) from RQ_B[c] (M x K), at
//                      `request_speedup` requests per cycle on average, without flow control (the
//                      throttle u bounds the C-side counters);
//   B_b -> A_a:        request credits, 4 bits per C switch; a grant per cycle from GQ_B[a];
//   C_c -> B_b:        a grant per cycle from GQ_C[b] (M x K), sent only with a credit for B_b's
//                      grant queue toward the destination adapter's A switch;
//   B_b -> C_c:        grant credits, 4 bits per A switch.
// An output arbiter grants only if it holds a grant-queue credit for the path it picks (footnote
// 9; K per path and arbiter); the end-to-end credits of its egress (local to the C switch) reach
// it `credit_latency` cycles after the in-order delivery, as in the central design.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "blocks/credit_arbiter.hpp"
#include "blocks/swap.hpp"
#include "cc/mechanism.hpp"
#include "cc/reqgrant/reqgrant.hpp"

namespace ccnet::reqgrant {

struct AdapterWires {
  sc_core::sc_signal<std::uint32_t>* request;         // adapter -> A (or the central scheduler)
  sc_core::sc_signal<std::uint32_t>* request_credit;  // A -> adapter (distributed only)
  sc_core::sc_signal<std::uint32_t>* grant;           // -> adapter
  sc_core::sc_signal<std::uint32_t>* credit;          // egress -> its output arbiter
};

// Output arbiter j of an N-port fabric with M middle switches: its visiting order (random per
// output, seeded, or common) and the flows' first paths (input i starts at (i + j) mod M).
// `src`, `where`: RTL in the loop (blocks/swap.hpp).
blocks::CreditArbiterSlot output_arbiter(const Params& p, std::uint32_t n, std::uint32_t m, std::uint64_t seed, NodeId j,
                                         const blocks::BlockSource* src, const std::string& where);

// Builds the A, B and C control modules and the wires between them, traced like the data network.
void build_distributed(NetworkBuilder& b, const Params& p, std::uint32_t n, std::uint32_t m, std::uint64_t seed,
                       const std::vector<AdapterWires>& adapters);

}  // namespace ccnet::reqgrant
