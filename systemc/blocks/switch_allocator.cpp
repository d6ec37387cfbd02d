#include "blocks/switch_allocator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ccnet::blocks {

SwitchAllocator::SwitchAllocator(const SwitchAllocatorParams& p) : p_(p) {
  if (p.num_in < 1 || p.num_out < 1 || p.reqs_per_in < 1 || p.speedup_in < 1 || p.speedup_out < 1)
    throw std::invalid_argument("SwitchAllocator: sizes must be >= 1");
  if (p.speedup_in > 8) throw std::invalid_argument("SwitchAllocator: speedup_in must be <= 8");
  for (unsigned i = 0; i < p.num_in; ++i) in_arb_.emplace_back(RrArbiterParams{p.reqs_per_in, p.num_prio, false});
  for (unsigned o = 0; o < p.num_out; ++o) out_arb_.emplace_back(RrArbiterParams{p.num_in, p.num_prio, false});
  in_count_.assign(p.num_in + 1, 0);
  out_count_.assign(p.num_out + 1, 0);
}

void SwitchAllocator::reset() {
  for (auto& a : in_arb_) a.reset();
  for (auto& a : out_arb_) a.reset();
}

// One arbitration pass over candidates [0, n): the RrArbiter's choice among those not yet
// taken (bit set in `taken`) and whose output is not excluded. Returns the candidate's
// position, or n if none. Equivalent to RrArbiter::pick over the same request set.
std::uint32_t SwitchAllocator::pick_pass(const RrArbiter& arb, const Request* cand, std::size_t n, bool by_input,
                                         const std::uint32_t* excluded_outputs, std::size_t n_excluded,
                                         std::uint64_t* taken) const {
  std::uint32_t best = static_cast<std::uint32_t>(n);
  std::uint64_t best_key = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    if ((taken[k >> 6] >> (k & 63)) & 1u) continue;
    bool excluded = false;
    for (std::size_t x = 0; x < n_excluded; ++x) excluded = excluded || excluded_outputs[x] == cand[k].output;
    if (excluded) continue;
    const std::uint64_t key = arb.order_key(by_input ? cand[k].input : cand[k].req, cand[k].prio);
    if (key > best_key) {
      best_key = key;
      best = k;
    }
  }
  return best;
}

void SwitchAllocator::bad_request(const Request& r) const {
  throw std::invalid_argument("SwitchAllocator: request of input " + std::to_string(r.input) + " requester " +
                              std::to_string(r.req) + " for output " + std::to_string(r.output) + " at priority level " +
                              std::to_string(r.prio) + " outside the allocator (num_in " + std::to_string(p_.num_in) +
                              ", reqs_per_in " + std::to_string(p_.reqs_per_in) + ", num_out " +
                              std::to_string(p_.num_out) + ", num_prio " + std::to_string(p_.num_prio) + ")");
}

