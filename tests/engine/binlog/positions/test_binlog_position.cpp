// Binlog positions parse and print round-trip, order by the file's numeric suffix then the offset,
// and refuse file names without a numeric suffix with a message that quotes the text.
#include <QtTest>

#include "engine/binlog/binlog_position.h"

using syncscope::binlog::BinlogPosition;
using syncscope::binlog::PositionError;

class BinlogPositionTest : public QObject {
    Q_OBJECT

private slots:
    void parsePrintsBackTheSameText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("offset");
        QTest::addColumn<qulonglong>("fileNumber");
        QTest::addRow("mysql") << "mysql-bin.000003:1234"
                               << "mysql-bin.000003" << 1234ULL << 3ULL;
        QTest::addRow("mariadb") << "mariadb-bin.000123:4"
                                 << "mariadb-bin.000123" << 4ULL << 123ULL;
        QTest::addRow("dots in base name") << "host.example.bin.000010:0"
                                           << "host.example.bin.000010" << 0ULL << 10ULL;
        QTest::addRow("beyond 4 GiB") << "binlog.1000000:8589934592"
                                      << "binlog.1000000" << 8589934592ULL << 1000000ULL;
    }
    void parsePrintsBackTheSameText() {
        QFETCH(QString, text);
        QFETCH(QString, file);
        QFETCH(qulonglong, offset);
        QFETCH(qulonglong, fileNumber);
        auto position = BinlogPosition::parse(text.toStdString());
        QCOMPARE(QString::fromStdString(position.file()), file);
        QCOMPARE(position.offset(), offset);
        QCOMPARE(position.fileNumber(), fileNumber);
        QCOMPARE(QString::fromStdString(position.toString()), text);
        QCOMPARE(BinlogPosition::parse(position.toString()), position);
    }

    void badTextIsRefusedNamingIt_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no colon") << "mysql-bin.000003"
                                  << "has no ':'";
        QTest::addRow("no suffix") << "mysql-bin:4"
                                   << "no numeric suffix";
        QTest::addRow("letters in suffix") << "mysql-bin.00a3:4"
                                           << "no numeric suffix";
        QTest::addRow("empty suffix") << "mysql-bin.:4"
                                      << "no numeric suffix";
        QTest::addRow("no file") << ":4"
                                 << "no file name";
        QTest::addRow("negative offset") << "mysql-bin.000001:-4"
                                         << "not a whole number";
        QTest::addRow("offset with text") << "mysql-bin.000001:4x"
                                          << "not a whole number";
        QTest::addRow("empty offset") << "mysql-bin.000001:"
                                      << "not a whole number";
        QTest::addRow("offset overflow") << "mysql-bin.000001:99999999999999999999999"
                                         << "not a whole number";
        QTest::addRow("empty") << ""
                               << "has no ':'";
    }
    void badTextIsRefusedNamingIt() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            BinlogPosition::parse(text.toStdString());
            QFAIL("bad position was accepted");
        } catch (const PositionError& e) {
            QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(expected), qPrintable(message));
            QVERIFY2(message.contains("'" + text + "'"), qPrintable(message));
        }
    }

    void constructorRefusesFileWithoutNumericSuffix() {
        QVERIFY_THROWS_EXCEPTION(PositionError, BinlogPosition("relay-log", 4));
        QVERIFY(!BinlogPosition::isBinlogFileName("relay-log"));
        QVERIFY(BinlogPosition::isBinlogFileName("relay-log.000001"));
    }

    void orderFollowsFileNumberThenOffset_data() {
        QTest::addColumn<QString>("earlier");
        QTest::addColumn<QString>("later");
        QTest::addRow("same file") << "mysql-bin.000003:4"
                                   << "mysql-bin.000003:1234";
        QTest::addRow("next file, smaller offset") << "mysql-bin.000003:99999"
                                                   << "mysql-bin.000004:4";
        QTest::addRow("numeric, not text, order") << "mysql-bin.9:4"
                                                  << "mysql-bin.10:4";
        QTest::addRow("suffix grows past six digits") << "mysql-bin.999999:500"
                                                      << "mysql-bin.1000000:4";
    }
    void orderFollowsFileNumberThenOffset() {
        QFETCH(QString, earlier);
        QFETCH(QString, later);
        auto a = BinlogPosition::parse(earlier.toStdString());
        auto b = BinlogPosition::parse(later.toStdString());
        QVERIFY(a < b);
        QVERIFY(b > a);
        QVERIFY(a != b);
    }

    void emptyPositionSortsFirstAndPrintsEmpty() {
        BinlogPosition empty;
        QVERIFY(empty.isEmpty());
        QCOMPARE(empty.toString(), std::string());
        QVERIFY(empty < BinlogPosition::parse("mysql-bin.000001:4"));
        QVERIFY(empty == BinlogPosition());
    }

    void sameNumberDifferentSpellingIsATotalOrder() {
        auto a = BinlogPosition::parse("mysql-bin.3:4");
        auto b = BinlogPosition::parse("mysql-bin.000003:4");
        QVERIFY(a != b);
        QVERIFY((a < b) != (b < a));
    }

    void baseNameIsTheNameBeforeTheSuffix() {
        QCOMPARE(BinlogPosition::parse("mysql-bin.000003:4").baseName(), std::string_view("mysql-bin"));
    }
};

QTEST_GUILESS_MAIN(BinlogPositionTest)
#include "test_binlog_position.moc"
