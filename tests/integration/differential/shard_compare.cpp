#include "tests/integration/differential/shard_compare.h"

#include "tests/integration/differential/table_compare.h"

namespace syncscope::differential {

namespace {

std::string joined(const std::vector<SqlRow>& rows) {
    std::string text;
    for (const auto& row : rows) {
        std::string line;
        for (const auto& field : row) {
            line += (line.empty() ? "" : " ") + field.value_or("NULL");
        }
        text += line + "; ";
    }
    return text;
}

std::string columnsOf(SqlSession& server, const std::string& database, const std::string& table) {
    return joined(server.query(
        "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, IFNULL(COLUMN_DEFAULT, 'NULL') FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA = '" +
        database + "' AND TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION"));
}

std::string indexesOf(SqlSession& server, const std::string& database, const std::string& table) {
    return joined(
        server.query("SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM "
                     "information_schema.STATISTICS WHERE TABLE_SCHEMA = '" +
                     database + "' AND TABLE_NAME = '" + table + "' ORDER BY INDEX_NAME, SEQ_IN_INDEX"));
}

}  // namespace

Divergences compareShardGroup(SqlSession& replica, SqlSession& downstream, const std::string& database,
                              const ShardGroup& group) {
    Divergences found;
    const std::string target = group.targetTable().name;
    const std::string targetColumns = columnsOf(downstream, database, target);
    if (targetColumns.empty()) {
        found.push_back({"shard-target-missing", "the merged table `" + target + "` does not exist downstream"});
        return found;
    }
    const std::string targetIndexes = indexesOf(downstream, database, target);
    std::string unionSql;
    for (const std::string& shard : group.shardNames()) {
        std::string columns = columnsOf(replica, database, shard);
        if (columns != targetColumns) {
            found.push_back({"shard-columns-differ",
                             "replica `" + shard + "`: " + columns + " downstream `" + target + "`: " + targetColumns});
        }
        std::string indexes = indexesOf(replica, database, shard);
        if (indexes != targetIndexes) {
            found.push_back({"shard-indexes-differ",
                             "replica `" + shard + "`: " + indexes + " downstream `" + target + "`: " + targetIndexes});
        }
        unionSql +=
            (unionSql.empty() ? "" : " UNION ALL ") + std::string("SELECT * FROM `") + database + "`.`" + shard + "`";
    }
    if (!found.empty()) {
        return found;  // rows of different shapes say nothing more
    }
    auto replicaRows = rowMultiset(replica, unionSql);
    auto downRows = rowMultiset(downstream, "SELECT * FROM `" + database + "`.`" + target + "`");
    int missing = 0;
    int extra = 0;
    std::string missingText = rowsOnlyIn(replicaRows, downRows, &missing);
    std::string extraText = rowsOnlyIn(downRows, replicaRows, &extra);
    if (missing != 0 || extra != 0) {
        found.push_back(
            {"shard-rows-differ", "`" + target + "` against the replica's shards: " + std::to_string(missing) +
                                      " row(s) of the shards missing downstream" + missingText + "\n    " +
                                      std::to_string(extra) + " row(s) downstream the shards have not" + extraText});
    }
    return found;
}

}  // namespace syncscope::differential
