// Runs Percona Toolkit's pt-table-sync --print between the test pair (the independent oracle of the
// verify suites) and reads its statements back as (table, kind, key) findings.
#pragma once

#include <QString>
#include <QStringList>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace syncscope::test {

// One row pt-table-sync would change: "missing" (INSERT), "extra" (DELETE), "different" (UPDATE).
struct PtFinding {
    std::string table;  // db.table
    std::string kind;
    std::string key;  // "col=value, col=value" over the key columns given for the table
    auto operator<=>(const PtFinding&) const = default;
};

struct PtRun {
    int exitCode = -1;
    QString out;
    QString err;
    std::multiset<PtFinding> findings;
};

// `databases`: pt-table-sync's --databases; `keyColumns`: per "db.table" the key columns, in order
// (a table without an entry gets its key from every column pt wrote: keyless tables).
PtRun runPtTableSync(const QString& databases, const std::map<std::string, std::vector<std::string>>& keyColumns,
                     const QStringList& extraArguments = {});

// Parses pt-table-sync --print output (exposed for the parser's own checks).
std::multiset<PtFinding> parsePtStatements(const QString& output,
                                           const std::map<std::string, std::vector<std::string>>& keyColumns);

}  // namespace syncscope::test
