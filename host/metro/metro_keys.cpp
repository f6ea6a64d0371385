// METRO's configuration keys ([metro]): ranges and documentation.
#include "../config/key_builders.hpp"
#include "metro_family.hpp"

namespace ls::metro {

std::vector<KeyInfo> section_keys() {
  using namespace keys;
  using M = MetroConfig;
  const auto part = &Config::metro;
  return {
      int_key("metro", "hw", part, &M::hw, 0, 8,
              "header words each router consumes from the head of a stream while it sets up the "
              "connection (Table 1's hw); 0: the route's words pass through to the endpoint"),
      int_key("metro", "dp", part, &M::dp, 1, 8,
              "data pipestages inside a router (Table 1's dp): clocks a word takes through it"),
      int_key("metro", "vtd", part, &M::vtd, 0, 15,
              "pipeline stages on the wire out of every router port (Table 2's turn delay); a "
              "stage costs dp + vtd clocks (Table 4's t_stg / t_clk)"),
      int_list_key("metro", "port_vtd", part, &M::port_vtd, 0, 3 * 64, 0, 1 << 20,
                   "wires of their own length (Table 2's turn delay is per port: 'closer routers "
                   "should be able to take advantage of ... faster' signalling), as (router, "
                   "port, vtd) triples, vtd 0 to 15: words leaving a router over that port's wire "
                   "take dp + vtd clocks, either way on a router-to-router wire (an endpoint's "
                   "own side stays one clock); the other wires keep metro.vtd"),
      int_list_key("metro", "swallow", part, &M::swallow, 0, 8, 0, 7,
                   "layers (stages; a fat tree's in the order a connection crosses them) whose "
                   "routers swallow the route word they routed on, so the next word leads for "
                   "the next router (Table 2's swallow, per forward port: the state array "
                   "swallow; only with hw = 0); a header word must lead every router's stream"),
      int_key("metro", "width", part, &M::width, 1, 32,
              "w: bits per word; with hw = 0 the route (log2 r bits per stage) fills "
              "ceil(bits / w) header words"),
      enum_key("metro", "checksum", part, &M::checksum, {"weighted", "sum"},
               "the checksum of a stream's data words, the end-to-end one and each router's "
               "(the paper gives no format): word by word c <- 3c + word mod 2^w (weighted: "
               "two corrupted words cancel only 2^(w-2) words apart) or c <- c + word (sum: "
               "two words changed in opposite directions cancel anywhere); the source's last "
               "data word brings the stream's checksum to 0 (where routes may be corrupted, to "
               "the destination's number)"),
      enum_key("metro", "reclaim", part, &M::reclaim, {"fast", "detailed"},
               "a blocked connection: fast reclamation (a drop request back on the BCB releases "
               "the path at once; the source learns only the stage) or detailed (the router "
               "holds the path until the source turns, then returns its STATUS and checksum)"),
      enum_key("metro", "selection", part, &M::selection, {"random", "first"},
               "how a router picks among the free backward ports of the direction a connection "
               "needs, and a source among its entering ports in service: at random (section 4, "
               "the paper's stochastic path selection) or the lowest-numbered (first: a control "
               "without randomness, so a retry takes the path its attempt took while that path "
               "is free, a dead router on it included)"),
      int_key("metro", "retry_delay", part, &M::retry_delay, 0, 1 << 20,
              "clocks a source waits after a blocked attempt before it retries (a new random "
              "path)"),
      enum_key("metro", "backoff", part, &M::backoff, {"fixed", "exponential", "random"},
               "the source's retry policy: wait metro.retry_delay clocks after every failed "
               "attempt (fixed), or after the k-th failure of a message retry_delay x 2^(k-1) "
               "(exponential), or a uniformly random wait from 0 to that (random: binary "
               "exponential back-off), the doublings at most metro.backoff_limit"),
      int_key("metro", "backoff_limit", part, &M::backoff_limit, 0, 10,
              "doublings of metro.retry_delay at most, for metro.backoff exponential or random"),
      int_key("metro", "timeout", part, &M::timeout, 1, 1 << 20,
              "clocks a source waits after its TURN for the acknowledgement (a read's source, "
              "after the acknowledgement, this long beyond the reply's due time for its reply); "
              "then it drops the connection and retries (a dead router answers nothing); at "
              "least the answer's round trip, 2 x (1 + routers on the longest path x (dp + vtd))"),
      int_key("metro", "reply_delay", part, &M::reply_delay, 0, 1 << 20,
              "with traffic.request_reply (reads: the destination turns the connection back "
              "with its acknowledgement and a reply of traffic.reply_size words, the last its "
              "checksum), the clocks it fills with DATA-IDLE before the reply (fetching the "
              "data: the paper's cache or main memory)"),
      int_key("metro", "exchanges", part, &M::exchanges, 1, 1024,
              "with traffic.request_reply, the request/reply exchanges a read makes on its one "
              "connection before the source drops it (the paper: \"The connection may be "
              "reversed as many times as the source and destination desire before being "
              "closed\"): after each good reply but the last the source sends its next request "
              "(its data words, their checksum word and a TURN, no header: the path stays open) "
              "and the destination acknowledges, fetches (metro.reply_delay) and replies as for "
              "the first; a bad acknowledgement or reply at any exchange fails the attempt and "
              "the retry starts from the first. The message is delivered once, at its last "
              "reply (its latency from creation to there), and traffic.offered counts every "
              "exchange's words (result exchanges_completed, state exchanges_done: the good "
              "replies); more than 1 only with traffic.request_reply (a write's connection is "
              "turned once)"),
      float_key("metro", "word_error_rate", part, &M::word_error_rate, 0.0, 0.5,
                "chance that a data word is corrupted (one bit flips) on each wire it crosses; "
                "the destination's end-to-end checksum fails, it acknowledges bad and the source "
                "retries (results words_corrupted, bad_checksum_fraction)"),
      float_key("metro", "header_error_rate", part, &M::header_error_rate, 0.0, 0.5,
                "chance that a route (header) word has one route bit flipped, in one slice of a "
                "cascade, on each wire it crosses: with metro.cascade = 1 the connection goes "
                "where the flipped route says and fails the end-to-end checksum there (which then "
                "covers the route); in a cascade the slices disagree at the first router whose "
                "digit differs and the IN-USE check shuts the connection down (result "
                "inuse_shutdowns), or the header disagrees at the endpoint (bad_headers); either "
                "way the source retries"),
      int_list_key("metro", "noisy_ports", part, &M::noisy_ports, 0, 2 * 4096, 0, 1 << 20,
                   "the wires metro.word_error_rate and metro.header_error_rate apply to, as "
                   "(router, port) pairs (a wire by either router end, as in "
                   "metro.failed_ports), both ways; [] (the default): every wire",
                   true),
      int_key("metro", "cascade", part, &M::cascade, 1, 8,
              "c: width cascading, routers side by side as one logical router of c x w bits "
              "(section 5.1), each routing on its own copy of the route with shared random "
              "bits; their wired-AND IN-USE lines shut a connection down when they disagree"),
      int_list_key("metro", "failed_routers", part, &M::failed_routers, 0, 4096, 0, 1 << 20,
                   "routers that die (numbers as in the topology: stage by stage), at "
                   "metro.failure_cycle: every port out of service, the words that reach them lost",
                   true),
      int_list_key(
          "metro", "failed_ports", part, &M::failed_ports, 0, 2 * 4096, 0, 1 << 20,
          "wires that break, as (router, port) pairs (ports as the topology numbers them: "
          "forward, then backward; a first stage's forward port is an endpoint's entering wire, "
          "a last stage's backward port its leaving one), at metro.failure_cycle: words either "
          "way over the wire are lost; with metro.mask_failed the ports at both ends are "
          "disabled (an endpoint then enters by its other ports)",
          true),
      int_key("metro", "failure_cycle", part, &M::failure_cycle, 0, 1ll << 31,
              "the clock metro.failed_routers and metro.failed_ports die at (0: before the run); "
              "connections through "
              "them are lost and their sources time out and retry",
              true),
      bool_key("metro", "mask_failed", part, &M::mask_failed,
               "fault masking (section 5.1, scan): the ports wired to a dead router are disabled "
               "as it dies, so no router or endpoint chooses them; false leaves the fault for the "
               "sources' timeouts and retries to find")};
}

}  // namespace ls::metro
