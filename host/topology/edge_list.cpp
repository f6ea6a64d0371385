// The graph kind's links as the user lists them: topology.edges, a flat list of (a, b, delay)
// triples, or topology.edge_file, a text file with one "a b [delay]" per line, '#' starting a
// comment. Nodes are 0 .. the largest id; a link without a delay takes topology.link_delay.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "../config/schema.hpp"
#include "graph.hpp"

namespace ls {
namespace {

// A link's ids and delay are in range (the rest of the checks are build_graph's).
void add_link(LinkList& g, int64_t a, int64_t b, int64_t delay, uint32_t line) {
  if (a >= kMaxGraphNodes || b >= kMaxGraphNodes || a < 0 || b < 0)
    throw ConfigError(g.where(a, b, delay, line) + ": allowed node ids 0 to " +
                      std::to_string(kMaxGraphNodes - 1));
  if (delay < 1 || delay > 255)
    throw ConfigError(g.where(a, b, delay, line) + ": allowed a delay of 1 to 255 cycles");
  g.links.push_back(
      {static_cast<uint32_t>(a), static_cast<uint32_t>(b), static_cast<uint32_t>(delay), line});
}

bool parse_uint(const std::string& s, int64_t& x) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  x = std::stoll(s);
  return true;
}

void read_edge_file(const TopologyConfig& c, LinkList& g) {
  const std::string allowed =
      "allowed a readable text file, the path relative to the current directory";
  // A regular file only: a FIFO or a terminal would block the reader for ever, a device such as
  // /dev/zero would be read until memory runs out. (stat first: opening a FIFO blocks.)
  struct stat st {};
  if (stat(c.edge_file.c_str(), &st) != 0)
    throw ConfigError(g.source + ": cannot be read (" + std::strerror(errno) + "); " + allowed);
  if (!S_ISREG(st.st_mode))
    throw ConfigError(g.source + ": is no regular file (" +
                      (S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                                              : "a device or socket") +
                      "); " + allowed);
  std::ifstream in(c.edge_file);
  if (!in)
    throw ConfigError(g.source + ": cannot be read (" + std::strerror(errno) + "); " + allowed);
  std::string text;
  for (uint32_t line = 1; std::getline(in, text); ++line) {
    const std::string content = text.substr(0, text.find('#'));
    std::istringstream words(content);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    int64_t v[3] = {0, 0, c.link_delay};
    bool ok = w.size() <= 3 && w.size() >= 2;
    for (size_t i = 0; ok && i < w.size(); ++i) ok = parse_uint(w[i], v[i]);
    if (!ok)
      throw ConfigError(g.source + " line " + std::to_string(line) + " = " +
                        to_string(Value(text)) +
                        ": allowed \"a b [delay]\", non-negative integers, or a comment (#)");
    add_link(g, v[0], v[1], v[2], line);
  }
}

}  // namespace

LinkList listed_links(const TopologyConfig& c) {
  LinkList g;
  g.from_file = !c.edge_file.empty();
  g.source =
      g.from_file ? "topology.edge_file = " + to_string(Value(c.edge_file)) : "topology.edges";
  if (g.from_file && !c.edges.empty())
    throw ConfigError(g.source + ": allowed only with topology.edges = [] (one list of links)");
  if (g.from_file) {
    read_edge_file(c, g);
  } else {
    const std::vector<int64_t>& e = c.edges;
    if (e.size() % 3)
      throw ConfigError(
          "topology.edges = " +
          (e.size() <= 12 ? to_string(e) : "[" + std::to_string(e.size()) + " integers]") +
          ": allowed a flat list of (a, b, delay) triples, a length divisible by 3");
    for (size_t i = 0; i < e.size(); i += 3)
      add_link(g, e[i], e[i + 1], e[i + 2], static_cast<uint32_t>(i / 3 + 1));
  }
  if (g.links.empty())
    throw ConfigError(g.source + (g.from_file ? ": has no links" : " = []") +
                      ": allowed for topology.kind = \"graph\" at least one link (topology.edges "
                      "or topology.edge_file)");
  for (const Link& l : g.links) g.nodes = std::max(g.nodes, std::max(l.a, l.b) + 1);
  return g;
}

}  // namespace ls
