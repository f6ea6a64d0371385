// Request-reply traffic: every request is answered, the two message classes keep it free of
// protocol deadlock even when reply queues fill and sinks hold back request credits.
#include "helpers.hpp"

using namespace ls;

namespace {

Config request_reply(const char* kind, std::vector<int64_t> radix, int64_t vcs, double offered) {
  Config c = test::network(kind, std::move(radix), offered, vcs);
  c.traffic.request_reply = true;
  c.traffic.packet_size = 2;
  c.traffic.reply_size = 3;
  c.traffic.reply_queue = vcs / 2 * c.vc.vc_depth;  // the smallest allowed: fills easily
  return c;
}

template <class T>
uint64_t sum(const HostArray& a) {
  uint64_t s = 0;
  for (size_t i = 0; i < a.bytes.size() / sizeof(T); ++i)
    s += reinterpret_cast<const T*>(a.bytes.data())[i];
  return s;
}

}  // namespace

TEST(RequestReply, EveryRequestIsAnsweredOnce) {
  Config c = request_reply("torus", {4, 4}, 4, 5.0);  // one request per cycle per node...
  c.traffic.max_packets = 5;                          // ...five in all
  auto e = make_engine({c}, test::options());
  e->step(400);
  EXPECT_EQ(sum<uint32_t>(e->state("packets_started")), 16u * 10);  // 5 requests + 5 replies
  EXPECT_EQ(sum<uint64_t>(e->state("ejected_flits")), 16u * 5 * (2 + 3));
  EXPECT_EQ(sum<uint64_t>(e->state("injected_flits")), 16u * 5 * (2 + 3));
  EXPECT_EQ(sum<uint32_t>(e->state("reply_queue")), 0u);
}

TEST(RequestReply, OfferedLoadCountsRequestsAndReplies) {
  Config c = request_reply("mesh", {4, 4}, 2, 0.2);
  c.run.measure = 10000;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_NEAR(r.offered, 0.2, 0.01);
  EXPECT_NEAR(r.accepted, r.offered, 0.01);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
}

TEST(RequestReply, FullReplyQueuesStallRequestsWithoutDeadlock) {
  for (Config c : {request_reply("mesh", {4, 4}, 2, 1.0), request_reply("torus", {4, 4}, 4, 1.0),
                   request_reply("crossbar", {8}, 2, 1.0)}) {
    c.traffic.pattern = "hotspot";  // most requests to one node: its reply queue overflows
    c.traffic.hotspot_nodes = {5 % c.topology.radix[0]};
    c.traffic.hotspot_fraction = 0.6;
    c.run.warmup = 300;
    c.run.measure = 1500;
    c.run.drain = 0;
    c.run.watchdog = 500;
    auto e = make_engine({c}, test::options());  // debug: invariants every cycle
    e->step(600);
    bool withheld = false;
    for (int k = 0; k < 20 && !withheld; ++k) {
      e->step(20);
      withheld = sum<uint8_t>(e->state("sink_withheld_credits")) > 0;
    }
    EXPECT_TRUE(withheld) << c.topology.kind << ": the hot node never held back a request credit";
    InstanceResult r;
    ASSERT_NO_THROW(r = e->run().at(0)) << c.topology.kind;
    EXPECT_GT(r.accepted, 0.05) << c.topology.kind;
  }
}

TEST(RequestReply, VcsAreSplitBetweenTheClasses) {
  Config c = request_reply("torus", {4, 4}, 2, 0.1);  // one VC per class: no dateline pair
  EXPECT_THROW(make_engine({c}, test::options()), ConfigError);
  c.vc.vcs = 3;
  EXPECT_THROW(make_engine({c}, test::options()), ConfigError);
  c = request_reply("mesh", {4, 4}, 2, 0.1);
  c.traffic.reply_queue = 4;  // fewer slots than request flits a router may send
  EXPECT_THROW(make_engine({c}, test::options()), ConfigError);
}
