#include <algorithm>
#include <stdexcept>
#include <string>

#include "traffic/pattern.hpp"

namespace ccnet {
namespace {

// Uniform random over the destination set, never the source itself.
class UniformPattern : public Pattern {
 public:
  UniformPattern(std::vector<NodeId> dst, RngStream rng) : dst_(std::move(dst)), rng_(rng) {}
  NodeId destination(NodeId src) override {
    while (true) {
      const NodeId d = dst_[rng_.below(dst_.size())];
      if (d != src) return d;
    }
  }

 private:
  std::vector<NodeId> dst_;
  RngStream rng_;
};

struct UniformParams : PatternParams {
  static const config::Schema& schema() {
    static config::Schema s("Uniform random: each message goes to a destination drawn uniformly from the class's destination group (never the source).");
    return s;
  }
  std::unique_ptr<Pattern> create(const std::vector<NodeId>& sources, const std::vector<NodeId>& dst, RngStream rng) const override {
    // Every source needs a destination other than itself, or the draw above never ends.
    if (dst.empty()) throw config::ConfigError("the destination group is empty");
    if (dst.size() == 1 && std::binary_search(sources.begin(), sources.end(), dst[0]))
      throw config::ConfigError("the only destination, node " + std::to_string(dst[0]) +
                                ", is also a source of the class and would have nowhere to send; leave it out of "
                                "the sources (e.g. a source group with `exclude: [<destination group>]`)");
    return std::make_unique<UniformPattern>(dst, rng);
  }
};
config::PolyRegistrar<PatternParams, UniformParams> reg_uniform("uniform", "uniform random");

// Hotspot: the same draw, named for configs where a set of senders targets a few hot nodes.
struct HotspotParams : UniformParams {
  static const config::Schema& schema() {
    static config::Schema s("Hotspot: senders (the class's sources) send uniformly to the hot destinations (the class's destinations group, which must not be `all`).");
    return s;
  }
};
config::PolyRegistrar<PatternParams, HotspotParams> reg_hotspot("hotspot", "senders to hot destinations");

// Random permutation: a fixed random map drawn once per run. Source i (in node order) sends to
// destination i mod D of a shuffled destination list, so with equal source and destination
// sets it is one-to-one and has no fixed points (a derangement). The shuffle is redrawn while
// some node would send to itself; after kRedraws draws the remaining conflicts are repaired by
// swaps, so the construction always ends. A node is a source at exactly one position, so it is
// forbidden to at most one destination slot: a valid map exists unless some slot's sources
// include every destination (checked first, see feasible()).
class PermutationPattern : public Pattern {
 public:
  PermutationPattern(const std::vector<NodeId>& src, std::vector<NodeId> dst, RngStream rng) {
    NodeId max_src = 0;
    for (NodeId s : src) max_src = std::max(max_src, s);
    map_.assign(max_src + 1, 0);
    const std::size_t d = dst.size();
    // slot_of[node]: the destination slot whose sources include `node` (d if none).
    std::vector<std::size_t> slot_of(map_.size(), d);
    for (std::size_t i = 0; i < src.size(); ++i) slot_of[src[i]] = i % d;
    auto forbidden = [&](std::size_t slot, NodeId node) { return node < slot_of.size() && slot_of[node] == slot; };
    constexpr int kRedraws = 64;
    for (int attempt = 0;; ++attempt) {
      for (std::size_t i = d; i > 1; --i) std::swap(dst[i - 1], dst[rng.below(i)]);
      bool fixed = false;
      for (std::size_t j = 0; j < d && !fixed; ++j) fixed = forbidden(j, dst[j]);
      if (!fixed || attempt + 1 == kRedraws) break;
    }
    // Repair: a slot j holding a node v of its own sources swaps with a slot k whose node u is
    // allowed in j; v is forbidden only in j, so slot k is then valid too.
    for (std::size_t j = 0; j < d; ++j) {
      if (!forbidden(j, dst[j])) continue;
      std::size_t k = 0;
      while (k < d && (k == j || forbidden(j, dst[k]))) ++k;
      if (k == d) throw std::logic_error("permutation: no valid destination map (feasible() missed it)");
      std::swap(dst[j], dst[k]);
    }
    for (std::size_t i = 0; i < src.size(); ++i) map_[src[i]] = dst[i % d];
  }
  // Whether a map without fixed points exists: every slot must have a destination that is not
  // one of its own sources.
  static bool feasible(const std::vector<NodeId>& src, const std::vector<NodeId>& dst, std::string& why) {
    const std::size_t d = dst.size();
    if (d == 0) {
      why = "the destination group is empty";
      return false;
    }
    std::vector<std::size_t> own(d, 0);  // destinations that are sources of slot j
    for (std::size_t i = 0; i < src.size(); ++i)
      if (std::binary_search(dst.begin(), dst.end(), src[i])) ++own[i % d];
    for (std::size_t j = 0; j < d; ++j)
      if (own[j] == d) {
        why = d == 1 ? "the only destination, node " + std::to_string(dst[0]) + ", is also a source"
                     : "every destination is a source that shares its slot (sources " + std::to_string(j) + ", " +
                           std::to_string(j + d) + ", ... in node order map to destination slot " + std::to_string(j) +
                           " of " + std::to_string(d) + "), so some node would have to send to itself";
        return false;
      }
    return true;
  }
  NodeId destination(NodeId src) override { return map_[src]; }

