#include <algorithm>

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
    if (dst.empty() || (dst.size() == 1 && std::find(sources.begin(), sources.end(), dst[0]) != sources.end() && sources.size() == 1))
      throw config::ConfigError("pattern uniform: the destination group has no node other than the source");
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

// Random permutation: a fixed random one-to-one map drawn once per run; with equal source and
// destination sets it has no fixed points (a derangement).
class PermutationPattern : public Pattern {
 public:
  PermutationPattern(const std::vector<NodeId>& src, std::vector<NodeId> dst, RngStream rng) {
    NodeId max_src = 0;
    for (NodeId s : src) max_src = std::max(max_src, s);
    map_.assign(max_src + 1, 0);
    for (int attempt = 0;; ++attempt) {
      for (std::size_t i = dst.size(); i > 1; --i) std::swap(dst[i - 1], dst[rng.below(i)]);
      bool fixed = false;
      for (std::size_t i = 0; i < src.size(); ++i) {
        map_[src[i]] = dst[i % dst.size()];
        fixed = fixed || map_[src[i]] == src[i];
      }
      if (!fixed) return;
      if (attempt > 1000) throw config::ConfigError("pattern permutation: cannot avoid mapping a node to itself");
    }
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
    if (dst.size() < 2 && src.size() >= 1) throw config::ConfigError("pattern permutation: needs at least 2 destinations");
    return std::make_unique<PermutationPattern>(src, dst, rng);
  }
};
config::PolyRegistrar<PatternParams, PermutationParams> reg_perm("permutation", "random permutation");

}  // namespace
}  // namespace ccnet
