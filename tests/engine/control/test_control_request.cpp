// Request bodies and listen addresses of the control API: a bad body or address is refused with what
// is wrong, before anything reaches the task.
#include <QtTest>

#include "engine/control/control_request.h"
#include "engine/control/listen_address.h"

using namespace syncscope;

class ControlRequestTest : public QObject {
    Q_OBJECT

private slots:
    void goodResumeFromBodiesGiveTheTarget_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("pos");
        QTest::addColumn<QString>("gtid");
        QTest::addRow("file and pos") << R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 1234})"
                                      << "mysql-bin.000003" << 1234ULL << "";
        QTest::addRow("mariadb gtid") << R"({"gtid": "0-1-5"})"
                                      << "" << 0ULL << "0-1-5";
        QTest::addRow("both") << R"({"binlog_name": "mysql-bin.000003", "binlog_pos": 4, "gtid": "0-1-5,1-2-3"})"
                              << "mysql-bin.000003" << 4ULL << "0-1-5,1-2-3";
    }

    void goodResumeFromBodiesGiveTheTarget() {
        QFETCH(QString, body);
        QFETCH(QString, file);
        QFETCH(qulonglong, pos);
        QFETCH(QString, gtid);
        control::ResumeFromRequest request = control::parseResumeFromBody(body.toStdString());
        QVERIFY2(request.target, request.problem.c_str());
        QCOMPARE(QString::fromStdString(request.target->file), file);
        QCOMPARE(request.target->pos, static_cast<uint64_t>(pos));
        QCOMPARE(QString::fromStdString(request.target->gtid), gtid);
    }

    void badResumeFromBodiesSayWhatIsWrong_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("empty") << ""
                               << "not JSON";
        QTest::addRow("not json") << "binlog_name=x"
                                  << "not JSON";
        QTest::addRow("array") << "[1]"
                               << "JSON object";
        QTest::addRow("empty object") << "{}"
                                      << "needs a binlog file";
        QTest::addRow("unknown key") << R"({"binlog_file": "mysql-bin.000001", "binlog_pos": 4})"
                                     << "binlog_file";
        QTest::addRow("name without pos") << R"({"binlog_name": "mysql-bin.000001"})"
                                          << "go together";
        QTest::addRow("pos as text") << R"({"binlog_name": "mysql-bin.000001", "binlog_pos": "4"})"
                                     << "binlog_pos";
        QTest::addRow("negative pos") << R"({"binlog_name": "mysql-bin.000001", "binlog_pos": -4})"
                                      << "binlog_pos";
        QTest::addRow("fractional pos") << R"({"binlog_name": "mysql-bin.000001", "binlog_pos": 4.5})"
                                        << "binlog_pos";
        QTest::addRow("pos before first event") << R"({"binlog_name": "mysql-bin.000001", "binlog_pos": 1})"
                                                << "before the first event";
        QTest::addRow("name without number") << R"({"binlog_name": "mysql-bin", "binlog_pos": 4})"
                                             << "binlog_name";
        QTest::addRow("gtid not text") << R"({"gtid": 5})"
                                       << "gtid";
        QTest::addRow("gtid blank") << R"({"gtid": "  "})"
                                    << "gtid";
        QTest::addRow("gtid garbage") << R"({"gtid": "not-a-gtid"})"
                                      << "not-a-gtid";
    }

    void badResumeFromBodiesSayWhatIsWrong() {
        QFETCH(QString, body);
        QFETCH(QString, mentions);
        control::ResumeFromRequest request = control::parseResumeFromBody(body.toStdString());
        QVERIFY(!request.target);
        QVERIFY2(QString::fromStdString(request.problem).contains(mentions), request.problem.c_str());
    }

    void commandsWithoutArgumentsTakeNoBodyOrAnEmptyObject_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<bool>("accepted");
        QTest::addRow("none") << "" << true;
        QTest::addRow("blank") << " \n" << true;
        QTest::addRow("empty object") << "{}" << true;
        QTest::addRow("object with keys") << R"({"force": true})" << false;
        QTest::addRow("garbage") << "pause!" << false;
        QTest::addRow("array") << "[]" << false;
    }

    void commandsWithoutArgumentsTakeNoBodyOrAnEmptyObject() {
        QFETCH(QString, body);
        QFETCH(bool, accepted);
        QCOMPARE(control::problemWithEmptyBody(body.toStdString()).empty(), accepted);
    }

    void listenAddresses_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("loopback");
        QTest::addRow("ipv4 loopback") << "127.0.0.1:8261"
                                       << "127.0.0.1" << 8261 << true;
        QTest::addRow("other 127 address") << "127.0.0.2:80"
                                           << "127.0.0.2" << 80 << true;
        QTest::addRow("localhost") << "localhost:1"
                                   << "localhost" << 1 << true;
        QTest::addRow("ipv6 loopback") << "[::1]:8261"
                                       << "::1" << 8261 << true;
        QTest::addRow("any address") << "0.0.0.0:8261"
                                     << "0.0.0.0" << 8261 << false;
        QTest::addRow("lan address") << "10.1.2.3:8261"
                                     << "10.1.2.3" << 8261 << false;
        QTest::addRow("host name that looks like loopback") << "127.example.com:80"
                                                            << "127.example.com" << 80 << false;
        QTest::addRow("any free port") << "127.0.0.1:0"
                                       << "127.0.0.1" << 0 << true;
    }

    void listenAddresses() {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, loopback);
        control::ListenAddress address = control::ListenAddress::parse(text.toStdString());
        QCOMPARE(QString::fromStdString(address.host), host);
        QCOMPARE(address.port, port);
        QCOMPARE(address.isLoopback(), loopback);
    }

    void badListenAddresses_data() {
        QTest::addColumn<QString>("text");
        QTest::addRow("no port") << "127.0.0.1";
        QTest::addRow("empty port") << "127.0.0.1:";
        QTest::addRow("port too big") << "127.0.0.1:65536";
        QTest::addRow("port not a number") << "127.0.0.1:http";
        QTest::addRow("no host") << ":8261";
    }

    void badListenAddresses() {
        QFETCH(QString, text);
        try {
            control::ListenAddress::parse(text.toStdString());
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find(text.toStdString()) != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(ControlRequestTest)
#include "test_control_request.moc"
