// The single-switch throughput model of paper 002 section 4 (Fig. 6; notes 3.5): an N x N switch
// with always-full VOQs and a b-packet output buffer per output, whose output arbiters grant at
// random as many requests as they hold credits (a PIM-like match in which an output may hold up
// to b grants). The claim (R4): utilisation is "virtually full" for b > 8 at any N; b = 1 is PIM,
// 1 - ((N-1)/N)^N.
//
// Slot order (notes 3.5, the one that reproduces Eq. 1 at b = 1): every input requests every
// output; output j grants min(credits_j, N) distinct inputs drawn uniformly; each input with a
// grant accepts one of its grants uniformly and sends its packet to that output's buffer (a credit
// is used); then every non-empty output buffer sends one packet and returns its credit, in the
// same slot.
#pragma once

#include <cstdint>

namespace ccnet::reqgrant {

// Monte-Carlo of the slot rules above: departures / (N x slots), after `warmup` slots.
double simulate_random_grant_throughput(std::uint32_t n, std::uint32_t b, std::uint64_t slots, std::uint64_t warmup,
                                        std::uint64_t seed);

// The notes' reconstruction of the paper's analysis (Eq. 2 with beta from a fixed point): a Markov
// chain over an output's credit count x in 0..b; per slot it accepts Binomial(min(x, N), p_acc)
// packets, p_acc = (1 - (1 - q)^N) / (N q), q = E[min(x, N)] / N, and sends one if its buffer is
// not empty; beta = E[x] is iterated to a fixed point and U = 1 - ((N - beta) / N)^N.
struct ChainResult {
  double utilisation;
  double beta;
};
ChainResult chain_throughput(std::uint32_t n, std::uint32_t b);

// Lemma 4.1: U <= 1 - ((N - b) / N)^N (b clamped to N, notes G gap).
double throughput_bound(std::uint32_t n, std::uint32_t b);

}  // namespace ccnet::reqgrant