 private:
  std::vector<NodeId> map_;
};

struct PermutationParams : PatternParams {
  static const config::Schema& schema() {
    static config::Schema s("Random permutation: source i always sends to the same destination, drawn once per run (no node sends to itself).");
    return s;
  }
  std::unique_ptr<Pattern> create(const std::vector<NodeId>& src, const std::vector<NodeId>& dst, RngStream rng) const override {
    std::string why;
    if (!PermutationPattern::feasible(src, dst, why))
      throw config::ConfigError("pattern permutation: " + why + "; no map without a node sending to itself exists");
    return std::make_unique<PermutationPattern>(src, dst, rng);
  }
};
config::PolyRegistrar<PatternParams, PermutationParams> reg_perm("permutation", "random permutation");

// Unbalanced (paper 002 section 6, Fig. 10: parameter w): a message goes with probability w to
// the source's partner, the destination `offset` places after the source's own position (its
// index in the class's sources) in the destination group, cyclically; otherwise to a destination
// drawn uniformly (never the source). w = 0 is uniform, w = 1 a fixed permutation.
class UnbalancedPattern : public Pattern {
 public:
  UnbalancedPattern(const std::vector<NodeId>& src, std::vector<NodeId> dst, double w, std::uint32_t offset, RngStream rng)
      : uniform_(dst, rng), w_(w), rng_(RngStream(rng).next(), "unbalanced.partner") {
    NodeId max_src = 0;
    for (NodeId s : src) max_src = std::max(max_src, s);
    partner_.assign(max_src + 1, 0);
    for (std::size_t i = 0; i < src.size(); ++i) {
      partner_[src[i]] = dst[(i + offset) % dst.size()];
      if (partner_[src[i]] == src[i])
        throw config::ConfigError("pattern unbalanced: node " + std::to_string(src[i]) + " would be its own partner with offset " +
                                  std::to_string(offset) + "; choose another offset");
    }
  }
  NodeId destination(NodeId src) override { return rng_.uniform() < w_ ? partner_[src] : uniform_.destination(src); }

 private:
  UniformPattern uniform_;
  double w_;
  RngStream rng_;
  std::vector<NodeId> partner_;
};

struct UnbalancedParams : PatternParams {
  double w = 0.5;
  std::uint32_t offset = 1;
  static const config::Schema& schema() {
    static config::Schema s(
        "Unbalanced (paper 002, Fig. 10): with probability w a message goes to the source's partner (the destination "
        "`offset` places after the source's position in the class's sources, cyclically over the destination group), "
        "else uniformly (never the source). w = 0 is uniform, w = 1 a fixed permutation. The paper's partner is the "
        "source's own index (i -> i); ccnet never sends a node to itself, so its partner is shifted by offset.");
    static bool init = [] {
      config::Declare<UnbalancedParams>(s)
          .field("w", &UnbalancedParams::w, 0.5, "probability of the partner", {0.0, 1.0})
          .field("offset", &UnbalancedParams::offset, 1u, "partner = destination at (source position + offset) mod D", {0, 1u << 24});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Pattern> create(const std::vector<NodeId>& src, const std::vector<NodeId>& dst, RngStream rng) const override {
    UniformParams{}.create(src, dst, rng);  // the uniform part's checks
    return std::make_unique<UnbalancedPattern>(src, dst, w, offset, rng);
  }
};
config::PolyRegistrar<PatternParams, UnbalancedParams> reg_unbalanced("unbalanced", "paper 002's unbalanced traffic (w)");

}  // namespace
}  // namespace ccnet
