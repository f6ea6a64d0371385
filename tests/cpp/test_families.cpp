// The router families as the shared code sees them: one record each (host/config/family.hpp),
// listed once (host/families.hpp), from which the schema, the checks and the engines follow.
#include <set>

#include "helpers.hpp"
#include "host/config/family.hpp"
#include "host/engine/engine.hpp"

using namespace ls;

namespace {

std::string error_of(const Config& c) {
  try {
    validate(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Families, RouterFamilyAllowsExactlyTheListedFamiliesInTheirOrder) {
  std::vector<std::string> names;
  for (const Family* f : families()) names.push_back(f->name);
  std::string allowed;
  for (const std::string& n : names) allowed += (allowed.empty() ? "" : ", ") + n;
  EXPECT_EQ(find_key("router", "family").allowed, allowed);
  EXPECT_EQ(find_key("router", "family").choices, names);
  EXPECT_EQ(Config().router.family, names.at(0));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(Families, EachFamilysKeysAreInItsSectionAndTheSchemaSaysWhoReadsThem) {
  std::set<std::string> sections;
  for (const Family* f : families()) {
    EXPECT_TRUE(sections.insert(f->section).second) << f->section << " is two families' section";
    EXPECT_FALSE(f->keys.empty()) << f->name;
    for (const KeyInfo& k : f->keys) {
      EXPECT_EQ(k.section, f->section) << k.key();
      EXPECT_EQ(find_key(k.section, k.name).family(), f->name) << k.key();
    }
    EXPECT_TRUE(f->cpu) << f->name;
    EXPECT_TRUE(f->validate) << f->name;
    EXPECT_TRUE(f->router_state_bytes) << f->name;
    EXPECT_GT(f->auto_cuda_routers, 0) << f->name;
  }
  // The shared sections' keys belong to no family; router.family is shared too.
  for (const KeyInfo& k : schema())
    if (k.section == "topology" || k.section == "traffic" || k.section == "run" ||
        k.key() == "router.family")
      EXPECT_EQ(k.family(), "") << k.key();
}

TEST(Families, NotesEndTheSharedKeysDocumentation) {
  for (const Family* f : families())
    for (const auto& [key, note] : f->notes) {
      const std::string doc =
          find_key(key.substr(0, key.find('.')), key.substr(key.find('.') + 1)).doc;
      EXPECT_NE(doc.find("; " + f->name + ": " + note), std::string::npos) << key << ": " << doc;
    }
}

// A family's own rules come before the vc router's VC rules, which concern keys only vc reads:
// a family that takes no request-reply traffic says so, not that router.vcs (a key it may not
// set) is too small for it.
TEST(Families, AFamilyRefusingRequestReplySaysSoItself) {
  Config sc = test::network("torus", {4, 4}, 0.1);
  sc.router.family = "sconnect";
  sc.traffic.request_reply = true;
  EXPECT_NE(error_of(sc).find("traffic.request_reply = true: allowed only false for router.family "
                              "= \"sconnect\""),
            std::string::npos)
      << error_of(sc);
  Config t3e = test::network("torus", {4, 4, 2}, 0.1);
  t3e.router.family = "t3e";
  t3e.traffic.request_reply = true;
  EXPECT_NE(error_of(t3e).find("allowed only their defaults for router.family = \"t3e\""),
            std::string::npos)
      << error_of(t3e);
  Config vc = test::network("torus", {4, 4}, 0.1);
  vc.traffic.request_reply = true;  // two VCs, one a class: no dateline pair
  EXPECT_NE(error_of(vc).find("router.vcs = 2: allowed for torus dimension-order routing"),
            std::string::npos)
      << error_of(vc);
}

// Features other families lack are refused naming the families that have them, from their
// records.
TEST(Families, FeaturesAreRefusedNamingTheFamiliesThatHaveThem) {
  Config vc = test::network("torus", {1, 4}, 0.1);
  EXPECT_NE(error_of(vc).find("(1 only for router.family = t3e)"), std::string::npos)
      << error_of(vc);
  Config line = test::network("torus", {4, 4}, 0.1);
  line.traffic.pattern = "linefill";
  EXPECT_NE(error_of(line).find("allowed only for router.family = \"bgl\""), std::string::npos)
      << error_of(line);
  Config fat = test::network("fat_tree", {4, 4}, 0.1);
  EXPECT_NE(error_of(fat).find("only for router.family = metro, here router.family = vc"),
            std::string::npos)
      << error_of(fat);
}
