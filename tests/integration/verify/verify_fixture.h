// The data set of the verify suites, made identical on both servers of the test pair (MariaDB's
// SEQUENCE engine writes it server-side, so it loads in a second), and the SQL connections to change
// one side: an integer key with DECIMAL, TEXT with NULLs and DATETIME(6); a text key with awkward
// values; a composite key with VARBINARY; a table without a key holding duplicate rows.
#pragma once

#include <cppconn/connection.h>

#include <memory>
#include <string>
#include <vector>

namespace syncscope::test {

class VerifyFixture {
public:
    static constexpr const char* kDatabase = "verify_it";
    static constexpr int kOrders = 20000;
    static constexpr int kPeople = 5000;
    static constexpr int kLines = 12000;

    VerifyFixture();

    void upstream(const std::string& sql) { run(*upstream_, sql); }
    void downstream(const std::string& sql) { run(*downstream_, sql); }
    void both(const std::string& sql) {
        upstream(sql);
        downstream(sql);
    }
    std::vector<std::vector<std::string>> downstreamRows(const std::string& sql);

    // Drops and creates kDatabase with the same rows on both sides.
    void createEqualTables();

private:
    static void run(sql::Connection& connection, const std::string& sql);
    std::unique_ptr<sql::Connection> upstream_;
    std::unique_ptr<sql::Connection> downstream_;
};

}  // namespace syncscope::test