void SwitchAllocator::allocate(const Request* reqs, std::size_t n, std::vector<Grant>& grants) {
  grants.clear();
  if (n == 0) return;
  for (std::size_t k = 0; k < n; ++k) {
    const Request& r = reqs[k];
    if (r.input >= p_.num_in || r.req >= p_.reqs_per_in || r.output >= p_.num_out ||
        (p_.num_prio > 1 && r.prio >= p_.num_prio))
      bad_request(r);
  }
  // Fast path, same result as the general one: when no input has two requests and no output
  // is wanted twice, every request wins in the first pass of both stages.
  if (n <= 64) {
    std::uint64_t inputs_seen[4] = {0, 0, 0, 0}, outputs_seen[4] = {0, 0, 0, 0};
    bool conflict = p_.num_in > 256 || p_.num_out > 256;
    for (std::size_t k = 0; k < n && !conflict; ++k) {
      const std::uint32_t i = reqs[k].input, o = reqs[k].output;
      conflict = ((inputs_seen[i >> 6] >> (i & 63)) & 1u) || ((outputs_seen[o >> 6] >> (o & 63)) & 1u);
      inputs_seen[i >> 6] |= 1ull << (i & 63);
      outputs_seen[o >> 6] |= 1ull << (o & 63);
    }
    if (!conflict) {
      // Grants in output order, as the general path emits them.
      for (unsigned o = 0; o < p_.num_out; ++o) {
        if (!((outputs_seen[o >> 6] >> (o & 63)) & 1u)) continue;
        for (std::size_t k = 0; k < n; ++k)
          if (reqs[k].output == o) {
            grants.push_back(Grant{reqs[k].input, reqs[k].req, o, p_.num_prio > 1 ? reqs[k].prio : 0u, 0, 0});
            break;
          }
      }
      return;
    }
  }
  // Group requests by input (counting sort keeps the caller's order inside an input).
  std::fill(in_count_.begin(), in_count_.end(), 0u);
  for (std::size_t k = 0; k < n; ++k) ++in_count_[reqs[k].input + 1];
  for (unsigned i = 0; i < p_.num_in; ++i) in_count_[i + 1] += in_count_[i];
  if (sorted_.size() < n) sorted_.resize(n);
  for (std::size_t k = 0; k < n; ++k) sorted_[in_count_[reqs[k].input]++] = reqs[k];
  // in_count_[i] now holds the end of input i's run; its start is in_count_[i-1] (0 for i=0).
  if (taken_.size() < (n + 63) / 64) taken_.resize((n + 63) / 64);

  // Input stage: up to speedup_in passes per input, each to a different output.
  proposals_.clear();
  std::uint32_t picked_outputs[8];
  for (unsigned i = 0; i < p_.num_in; ++i) {
    const std::uint32_t b = i == 0 ? 0 : in_count_[i - 1], e = in_count_[i];
    if (b == e) continue;
    const std::size_t m = e - b;
    if (p_.speedup_in <= 2) {
      // One scan gives both passes: the best request, and the best one whose output differs
      // from the best's (the second pass's choice). Same result as pick_pass twice.
      const RrArbiter& arb = in_arb_[i];
      std::uint32_t best = static_cast<std::uint32_t>(m), second = static_cast<std::uint32_t>(m);
      std::uint64_t best_key = 0, second_key = 0;
      for (std::uint32_t k = 0; k < m; ++k) {
        const Request& r = sorted_[b + k];
        const std::uint64_t key = arb.order_key(r.req, r.prio);
        if (key > best_key) {
          if (best < m && sorted_[b + best].output != r.output) {
            second = best;
            second_key = best_key;
          }
          best = k;
          best_key = key;
        } else if (sorted_[b + best].output != r.output && key > second_key) {
          second = k;
          second_key = key;
        }
      }
      proposals_.push_back(Proposal{sorted_[b + best], 0});
      if (p_.speedup_in == 2 && second < m) proposals_.push_back(Proposal{sorted_[b + second], 1});
      continue;
    }
    std::fill(taken_.begin(), taken_.begin() + static_cast<std::ptrdiff_t>((m + 63) / 64), 0ull);
    std::size_t npicked = 0;
    for (unsigned lane = 0; lane < p_.speedup_in && lane < 8; ++lane) {
      const std::uint32_t w = pick_pass(in_arb_[i], &sorted_[b], m, false, picked_outputs, npicked, taken_.data());
      if (w == m) break;
      taken_[w >> 6] |= 1ull << (w & 63);
      picked_outputs[npicked++] = sorted_[b + w].output;
      proposals_.push_back(Proposal{sorted_[b + w], lane});
    }
  }

  // Output stage: group proposals by output, then up to speedup_out passes per output.
  std::fill(out_count_.begin(), out_count_.end(), 0u);
  for (const auto& pr : proposals_) ++out_count_[pr.req.output + 1];
  for (unsigned o = 0; o < p_.num_out; ++o) out_count_[o + 1] += out_count_[o];
  if (by_out_.size() < proposals_.size()) by_out_.resize(proposals_.size());
  for (const auto& pr : proposals_) by_out_[out_count_[pr.req.output]++] = pr;
  if (sorted_.size() < proposals_.size()) sorted_.resize(proposals_.size());
  for (unsigned o = 0; o < p_.num_out; ++o) {
    const std::uint32_t b = o == 0 ? 0 : out_count_[o - 1], e = out_count_[o];
    if (b == e) continue;
    const std::size_t m = e - b;
    if (p_.speedup_out <= 2) {
      // Proposals to one output come from distinct inputs: the passes are the top two keys.
      const RrArbiter& arb = out_arb_[o];
      std::uint32_t best = static_cast<std::uint32_t>(m), second = static_cast<std::uint32_t>(m);
      std::uint64_t best_key = 0, second_key = 0;
      for (std::uint32_t k = 0; k < m; ++k) {
        const Request& r = by_out_[b + k].req;
        const std::uint64_t key = arb.order_key(r.input, r.prio);
        if (key > best_key) {
          second = best;
          second_key = best_key;
          best = k;
          best_key = key;
        } else if (key > second_key) {
          second = k;
          second_key = key;
        }
      }
      const unsigned lanes = p_.speedup_out == 2 && second < m ? 2u : 1u;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        const Proposal& pr = by_out_[b + (lane == 0 ? best : second)];
        grants.push_back(Grant{pr.req.input, pr.req.req, pr.req.output, p_.num_prio > 1 ? pr.req.prio : 0u, pr.in_rank, lane});
      }
      continue;
    }
    for (std::size_t k = 0; k < m; ++k) sorted_[k] = by_out_[b + k].req;
    std::fill(taken_.begin(), taken_.begin() + static_cast<std::ptrdiff_t>((m + 63) / 64), 0ull);
    for (unsigned lane = 0; lane < p_.speedup_out; ++lane) {
      const std::uint32_t w = pick_pass(out_arb_[o], sorted_.data(), m, true, nullptr, 0, taken_.data());
      if (w == m) break;
      taken_[w >> 6] |= 1ull << (w & 63);
      const Proposal& pr = by_out_[b + w];
      grants.push_back(Grant{pr.req.input, pr.req.req, pr.req.output, p_.num_prio > 1 ? pr.req.prio : 0u, pr.in_rank, lane});
    }
  }
}

void SwitchAllocator::commit(const std::vector<Grant>& grants) {
  // Output arbiters: grants are already in (output, out_rank) order.
  for (const auto& g : grants) out_arb_[g.output].commit(static_cast<int>(g.input), g.prio, true);
  // Input arbiters: in input-stage pass order.
  for (unsigned lane = 0; lane < p_.speedup_in; ++lane)
    for (const auto& g : grants)
      if (g.in_rank == lane) in_arb_[g.input].commit(static_cast<int>(g.req), g.prio, true);
}

}  // namespace ccnet::blocks
