// Finding a place by time or checking a boundary reads event headers only (LocalHeaderStream,
// BoundaryEventDecoder): on real binlogs of other projects, the header stream sees the same events at the
// same places with the same transaction boundaries as the full decoder, a time resolves to the transaction
// a full scan finds, and a truncated or foreign file is refused naming where.
#include <QtTest>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>

#include "engine/browse/local_binlog_history.h"
#include "engine/browse/point_resolver.h"
#include "engine/browse/transaction_boundaries.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using Step = browse::TransactionBoundaries::Step;

namespace {

std::filesystem::path fixture(const std::string& name) {
    return std::filesystem::path(test::fixturesDir()) / name;
}

std::vector<std::filesystem::path> zaloraFiles() {
    std::vector<std::filesystem::path> files;
    for (const char* name : {"mysql-bin.01", "mysql-bin.02", "mysql-bin.03", "mysql-bin.05", "mysql-bin.06"}) {
        files.push_back(fixture(std::string("zalora/") + name));
    }
    return files;
}

// One line per event: its place, header and transaction step, as both streams must see them.
struct SeenEvent {
    std::string file;
    uint64_t pos = 0;
    uint64_t endPos = 0;
    binlog::EventType type = binlog::EventType::Unknown;
    uint32_t timestamp = 0;
    Step step = Step::Outside;
    bool operator==(const SeenEvent&) const = default;
};

std::vector<SeenEvent> walk(browse::EventStream& stream) {
    std::vector<SeenEvent> seen;
    browse::TransactionBoundaries boundaries;
    std::vector<binlog::Event> events;
    while (stream.next(events)) {
        for (const auto& event : events) {
            seen.push_back({std::string(event.file), event.pos, event.endPos, event.type(), event.header.timestamp,
                            boundaries.step(event)});
        }
    }
    return seen;
}

// The first transaction at or after `time` by decoding every event of every file.
std::optional<browse::BrowsePoint> firstTransactionByFullScan(browse::LocalBinlogHistory& history, uint32_t time) {
    auto stream = history.openAt({history.files().front().file, 4});
    browse::TransactionBoundaries boundaries;
    std::vector<binlog::Event> events;
    while (stream->next(events)) {
        for (const auto& event : events) {
            Step step = boundaries.step(event);
            if ((step == Step::Starts || step == Step::StartsAndEnds) && event.header.timestamp >= time) {
                return browse::BrowsePoint{std::string(event.file), event.pos};
            }
        }
    }
    return std::nullopt;
}

QString errorOfWalk(const std::filesystem::path& file) {
    try {
        browse::LocalBinlogHistory history({file});
        auto stream = history.openHeadersAt({file.filename().string(), 4});
        walk(*stream);
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class HeaderScanTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (test::fixturesDir().empty()) {
            QSKIP("../shared/fixtures/binlog is not present: nothing to read");
        }
        qputenv("TZ", "UTC");
        tzset();
    }

    void headersAloneGiveTheSameEventsAndBoundariesAsFullDecoding_data() {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<qulonglong>("startOffset");
        QTest::addRow("MySQL 5.6, five files, CRC32")
            << QStringList{"zalora/mysql-bin.01", "zalora/mysql-bin.02", "zalora/mysql-bin.03", "zalora/mysql-bin.05",
                           "zalora/mysql-bin.06"}
            << qulonglong{4};
        QTest::addRow("MySQL 5.6, from a transaction in the middle of a file")
            << QStringList{"zalora/mysql-bin.03", "zalora/mysql-bin.05"} << qulonglong{354};
        QTest::addRow("MariaDB 10.0 with GTIDs") << QStringList{"zalora/mysql-bin.07"} << qulonglong{4};
        QTest::addRow("MySQL 5.7, anonymous GTIDs, CRC32")
            << QStringList{"shyiko/mysql-bin.checksum-crc32"} << qulonglong{4};
        QTest::addRow("MySQL 5.7 without checksums") << QStringList{"shyiko/mysql-bin.checksum-none"} << qulonglong{4};
    }

    void headersAloneGiveTheSameEventsAndBoundariesAsFullDecoding() {
        QFETCH(QStringList, files);
        QFETCH(qulonglong, startOffset);
        std::vector<std::filesystem::path> paths;
        for (const auto& name : files) {
            paths.push_back(fixture(name.toStdString()));
        }
        browse::LocalBinlogHistory history(paths);
        browse::BrowsePoint start{paths.front().filename().string(), startOffset};
        auto full = walk(*history.openAt(start));
        auto headers = walk(*history.openHeadersAt(start));
        QVERIFY(full.size() > 2);
        QCOMPARE(headers.size(), full.size());
        for (size_t i = 0; i < full.size(); ++i) {
            QVERIFY2(
                headers[i] == full[i],
                qPrintable(
                    QString("event %1 at %2:%3").arg(i).arg(QString::fromStdString(full[i].file)).arg(full[i].pos)));
        }
    }

    // Every transaction's time, a second before and after it: the binary search over the files' begin
    // times and the header scan find what decoding every event of every file finds.
    void aTimeResolvesToTheTransactionAFullScanFinds() {
        browse::LocalBinlogHistory history(zaloraFiles());
        auto all = walk(*history.openAt({"mysql-bin.01", 4}));
        std::vector<uint32_t> times;
        for (const auto& event : all) {
            if (event.step == Step::Starts || event.step == Step::StartsAndEnds) {
                times.insert(times.end(), {event.timestamp - 1, event.timestamp, event.timestamp + 1});
            }
        }
        QVERIFY(times.size() > 30);
        uint32_t oldestBegin = all.front().timestamp;
        size_t compared = 0;
        for (uint32_t time : times) {
            auto expected = firstTransactionByFullScan(history, time);
            if (time < oldestBegin || !expected) {
                continue;  // refused, tested in test_event_browser_fixtures
            }
            auto found = browse::PointResolver(history).firstTransactionAtOrAfter(time);
            QVERIFY2(found.start == *expected, qPrintable(QString("%1: %2, a full scan: %3")
                                                              .arg(time)
                                                              .arg(QString::fromStdString(found.start.toString()))
                                                              .arg(QString::fromStdString(expected->toString()))));
            ++compared;
        }
        QVERIFY(compared > 30);
    }

    void aFileThatIsNoBinlogOrEndsInsideAnEventIsRefusedNamingWhere_data() {
        QTest::addColumn<qulonglong>("keepBytes");
        QTest::addColumn<QString>("message");
        QTest::addRow("magic bytes missing") << qulonglong{0} << "mysql-bin.01:0: not a binlog file";
        QTest::addRow("ends inside a header")
            << qulonglong{130} << "mysql-bin.01:120: the file ends inside an event's header";
        QTest::addRow("ends inside an event body")
            << qulonglong{250} << "mysql-bin.01:197: the file ends inside an event of";
    }

    void aFileThatIsNoBinlogOrEndsInsideAnEventIsRefusedNamingWhere() {
        QFETCH(qulonglong, keepBytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ifstream in(fixture("zalora/mysql-bin.01"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (keepBytes == 0) {
            bytes.replace(0, 4, "junk");
        } else {
            bytes.resize(keepBytes);
        }
        auto path = std::filesystem::path(dir.path().toStdString()) / "mysql-bin.01";
        std::ofstream(path, std::ios::binary) << bytes;
        QString error = errorOfWalk(path);
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(HeaderScanTest)
#include "test_header_scan.moc"
