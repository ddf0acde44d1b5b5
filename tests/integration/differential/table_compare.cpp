#include "tests/integration/differential/table_compare.h"

#include <algorithm>
#include <map>
#include <set>

namespace syncscope::differential {

namespace {

constexpr int kRowsNamed = 5;
constexpr const char* kMarkerTable = "_fuzz_marker";

std::set<std::string> tablesOf(SqlSession& server, const std::string& database, const std::set<std::string>& apart) {
    std::set<std::string> names;
    for (const auto& row :
         server.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + database + "'")) {
        if (apart.count(row[0].value_or("")) == 0) {
            names.insert(row[0].value_or(""));
        }
    }
    return names;
}

std::vector<std::string> columnsOf(SqlSession& server, const std::string& database, const std::string& table) {
    std::vector<std::string> names;
    for (const auto& row : server.query("SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE "
                                        "TABLE_SCHEMA = '" +
                                        database + "' AND TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION")) {
        names.push_back(row[0].value_or("") + " " + row[1].value_or(""));
    }
    return names;
}

std::string checksumOf(SqlSession& server, const std::string& database, const std::string& table) {
    try {
        auto rows = server.query("CHECKSUM TABLE `" + database + "`.`" + table + "`");
        return rows.empty() ? "none" : rows.front()[1].value_or("NULL");
    } catch (const SqlFailure& e) {
        return std::string("error: ") + e.what();
    }
}

std::string rowText(const SqlRow& row) {
    std::string text = "(";
    for (size_t i = 0; i < row.size(); ++i) {
        text += (i == 0 ? "" : ", ") + (row[i] ? "'" + *row[i] + "'" : std::string("NULL"));
    }
    return text + ")";
}

}  // namespace

std::map<std::string, int> rowMultiset(SqlSession& server, const std::string& selectSql) {
    std::map<std::string, int> rows;
    for (const auto& row : server.query(selectSql)) {
        ++rows[rowText(row)];
    }
    return rows;
}

std::string rowsOnlyIn(const std::map<std::string, int>& mine, const std::map<std::string, int>& other, int* count) {
    std::string text;
    int named = 0;
    *count = 0;
    for (const auto& [row, n] : mine) {
        auto it = other.find(row);
        int extra = n - (it == other.end() ? 0 : it->second);
        if (extra > 0) {
            *count += extra;
            if (named++ < kRowsNamed) {
                text += "\n      " + row + (extra > 1 ? " x" + std::to_string(extra) : "");
            }
        }
    }
    return text;
}

bool checksumsEqual(SqlSession& replica, SqlSession& downstream, const std::string& database,
                    const std::set<std::string>& apart) {
    auto names = tablesOf(replica, database, apart);
    if (names != tablesOf(downstream, database, apart)) {
        return false;
    }
    return std::all_of(names.begin(), names.end(), [&](const std::string& table) {
        return checksumOf(replica, database, table) == checksumOf(downstream, database, table);
    });
}

Divergences compareWithReplica(SqlSession& replica, SqlSession& downstream, const std::string& database,
                               const std::set<std::string>& apart) {
    Divergences found;
    auto replicaTables = tablesOf(replica, database, apart);
    auto downTables = tablesOf(downstream, database, apart);
    for (const auto& table : replicaTables) {
        if (downTables.count(table) == 0) {
            found.push_back({"table-missing", "table `" + table + "` exists on the replica, not downstream"});
        }
    }
    for (const auto& table : downTables) {
        if (replicaTables.count(table) == 0) {
            found.push_back({"table-extra", "table `" + table + "` exists downstream, not on the replica"});
        }
    }
    for (const auto& table : replicaTables) {
        if (downTables.count(table) == 0 || table == kMarkerTable) {
            continue;
        }
        auto replicaColumns = columnsOf(replica, database, table);
        auto downColumns = columnsOf(downstream, database, table);
        if (replicaColumns != downColumns) {
            std::string a, b;
            for (const auto& c : replicaColumns)
                a += c + "; ";
            for (const auto& c : downColumns)
                b += c + "; ";
            found.push_back({"columns-differ", "`" + table + "` replica columns: " + a + " downstream: " + b});
            continue;
        }
        if (checksumOf(replica, database, table) == checksumOf(downstream, database, table)) {
            continue;
        }
        const std::string all = "SELECT * FROM `" + database + "`.`" + table + "`";
        auto replicaRows = rowMultiset(replica, all);
        auto downRows = rowMultiset(downstream, all);
        int missing = 0;
        int extra = 0;
        std::string missingText = rowsOnlyIn(replicaRows, downRows, &missing);
        std::string extraText = rowsOnlyIn(downRows, replicaRows, &extra);
        if (missing == 0 && extra == 0) {
            continue;  // the same rows: CHECKSUM differs only in how a row is stored
        }
        std::string detail = "`" + table + "`: " + std::to_string(missing) +
                             " row(s) of the replica missing downstream" + missingText + "\n    " +
                             std::to_string(extra) + " row(s) downstream the replica has not" + extraText;
        found.push_back({"rows-differ", detail});
    }
    return found;
}

}  // namespace syncscope::differential
