// A DM task's checkpoint table on the test pair's downstream, in DM's shape and written as DM writes it
// (dm/syncer/checkpoint.go): task `shop`, source mysql-01 with its global point at mysql-bin.000012:40000
// and table shop.orders ahead of it (47990), shop.items behind it; source mysql-02 with one table. For the
// suites that read a DM cluster's checkpoint tables; they link the engine and mysqlcppconn.
#pragma once

#include <cppconn/connection.h>
#include <cppconn/statement.h>

#include <memory>
#include <string>

#include "engine/apply/downstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

inline syncscope::ServerSettings downstreamRootSettings() {
    return engineSettings(downstreamRoot());
}

inline void writeDmShopCheckpoints(const std::string& metaSchema) {
    auto downstream = apply::connectDownstream(downstreamRootSettings());
    auto execute = [&downstream](const std::string& sql) {
        std::unique_ptr<sql::Statement> statement(downstream->createStatement());
        statement->execute(sql);
    };
    execute("DROP SCHEMA IF EXISTS " + metaSchema);
    execute("CREATE SCHEMA " + metaSchema);
    execute("CREATE TABLE " + metaSchema +
            ".shop_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT NULL, "
            "cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128), binlog_pos INT UNSIGNED, binlog_gtid TEXT, "
            "exit_safe_binlog_name VARCHAR(128) DEFAULT '', exit_safe_binlog_pos INT UNSIGNED DEFAULT 0, "
            "exit_safe_binlog_gtid TEXT, table_info JSON NOT NULL, is_global BOOLEAN, create_time timestamp NOT "
            "NULL DEFAULT CURRENT_TIMESTAMP, update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE "
            "CURRENT_TIMESTAMP, UNIQUE KEY uk_id_schema_table (id, cp_schema, cp_table))");
    execute("INSERT INTO " + metaSchema +
            ".shop_syncer_checkpoint (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, "
            "exit_safe_binlog_name, exit_safe_binlog_pos, exit_safe_binlog_gtid, table_info, is_global) VALUES "
            "('mysql-01', '', '', 'mysql-bin.000012', 40000, '', 'mysql-bin.000012', 47990, '', 'null', 1), "
            "('mysql-01', 'shop', 'orders', 'mysql-bin.000012', 47990, '', '', 0, '', 'null', 0), "
            "('mysql-01', 'shop', 'items', 'mysql-bin.000012', 39000, '', '', 0, '', 'null', 0), "
            "('mysql-02', '', '', 'mysql-bin.000007', 9120, '', '', 0, '', 'null', 1), "
            "('mysql-02', 'shop', 'carts', 'mysql-bin.000007', 9000, '', '', 0, '', 'null', 0)");
}

inline void dropDmMetaSchema(const std::string& metaSchema) {
    auto downstream = apply::connectDownstream(downstreamRootSettings());
    std::unique_ptr<sql::Statement> statement(downstream->createStatement());
    statement->execute("DROP SCHEMA IF EXISTS " + metaSchema);
}

}  // namespace syncscope::test
