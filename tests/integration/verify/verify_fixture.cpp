#include "tests/integration/verify/verify_fixture.h"

#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

VerifyFixture::VerifyFixture()
    : upstream_(apply::connectDownstream(engineSettings(upstreamRoot()))),
      downstream_(apply::connectDownstream(engineSettings(downstreamRoot()))) {}

void VerifyFixture::run(sql::Connection& connection, const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    statement->execute(sql);
}

std::vector<std::vector<std::string>> VerifyFixture::downstreamRows(const std::string& sql) {
    std::unique_ptr<sql::Statement> statement(downstream_->createStatement());
    std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
    std::vector<std::vector<std::string>> rows;
    auto columns = result->getMetaData()->getColumnCount();
    while (result->next()) {
        std::vector<std::string> row;
        for (unsigned i = 1; i <= columns; ++i) {
            row.push_back(result->isNull(i) ? std::string("NULL") : std::string(result->getString(i)));
        }
        rows.push_back(row);
    }
    return rows;
}

void VerifyFixture::createEqualTables() {
    const std::string db = kDatabase;
    both("SET SESSION sql_log_bin = 0");  // the data set is made on each side, not replicated
    both("DROP DATABASE IF EXISTS " + db);
    both("CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
    both("USE " + db);  // the SEQUENCE engine's seq_1_to_N tables need a current database
    both("CREATE TABLE " + db +
         ".orders (id INT PRIMARY KEY, customer VARCHAR(40) NOT NULL, amount DECIMAL(12,2), note TEXT NULL, "
         "created DATETIME(6) NOT NULL)");
    both("INSERT INTO " + db +
         ".orders SELECT seq, CONCAT('customer ', seq % 97), seq * 1.25, IF(seq % 7 = 0, NULL, REPEAT('n', seq % 13)), "
         "'2024-01-01 00:00:00' + INTERVAL seq SECOND + INTERVAL seq MICROSECOND FROM seq_1_to_" +
         std::to_string(kOrders));
    both("CREATE TABLE " + db + ".people (code VARCHAR(32) PRIMARY KEY, name VARCHAR(60) NOT NULL, nick VARCHAR(20))");
    both("INSERT INTO " + db +
         ".people SELECT CONCAT('p', seq), CONCAT('name ', seq), IF(seq % 3 = 0, NULL, "
         "CONCAT('n', seq)) FROM seq_1_to_" +
         std::to_string(kPeople));
    both("INSERT INTO " + db +
         ".people VALUES ('it''s', 'quote', 'q'), ('naïve ☃', 'unicode', 'u'), "
         "('a b', 'space', NULL), ('back\\\\slash', 'backslash', 'b')");
    both("CREATE TABLE " + db +
         ".order_lines (order_id INT NOT NULL, line_no SMALLINT NOT NULL, sku VARBINARY(16) NOT NULL, qty INT, "
         "PRIMARY KEY (order_id, line_no))");
    both("INSERT INTO " + db +
         ".order_lines SELECT seq DIV 3, seq MOD 3, UNHEX(LEFT(MD5(seq), 32)), "
         "NULLIF(seq % 5, 0) FROM seq_0_to_" +
         std::to_string(kLines - 1));
    both("CREATE TABLE " + db + ".audit_trail (message VARCHAR(40), level INT)");
    both("INSERT INTO " + db + ".audit_trail VALUES ('a', 1), ('a', 1), ('a', 1), ('b', 2), ('b', 2), ('c', NULL)");
    both("INSERT INTO " + db + ".audit_trail SELECT CONCAT('m', seq), seq FROM seq_1_to_500");
    both("SET SESSION sql_log_bin = 1");
}

}  // namespace syncscope::test
