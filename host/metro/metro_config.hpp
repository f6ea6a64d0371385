// METRO's configuration section, [metro].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ls {

// The METRO router (router.family = "metro"; seed 003, Table 1 and Table 2).
struct MetroConfig {
  int64_t hw = 0;                     // header words each router consumes
  int64_t dp = 1;                     // data pipestages inside a router
  int64_t vtd = 0;                    // pipeline stages on the wire out of each port (turn delay)
  std::vector<int64_t> port_vtd;      // (router, port, vtd) triples: a wire of its own length
  std::vector<int64_t> swallow;       // layers whose routers swallow the route word (hw = 0)
  int64_t width = 8;                  // w: bits per word (hw = 0: the route's words)
  std::string checksum = "weighted";  // the checksum's fold: weighted (c <- 3c + w) or sum
  std::string reclaim = "fast";       // a blocked connection: fast (BCB drop) or detailed
  std::string selection = "random";   // among free equivalent ports: random or first
  int64_t retry_delay = 0;            // cycles a source waits after a failed attempt
  std::string backoff = "fixed";      // fixed, exponential or random (back-off)
  int64_t backoff_limit = 10;         // doublings of retry_delay at most
  int64_t timeout = 100;         // clocks after its TURN a source waits for the acknowledgement
  int64_t reply_delay = 0;       // clocks of DATA-IDLE before a read's reply
  int64_t exchanges = 1;         // a read's request/reply exchanges on one connection
  double word_error_rate = 0;    // chance a data word is corrupted on each wire it crosses
  double header_error_rate = 0;  // the same for a route (header) word: one slice's bit flips
  int64_t cascade = 1;           // c: routers side by side in one logical router (width)
  std::vector<int64_t> failed_routers;  // dead routers (every port out of service)
  std::vector<int64_t> failed_ports;    // (router, port) pairs whose wires break
  std::vector<int64_t> noisy_ports;     // (router, port) pairs: the wires the error rates hit
  int64_t failure_cycle = 0;            // the clock they die at (0: before the run)
  bool mask_failed = true;  // the ports wired to a dead router are disabled too (scan masking)
};

}  // namespace ls
