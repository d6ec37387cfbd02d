// k-ary n-tree fat trees (= bidirectional k-ary n-fly / BMIN with up*/down* routing) and the
// modified k-ary n-tree of paper 004 (notes 1.2.1): the same tree, plus horizontal links joining
// the routers of each logical fat-tree node into a chain. Wiring and routing live in
// topology/multistage.hpp.
#include "topology/multistage.hpp"

namespace ccnet {
namespace {

struct FatTreeParams : TopologyParams {
  std::uint32_t k = 4;
  std::uint32_t n = 3;
  static const config::Schema& schema() {
    static config::Schema s(
        "k-ary n-tree fat tree (also the bidirectional k-ary n-fly): k^n nodes, n levels of k^(n-1) routers with k down "
        "and k up ports. Link classes: terminal, local.");
    static bool init = [] {
      config::Declare<FatTreeParams>(s)
          .field("k", &FatTreeParams::k, 4u, "down (and up) ports per router", {2, 64})
          .field("n", &FatTreeParams::n, 3u, "levels", {1, 6});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    MultistageTopology::Shape shape;
    shape.type = "fattree";
    shape.k = k;
    shape.n = n;
    shape.default_routing = "nca";
    return std::make_unique<MultistageTopology>(shape);
  }
};
config::PolyRegistrar<TopologyParams, FatTreeParams> reg_fattree("fattree", "k-ary n-tree");

struct ModifiedFatTreeParams : TopologyParams {
  std::uint32_t k = 4;
  std::uint32_t n = 3;
  std::uint32_t w = 2;
  static const config::Schema& schema() {
    static config::Schema s(
        "Modified k-ary n-tree (paper 004): a k-ary n-tree whose routers in one logical fat-tree node (same level above "
        "the leaves, same subtree) form a chain, neighbours joined by w parallel horizontal links. Static routing "
        "(default d-mod-k) never uses them; a routing hook may take them while descending. Link classes: terminal, local.");
    static bool init = [] {
      config::Declare<ModifiedFatTreeParams>(s)
          .field("k", &ModifiedFatTreeParams::k, 4u, "down (and up) ports per router", {2, 64})
          .field("n", &ModifiedFatTreeParams::n, 3u, "levels", {2, 6})
          .field("w", &ModifiedFatTreeParams::w, 2u, "horizontal width: parallel links between chain neighbours", {1, 8});
      return true;
    }();
    (void)init;
    return s;
  }
  std::unique_ptr<Topology> create() const override {
    MultistageTopology::Shape shape;
    shape.type = "modified_fattree";
    shape.k = k;
    shape.n = n;
    shape.horizontal_width = w;
    shape.default_routing = "dmodk";
    return std::make_unique<MultistageTopology>(shape);
  }
};
config::PolyRegistrar<TopologyParams, ModifiedFatTreeParams> reg_modified("modified_fattree", "k-ary n-tree with horizontal links");

}  // namespace
}  // namespace ccnet
