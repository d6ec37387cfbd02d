#include "blocks/switch_allocator.hpp"

#include <algorithm>
#include <stdexcept>

namespace ccnet::blocks {

SwitchAllocator::SwitchAllocator(const SwitchAllocatorParams& p) : p_(p) {
  if (p.num_in < 1 || p.num_out < 1 || p.reqs_per_in < 1 || p.speedup_in < 1 || p.speedup_out < 1)
    throw std::invalid_argument("SwitchAllocator: sizes must be >= 1");
  for (unsigned i = 0; i < p.num_in; ++i) in_arb_.emplace_back(RrArbiterParams{p.reqs_per_in, p.num_prio, false});
  for (unsigned o = 0; o < p.num_out; ++o) out_arb_.emplace_back(RrArbiterParams{p.num_in, p.num_prio, false});
  in_count_.assign(p.num_in + 1, 0);
  in_start_.assign(p.num_in + 1, 0);
  out_count_.assign(p.num_out + 1, 0);
  out_start_.assign(p.num_out + 1, 0);
}

void SwitchAllocator::reset() {
  for (auto& a : in_arb_) a.reset();
  for (auto& a : out_arb_) a.reset();
}

void SwitchAllocator::allocate(const Request* reqs, std::size_t n, std::vector<Grant>& grants) {
  grants.clear();
  if (n == 0) return;
  // Group requests by input (counting sort keeps the caller's order inside an input).
  std::fill(in_count_.begin(), in_count_.end(), 0u);
  for (std::size_t k = 0; k < n; ++k) ++in_count_[reqs[k].input + 1];
  for (unsigned i = 0; i < p_.num_in; ++i) in_count_[i + 1] += in_count_[i];
  in_start_ = in_count_;
  sorted_.resize(n);
  for (std::size_t k = 0; k < n; ++k) sorted_[in_start_[reqs[k].input]++] = reqs[k];

  // Input stage.
  proposals_.clear();
  prop_rank_.clear();
  for (unsigned i = 0; i < p_.num_in; ++i) {
    const std::uint32_t b = in_count_[i], e = in_count_[i + 1];
    if (b == e) continue;
    taken_.assign(e - b, 0);
    std::uint32_t first_prop = static_cast<std::uint32_t>(proposals_.size());
    for (unsigned lane = 0; lane < p_.speedup_in; ++lane) {
      cand_.clear();
      for (std::uint32_t k = b; k < e; ++k) {
        if (taken_[k - b]) continue;
        bool dup = false;
        for (std::size_t q = first_prop; q < proposals_.size(); ++q) dup = dup || proposals_[q].output == sorted_[k].output;
        if (dup) continue;
        cand_.push_back(RrArbiter::Request{sorted_[k].req, p_.num_prio > 1 ? sorted_[k].prio : 0u});
      }
      const int w = in_arb_[i].pick(cand_.data(), cand_.size());
      if (w < 0) break;
      for (std::uint32_t k = b; k < e; ++k)
        if (!taken_[k - b] && sorted_[k].req == static_cast<std::uint32_t>(w)) {
          taken_[k - b] = 1;
          proposals_.push_back(sorted_[k]);
          prop_rank_.push_back(lane);
          break;
        }
    }
  }

  // Output stage: group proposals by output.
  std::fill(out_count_.begin(), out_count_.end(), 0u);
  for (const auto& pr : proposals_) ++out_count_[pr.output + 1];
  for (unsigned o = 0; o < p_.num_out; ++o) out_count_[o + 1] += out_count_[o];
  out_start_ = out_count_;
  by_out_.resize(proposals_.size());
  by_out_rank_.resize(proposals_.size());
  for (std::size_t q = 0; q < proposals_.size(); ++q) {
    const std::uint32_t slot = out_start_[proposals_[q].output]++;
    by_out_[slot] = proposals_[q];
    by_out_rank_[slot] = prop_rank_[q];
  }
  for (unsigned o = 0; o < p_.num_out; ++o) {
    const std::uint32_t b = out_count_[o], e = out_count_[o + 1];
    if (b == e) continue;
    taken_.assign(e - b, 0);
    for (unsigned lane = 0; lane < p_.speedup_out; ++lane) {
      cand_.clear();
      for (std::uint32_t k = b; k < e; ++k)
        if (!taken_[k - b]) cand_.push_back(RrArbiter::Request{by_out_[k].input, p_.num_prio > 1 ? by_out_[k].prio : 0u});
      const int w = out_arb_[o].pick(cand_.data(), cand_.size());
      if (w < 0) break;
      for (std::uint32_t k = b; k < e; ++k)
        if (!taken_[k - b] && by_out_[k].input == static_cast<std::uint32_t>(w)) {
          taken_[k - b] = 1;
          const Request& r = by_out_[k];
          grants.push_back(Grant{r.input, r.req, r.output, p_.num_prio > 1 ? r.prio : 0u, by_out_rank_[k], lane});
          break;
        }
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
