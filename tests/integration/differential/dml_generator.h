// One random row statement against a table of the model: inserts (multi-row, IGNORE, upsert, REPLACE),
// updates (of values, of the primary key, of the unique key), deletes (by key, by range). Keyless
// tables are addressed with ORDER BY every column and LIMIT 1, so that the upstream's choice of row is
// the same on every replay of a seed.
#pragma once

#include <string>
#include <utility>

#include "tests/integration/differential/fuzz_features.h"
#include "tests/integration/differential/fuzz_random.h"
#include "tests/integration/differential/schema_model.h"

namespace syncscope::differential {

class DmlGenerator {
public:
    DmlGenerator(FuzzRandom& random, const FeatureSet& features) : random_(random), features_(features) {}

    // {label, sql}
    std::pair<std::string, std::string> any(const TableSpec& table);

private:
    std::string insert(const TableSpec& table, const std::string& verb, int rows, bool upsert);
    std::string updateValues(const TableSpec& table);
    std::string updateRange(const TableSpec& table);
    std::string moveKey(const TableSpec& table);
    std::string moveUnique(const TableSpec& table);
    std::string deleteOne(const TableSpec& table);
    std::string deleteRange(const TableSpec& table);
    std::string whereRow(const TableSpec& table);  // " WHERE ..." naming one row (LIMIT 1 when keyless)
    std::string orderAll(const TableSpec& table);

    FuzzRandom& random_;
    const FeatureSet& features_;
};

}  // namespace syncscope::differential
