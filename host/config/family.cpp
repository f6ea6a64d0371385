#include "family.hpp"

#include <stdexcept>

namespace ls {

#define LS_DECLARE(name, Section) \
  namespace name {                \
  const Family& family();         \
  }
LS_FAMILIES(LS_DECLARE)
#undef LS_DECLARE

const std::vector<const Family*>& families() {
#define LS_RECORD(name, Section) &name::family(),
  static const std::vector<const Family*> all = {LS_FAMILIES(LS_RECORD)};
#undef LS_RECORD
  return all;
}

const Family& family(const std::string& name) {
  for (const Family* f : families())
    if (f->name == name) return *f;
  throw std::logic_error("unknown router.family \"" + name + "\" after validate()");
}

std::string family_names(const std::function<bool(const Family&)>& has) {
  std::vector<std::string> names;
  for (const Family* f : families())
    if (has(*f)) names.push_back(f->name);
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

}  // namespace ls
