// Destination patterns for communication phases (traffic process `phase`, paper 004 section 5.3).
#include <algorithm>
#include <string>
#include <vector>

#include "traffic/pattern.hpp"

namespace ccnet {
namespace {

// A superposition of `count` random permutations, drawn once per run: source s has one
// destination in each permutation, and its destinations are returned in turn (permutation 0
// first), so a phase with `flows: count` sends exactly one flow along each of them. Every
// permutation is one-to-one (no destination gets two sources of one permutation) and, with
// `distinct`, a source's destinations are pairwise different and never itself, so every node
// sends and receives exactly `count` flows when sources and destinations are the same nodes.
class PermutationsPattern : public Pattern {
 public:
  PermutationsPattern(const std::vector<NodeId>& src, const std::vector<NodeId>& dst, std::uint32_t count, bool distinct,
                      RngStream rng) {
    NodeId max_src = 0;
    for (NodeId s : src) max_src = std::max(max_src, s);
    next_.assign(max_src + 1, 0);
    dests_.assign(static_cast<std::size_t>(max_src + 1) * count, 0);
    count_ = count;
    const std::size_t n = src.size(), d = dst.size();
    std::vector<NodeId> perm(dst);
    for (std::uint32_t j = 0; j < count; ++j) {
      // A source may not take a destination it already has (or itself); a permutation is drawn,
      // then each bad position is repaired by a swap that leaves both positions good (positions
      // >= n are destinations no source takes in this permutation); redrawn if stuck.
      auto bad = [&](std::size_t i, NodeId v) {
        if (i >= n) return false;
        const NodeId s = src[i];
        if (v == s && distinct) return true;
        if (!distinct) return false;
        for (std::uint32_t k = 0; k < j; ++k)
          if (dests_[static_cast<std::size_t>(s) * count + k] == v) return true;
        return false;
      };
      bool ok = false;
      for (int attempt = 0; attempt < 100 && !ok; ++attempt) {
        for (std::size_t i = d; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
        ok = true;
        for (std::size_t i = 0; i < n && ok; ++i) {
          if (!bad(i, perm[i])) continue;
          bool fixed = false;
          for (std::size_t tries = 0; tries < 3 * d && !fixed; ++tries) {
            const std::size_t k = tries < 2 * d ? rng.below(d) : tries - 2 * d;  // 2d random, then a scan of all d
            if (k == i || bad(i, perm[k]) || bad(k, perm[i])) continue;
            std::swap(perm[i], perm[k]);
            fixed = true;
          }
          ok = fixed;
        }
      }
      if (!ok)
        throw config::ConfigError("pattern permutations: could not draw " + std::to_string(count) +
                                  " permutations giving each source distinct destinations");
      for (std::size_t i = 0; i < n; ++i) dests_[static_cast<std::size_t>(src[i]) * count + j] = perm[i];
    }
  }
  NodeId destination(NodeId src) override {
    std::uint32_t& k = next_[src];
    const NodeId d = dests_[static_cast<std::size_t>(src) * count_ + k];
    k = (k + 1) % count_;
    return d;
  }

 private:
  std::uint32_t count_ = 1;
  std::vector<NodeId> dests_;       // per source: its destination in each permutation
  std::vector<std::uint32_t> next_;  // per source: the permutation of its next message
};

struct PermutationsParams : PatternParams {
  std::uint32_t count = 1;
  bool distinct = true;
  static const config::Schema& schema() {
    static config::Schema s(
        "Superposition of `count` random permutations (paper 004's communication phase), drawn once per run: each "
        "source has one destination per permutation and sends to them in turn; with `distinct`, a source's "
        "destinations are pairwise different and never itself. Use with `process: phase, flows: <count>`: every node "
        "then sends and receives `count` flows.");
    static bool init = [] {
      config::Declare<PermutationsParams>(s)
          .field("count", &PermutationsParams::count, 1u, "number of superposed permutations", {1, 4096})
          .field("distinct", &PermutationsParams::distinct, true,
                 "a source's destinations are pairwise different and not itself (false: independent permutations, "
                 "which may repeat a destination or map a node to itself)");
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Pattern> create(const std::vector<NodeId>& src, const std::vector<NodeId>& dst, RngStream rng) const override {
    if (dst.size() < src.size())
      throw config::ConfigError("pattern permutations: " + std::to_string(src.size()) + " sources but only " +
                                std::to_string(dst.size()) + " destinations (a permutation is one-to-one)");
    bool overlap = false;
    for (NodeId s : src) overlap = overlap || std::binary_search(dst.begin(), dst.end(), s);
    if (distinct && dst.size() < count + (overlap ? 1u : 0u))
      throw config::ConfigError("pattern permutations: " + std::to_string(count) + " distinct destinations per source need at least " +
                                std::to_string(count + (overlap ? 1 : 0)) + " destination nodes, the group has " +
                                std::to_string(dst.size()));
    return std::make_unique<PermutationsPattern>(src, dst, count, distinct, rng);
  }
};
config::PolyRegistrar<PatternParams, PermutationsParams> reg_permutations("permutations",
                                                                         "superposition of random permutations");

}  // namespace
}  // namespace ccnet
