// Which tables an online schema change tool works with, as DM names them (dm/syncer/online-ddl-tools):
// a shadow table is the tool's copy being altered (pt-osc's `_T_new`, gh-ost's `_T_gho`), a trash table
// is what the tool leaves or writes beside (`_T_old`, `_T_del`, gh-ost's changelog `_T_ghc`). Each rule
// is a regular expression over the table's name (never the schema) with exactly one capturing group:
// the real table's name. DM's v6 keys shadow-table-rules and trash-table-rules replace the defaults.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/filter/dm_regex.h"

namespace syncscope::filter {

enum class OnlineDdlRole {
    Real,    // an ordinary table
    Shadow,  // the tool's altered copy: its DDLs are recorded, its rows never applied
    Trash,   // the tool's leftovers and changelog: ignored
};

class OnlineDdlRules {
public:
    static constexpr const char* kDefaultShadowRule = "^_(.+)_(?:new|gho)$";
    static constexpr const char* kDefaultTrashRule = "^_(.+)_(?:ghc|del|old)$";

    // DM's defaults.
    OnlineDdlRules();
    // Rules as a task file gives them (anchored with ^ and $ where they lack them, as DM does); empty
    // lists take the defaults. Throws FilterError naming the rule when one does not compile or has not
    // exactly one capturing group.
    OnlineDdlRules(const std::vector<std::string>& shadowRules, const std::vector<std::string>& trashRules);

    OnlineDdlRole roleOf(std::string_view table) const;
    // The real table's name a shadow or trash table stands for; the name itself for a real table.
    std::string realNameOf(std::string_view table) const;
    // "pt-online-schema-change", "gh-ost" or "a custom tool", by the default names' suffixes.
    static std::string toolOf(std::string_view table);

    // DM's anchoring: "^" and "$" added where the rule lacks them.
    static std::string anchored(const std::string& rule);
    // What is wrong with a rule ("" when nothing): it does not compile, or has not exactly one group.
    static std::string problemWith(const std::string& rule);

    std::vector<std::string> shadowRules() const;
    std::vector<std::string> trashRules() const;

private:
    std::vector<DmRegex> shadow_;
    std::vector<DmRegex> trash_;
};

}  // namespace syncscope::filter
