// The config_text target's libFuzzer dictionary, from the schema (make fuzz writes it to
// build-fuzz/config_text.dict): every section header, every key as `name = ` and
// `section.name = `, every enumerated string value quoted, and the booleans. Without it the
// fuzzer finds a key name only by mutating a seed's; most keys appear in no seed.
#include <cstdio>
#include <set>
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
    for (const std::string& choice : k.choices) entry("\"" + choice + "\"");
  }
  for (const std::string& s : sections) entry("[" + s + "]");
  entry("true");
  entry("false");
  return 0;
}
