// Passwords written into SQL are redacted wherever a statement is logged or shown, and nothing else is.
#include <QtTest>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "engine/common/redacting_sink.h"
#include "engine/common/secret_redaction.h"

using namespace syncscope;

class SecretRedactionTest : public QObject {
    Q_OBJECT

private slots:
    void secretsAreRedacted_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("expected");
        QTest::addRow("alter user") << "ALTER USER 'repl'@'%' IDENTIFIED BY 'S3cr3t!'"
                                    << "ALTER USER 'repl'@'%' IDENTIFIED BY '<redacted>'";
        QTest::addRow("create user, two users, lower case")
            << "create user a@localhost identified by 'one', `b`@'%' identified by \"two\""
            << "create user a@localhost identified by '<redacted>', `b`@'%' identified by '<redacted>'";
        QTest::addRow("hash") << "CREATE USER u IDENTIFIED BY PASSWORD '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'"
                              << "CREATE USER u IDENTIFIED BY PASSWORD '<redacted>'";
        QTest::addRow("plugin as") << "ALTER USER u IDENTIFIED WITH mysql_native_password AS '*94BD'"
                                   << "ALTER USER u IDENTIFIED WITH mysql_native_password AS '<redacted>'";
        QTest::addRow("plugin via using password()")
            << "ALTER USER u IDENTIFIED VIA ed25519 USING PASSWORD('pw')"
            << "ALTER USER u IDENTIFIED VIA ed25519 USING PASSWORD('<redacted>')";
        QTest::addRow("set password for") << "SET PASSWORD FOR 'u'@'h' = PASSWORD('pw')"
                                          << "SET PASSWORD FOR 'u'@'h' = PASSWORD('<redacted>')";
        QTest::addRow("set password as mariadb logs it")
            << "ignored DDL at f:2006 (accounts): SET PASSWORD FOR 'u'@'127.0.0.1'='*3DF193C74FDC96739520E62A4D910D'"
            << "ignored DDL at f:2006 (accounts): SET PASSWORD FOR 'u'@'127.0.0.1'='<redacted>'";
        QTest::addRow("set password") << "SET PASSWORD = 'pw'"
                                      << "SET PASSWORD = '<redacted>'";
        QTest::addRow("grant") << "GRANT SELECT ON db.* TO 'u'@'%' IDENTIFIED BY 'pw' WITH GRANT OPTION"
                               << "GRANT SELECT ON db.* TO 'u'@'%' IDENTIFIED BY '<redacted>' WITH GRANT OPTION";
        QTest::addRow("change master")
            << "CHANGE MASTER TO MASTER_HOST='10.0.0.1', MASTER_USER='repl', MASTER_PASSWORD='pw', MASTER_PORT=3306"
            << "CHANGE MASTER TO MASTER_HOST='10.0.0.1', MASTER_USER='repl', MASTER_PASSWORD='<redacted>', "
               "MASTER_PORT=3306";
        QTest::addRow("change replication source") << "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = 'pw'"
                                                   << "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = '<redacted>'";
        QTest::addRow("create server") << "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD 'pw')"
                                       << "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD "
                                          "'<redacted>')";
        QTest::addRow("after a hash sign in prose") << "DDL (#3 of 4): ALTER USER u IDENTIFIED BY 'pw'"
                                                    << "DDL (#3 of 4): ALTER USER u IDENTIFIED BY '<redacted>'";
        QTest::addRow("escaped quote inside") << "ALTER USER u IDENTIFIED BY 'it''s \\' secret'"
                                              << "ALTER USER u IDENTIFIED BY '<redacted>'";
        QTest::addRow("in a log line") << "ignored DDL at mariadb-bin.000002:1234 (not a table's DDL): ALTER USER "
                                          "'repl'@'%' IDENTIFIED BY 'pw'"
                                       << "ignored DDL at mariadb-bin.000002:1234 (not a table's DDL): ALTER USER "
                                          "'repl'@'%' IDENTIFIED BY '<redacted>'";
    }
    void secretsAreRedacted() {
        QFETCH(QString, sql);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(redactSecrets(sql.toStdString())), expected);
    }

    void otherTextIsLeftAlone_data() {
        QTest::addColumn<QString>("sql");
        QTest::addRow("a literal with the word") << "INSERT INTO t VALUES ('my password is identified by x')";
        QTest::addRow("a column named password") << "ALTER TABLE users ADD COLUMN password_hash VARCHAR(64)";
        QTest::addRow("no keyword") << "ALTER TABLE t ADD INDEX (c)";
        QTest::addRow("user names stay") << "DROP USER 'repl'@'%'";
    }
    void otherTextIsLeftAlone() {
        QFETCH(QString, sql);
        QCOMPARE(QString::fromStdString(redactSecrets(sql.toStdString())), sql);
    }

    // Every sink behind the redacting one gets the redacted message, at its own level.
    void theLogSinkRedactsEveryMessage() {
        std::ostringstream written;
        auto logger = std::make_shared<spdlog::logger>("redaction-test",
                                                       std::make_shared<spdlog::sinks::ostream_sink_mt>(written));
        redactSecretsIn(*logger);
        logger->info("task t: ignored DDL at f:4 (not a table's DDL): ALTER USER 'u'@'%' IDENTIFIED BY 'S3cr3t!'");
        logger->info("plain line");
        logger->flush();
        std::string text = written.str();
        QVERIFY2(text.find("S3cr3t!") == std::string::npos, text.c_str());
        QVERIFY2(text.find("IDENTIFIED BY '<redacted>'") != std::string::npos, text.c_str());
        QVERIFY2(text.find("plain line") != std::string::npos, text.c_str());
    }
};

QTEST_GUILESS_MAIN(SecretRedactionTest)
#include "test_secret_redaction.moc"
