// Credit counter core (reference semantics of rtl/ccn_credit_counter.sv).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/credit_counter.hpp"

using namespace ccnet::blocks;

TEST_CASE("credit_counter gives and takes in the same cycle", "[credit_counter]") {
  CreditCounter c({3, 2});
  CHECK(c.full());
  CHECK(c.commit(0, true));
  CHECK(c.commit(0, true));
  CHECK(c.count() == 1);
  CHECK(c.commit(1, true));  // give and take together
  CHECK(c.count() == 1);
  CHECK(c.commit(2, false));
  CHECK(c.count() == 3);
  CHECK(c.full());
  CHECK_FALSE(c.error());
}

TEST_CASE("credit_counter reports underflow and overflow, saturating", "[credit_counter]") {
  CreditCounter c({2, 2});
  CHECK_FALSE(c.commit(1, false));  // overflow: already full
  CHECK(c.count() == 2);
  CHECK(c.error());
  CreditCounter d({2, 1});
  CHECK(d.commit(0, true));
  CHECK(d.commit(0, true));
  CHECK(d.empty());
  CHECK_FALSE(d.commit(1, true));  // take from empty, even with a credit arriving
  CHECK(d.count() == 1);
  CHECK(d.error());
  CreditCounter e({4, 1});
  e.commit(0, true);
  e.commit(0, true);
  CHECK_FALSE(e.commit(2, false));  // more lanes than declared
}

TEST_CASE("credit_counter next() predicts commit() without changing state", "[credit_counter]") {
  CreditCounter c({2, 2});
  CHECK_FALSE(c.next(1, false).ok);  // overflow
  CHECK(c.next(1, false).count == 2);
  CHECK(c.next(0, true).ok);
  CHECK(c.next(0, true).count == 1);
  CHECK(c.count() == 2);
  CHECK_FALSE(c.error());
}
