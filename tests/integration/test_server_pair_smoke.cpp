// The private MariaDB pair is reachable through both connectors, and the upstream writes the binary
// log the engine needs; a wrong setting is reported by name with its fix.
#include <QtTest>

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "engine/source/upstream_connection.h"
#include "engine/source/upstream_settings_check.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

ServerSettings toSettings(const test::ServerSettings& s) {
    ServerSettings settings;
    settings.host = s.host;
    settings.port = s.port;
    settings.user = s.user;
    settings.password = s.password;
    return settings;
}

}  // namespace

class ServerPairSmokeTest : public QObject {
    Q_OBJECT

private slots:
    void upstreamConnectsWithConnectorCAndHasRowBinlogWithFullMetadata() {
        source::UpstreamConnection upstream(toSettings(test::upstreamReplication()));
        QCOMPARE(upstream.queryValue("SELECT @@server_id").value_or(""), std::string("1"));
        auto problems = source::checkUpstreamSettings(upstream);
        QVERIFY2(problems.empty(), source::describeSettingProblems(problems, "test upstream").c_str());
    }

    void downstreamConnectsWithConnectorCpp() {
        auto downstream = apply::connectDownstream(toSettings(test::downstreamRoot()));
        std::unique_ptr<sql::Statement> statement(downstream->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery("SELECT @@server_id"));
        QVERIFY(result->next());
        QCOMPARE(result->getInt(1), 2);
    }

    void settingsCheckNamesAWrongSettingAndItsFix() {
        source::UpstreamConnection root(toSettings(test::upstreamRoot()));
        root.execute("SET GLOBAL binlog_row_metadata = 'MINIMAL'");
        auto restore = qScopeGuard([&] { root.execute("SET GLOBAL binlog_row_metadata = 'FULL'"); });

        source::UpstreamConnection upstream(toSettings(test::upstreamReplication()));
        auto problems = source::checkUpstreamSettings(upstream);
        QCOMPARE(problems.size(), size_t(1));
        QCOMPARE(problems.front().setting, std::string("binlog_row_metadata"));
        QCOMPARE(problems.front().actual, std::string("MINIMAL"));
        std::string message = source::describeSettingProblems(problems, upstream.settings().describe());
        QVERIFY2(message.find("binlog_row_metadata is MINIMAL but must be FULL") != std::string::npos, message.c_str());
        QVERIFY2(message.find("SET GLOBAL binlog_row_metadata = 'FULL'") != std::string::npos, message.c_str());
    }

    void wrongPasswordIsAClearErrorWithoutThePassword() {
        auto settings = toSettings(test::upstreamReplication());
        settings.password = "not-the-password-4711";
        try {
            source::UpstreamConnection upstream(settings);
            QFAIL("connecting with a wrong password succeeded");
        } catch (const source::UpstreamError& e) {
            std::string message = e.what();
            QCOMPARE(e.code(), 1045u);
            QVERIFY2(message.find(settings.describe()) != std::string::npos, message.c_str());
            QVERIFY2(message.find("password") != std::string::npos, message.c_str());
            QVERIFY2(message.find("not-the-password-4711") == std::string::npos, message.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(ServerPairSmokeTest)
#include "test_server_pair_smoke.moc"
