// ECN marker core: strict threshold, data packets only, IBA-style marking rate.
#include <catch2/catch.hpp>

#include "blocks/ecn_marker.hpp"

using ccnet::blocks::EcnMarker;

TEST_CASE("ecn marker: marks data packets strictly above the threshold", "[ecn_marker]") {
  EcnMarker m({16, 0});
  CHECK_FALSE(m.mark(true, true, 16));  // at the threshold: not above
  CHECK(m.mark(true, true, 17));
  CHECK_FALSE(m.mark(true, false, 30));  // control packets are never marked
  CHECK_FALSE(m.mark(false, true, 30));  // no packet this cycle
  m.commit(true, true, 17);
  CHECK(m.mark(true, true, 17));  // marking rate 0: every eligible packet
}

TEST_CASE("ecn marker: marking rate skips packets between marks", "[ecn_marker]") {
  EcnMarker m({4, 2});
  std::vector<int> marks;
  for (int i = 0; i < 9; ++i) {
    marks.push_back(m.mark(true, true, 10));
    m.commit(true, true, 10);
    m.commit(true, false, 10);  // an ineligible packet leaves the count alone
    m.commit(true, true, 3);    // so does one below the threshold
  }
  CHECK(marks == std::vector<int>{1, 0, 0, 1, 0, 0, 1, 0, 0});
}

TEST_CASE("ecn marker: threshold equal to capacity never marks", "[ecn_marker]") {
  EcnMarker m({32, 0});
  for (std::uint32_t occ = 0; occ <= 32; ++occ) CHECK_FALSE(m.mark(true, true, occ));
}
