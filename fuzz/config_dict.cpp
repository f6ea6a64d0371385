// The config_text target's libFuzzer dictionary, from the schema (make fuzz writes it to
// build-fuzz/config_text.dict): every section header, every key as `name = ` and
// `section.name = `, every enumerated string value quoted, and the booleans. Without it the
// fuzzer finds a key name only by mutating a seed's; most keys appear in no seed.
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "host/config/schema.hpp"

namespace {

// A dictionary entry: the token in double quotes, its quotes and backslashes escaped.
void entry(const std::string& token) {
  std::string out = "\"";
  for (char ch : token) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  std::printf("%s\"\n", out.c_str());
}

}  // namespace

int main() {
  std::set<std::string> sections;
  for (const ls::KeyInfo& k : ls::schema()) {
    sections.insert(k.section);
    entry(k.name + " = ");
    entry(k.key() + " = ");
    if (k.type != ls::ValueType::kString) continue;
    // An enumerated key's allowed values, "a, b, c"; a described one (a file name) has none.
    std::stringstream items(k.allowed);
    for (std::string item; std::getline(items, item, ',');) {
      const size_t a = item.find_first_not_of(' ');
      if (a != std::string::npos && item.find(' ', a) == std::string::npos)
        entry("\"" + item.substr(a) + "\"");
    }
  }
  for (const std::string& s : sections) entry("[" + s + "]");
  entry("true");
  entry("false");
  return 0;
}
