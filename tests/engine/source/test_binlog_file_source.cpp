// The file source frames events exactly, follows rotations across a directory, stops cleanly at the
// end of a file still being written, and names the file and offset of bad input.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "engine/binlog/decode_error.h"
#include "engine/source/binlog_file_source.h"
#include "tests/engine/source/synthetic_binlog.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using source::BinlogFileSource;
using source::FileSourceOptions;
using test::SyntheticBinlog;
using Reason = BinlogFileSource::StopReason;

namespace {

struct Seen {
    std::string file;
    uint64_t pos;
    std::string bytes;
};

std::vector<Seen> readAll(BinlogFileSource& source) {
    std::vector<Seen> seen;
    while (auto event = source.next()) {
        seen.push_back({std::string(event->file), event->pos, std::string(event->bytes)});
    }
    return seen;
}

void appendBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

class BinlogFileSourceTest : public QObject {
    Q_OBJECT

    std::filesystem::path dir_;

    std::filesystem::path freshDir(const char* name) {
        auto dir = std::filesystem::path(test::outputDir("binlog_file_source")) / name;
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        return dir;
    }

private slots:
    void handsOutEveryEventWithItsExactBytesAndOffset() {
        auto dir = freshDir("plain");
        SyntheticBinlog log;
        log.addQuery("BEGIN");
        log.addQuery("INSERT INTO t VALUES (1)");
        log.addQuery("COMMIT");
        log.writeTo(dir / "bin.000001");

        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"});
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(4));
        auto starts = log.eventStarts();
        for (size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].file, std::string("bin.000001"));
            QCOMPARE(seen[i].pos, starts[i]);
            uint64_t end = i + 1 < starts.size() ? starts[i + 1] : log.bytes().size();
            QCOMPARE(seen[i].bytes, log.bytes().substr(starts[i], end - starts[i]));
        }
        QCOMPARE(source.stop().reason, Reason::Finished);
        QCOMPARE(source.stop().pos, uint64_t(log.bytes().size()));
        QVERIFY(source.currentFileHasChecksum());
    }

    void eventsLargerThanTheReadBufferAreFramedExactly() {
        auto dir = freshDir("small-buffer");
        SyntheticBinlog log;
        for (int i = 0; i < 50; ++i) {
            log.addQuery("INSERT INTO t VALUES ('" + std::string(static_cast<size_t>(i * 7), 'x') + "')");
        }
        log.writeTo(dir / "bin.000001");
        FileSourceOptions options;
        options.readBufferSize = 64;  // smaller than most events: forces growing and compacting
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"}, options);
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(51));
        QCOMPARE(seen.back().pos, log.eventStarts().back());
        QCOMPARE(seen.back().bytes, log.bytes().substr(log.eventStarts().back()));
    }

    void followsRotationsAcrossADirectoryAndWaitsAtTheEndOfTheLastFile() {
        auto dir = freshDir("rotation");
        SyntheticBinlog first, second, third;
        first.addQuery("CREATE TABLE a (id INT)");
        first.addRotate("bin.000002");
        second.addQuery("CREATE TABLE b (id INT)");
        second.addRotate("bin.000003");
        third.addQuery("CREATE TABLE c (id INT)");
        first.writeTo(dir / "bin.000001");
        second.writeTo(dir / "bin.000002");
        third.writeTo(dir / "bin.000003");

        auto source = BinlogFileSource::following(dir / "bin.000001");
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(8));
        QCOMPARE(seen[2].file, std::string("bin.000001"));  // the ROTATE itself
        QCOMPARE(seen[3].file, std::string("bin.000002"));
        QCOMPARE(seen[3].pos, uint64_t(4));
        QCOMPARE(seen[7].file, std::string("bin.000003"));
        QCOMPARE(source.stop().reason, Reason::CaughtUp);
        QCOMPARE(source.stop().file, std::string("bin.000003"));
        QCOMPARE(source.stop().pos, uint64_t(third.bytes().size()));

        // The server writes more: the same source picks it up.
        SyntheticBinlog more = third;
        uint64_t start = more.addQuery("CREATE TABLE d (id INT)");
        appendBytes(dir / "bin.000003", more.bytes().substr(start));
        auto event = source.next();
        QVERIFY(event.has_value());
        QCOMPARE(event->pos, start);
        QCOMPARE(std::string(event->file), std::string("bin.000003"));
    }

    void findsARotationTargetThroughTheIndexFile() {
        auto dir = freshDir("index");
        auto elsewhere = freshDir("index-elsewhere");
        SyntheticBinlog first, second;
        first.addRotate("bin.000002");
        second.addQuery("CREATE TABLE b (id INT)");
        first.writeTo(dir / "bin.000001");
        second.writeTo(elsewhere / "bin.000002");
        std::ofstream(dir / "bin.index") << (dir / "bin.000001").string() << '\n'
                                         << (elsewhere / "bin.000002").string() << '\n';
        auto source = BinlogFileSource::following(dir / "bin.000001");
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(4));
        QCOMPARE(seen[3].file, std::string("bin.000002"));
        QCOMPARE(source.stop().reason, Reason::CaughtUp);
    }

    void movesToTheNextNumberedFileAfterAServerRestartWithoutRotate() {
        auto dir = freshDir("restart");
        SyntheticBinlog first, second;
        first.addQuery("CREATE TABLE a (id INT)");
        second.addQuery("CREATE TABLE b (id INT)");
        first.writeTo(dir / "bin.000009");
        second.writeTo(dir / "bin.000010");
        auto source = BinlogFileSource::following(dir / "bin.000009");
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(4));
        QCOMPARE(seen[2].file, std::string("bin.000010"));
    }

    void aFileStillBeingWrittenEndsForNowAndContinuesWhenTheEventIsComplete() {
        auto dir = freshDir("growing");
        SyntheticBinlog log;
        log.addQuery("CREATE TABLE a (id INT)");
        uint64_t partial = log.addQuery("INSERT INTO a VALUES (1)");
        log.writePrefixTo(dir / "bin.000001", partial + 25);

        auto source = BinlogFileSource::following(dir / "bin.000001");
        QCOMPARE(readAll(source).size(), size_t(2));
        QCOMPARE(source.stop().reason, Reason::Incomplete);
        QCOMPARE(source.stop().pos, partial);
        QVERIFY2(source.stop().detail.find("25 of its") != std::string::npos, source.stop().detail.c_str());

        appendBytes(dir / "bin.000001", log.bytes().substr(partial + 25));
        auto event = source.next();
        QVERIFY(event.has_value());
        QCOMPARE(event->pos, partial);
        QCOMPARE(std::string(event->bytes), log.bytes().substr(partial));
    }

    void aTruncatedFileStopsWhereItsLastWholeEventEnds_data() {
        QTest::addColumn<int>("cut");  // bytes of the last event that are present
        QTest::addRow("inside the header") << 7;
        QTest::addRow("inside the body") << 30;
        QTest::addRow("without the checksum") << -4;
    }

    void aTruncatedFileStopsWhereItsLastWholeEventEnds() {
        QFETCH(int, cut);
        auto dir = freshDir("truncated");
        SyntheticBinlog log;
        uint64_t last = log.addQuery("INSERT INTO a VALUES (1)");
        size_t size = cut >= 0 ? last + static_cast<size_t>(cut) : log.bytes().size() - static_cast<size_t>(-cut);
        log.writePrefixTo(dir / "bin.000001", size);
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"});
        QCOMPARE(readAll(source).size(), size_t(1));
        QCOMPARE(source.stop().reason, Reason::Incomplete);
        QCOMPARE(source.stop().file, std::string("bin.000001"));
        QCOMPARE(source.stop().pos, last);
    }

    void aFileWithTheWrongMagicIsRefusedAtOffsetZero() {
        auto dir = freshDir("magic");
        std::ofstream(dir / "notes.txt") << "hello, this is not a binlog";
        auto source = BinlogFileSource::ofFiles({dir / "notes.txt"});
        try {
            source.next();
            QFAIL("a text file was read as a binlog");
        } catch (const binlog::DecodeError& e) {
            QCOMPARE(e.offset(), uint64_t(0));
            QVERIFY2(e.problem().find("not a binlog file") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("notes.txt:0: ") != std::string::npos, e.what());
        }
    }

    void anImpossibleEventSizeNamesTheOffset() {
        auto dir = freshDir("bad-size");
        SyntheticBinlog log;
        uint64_t bad = log.addQuery("COMMIT");
        std::string bytes = log.bytes();
        bytes[bad + 9] = 5;  // event size 5: smaller than the header
        bytes[bad + 10] = 0;
        std::ofstream(dir / "bin.000001", std::ios::binary) << bytes;
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"});
        QVERIFY(source.next().has_value());
        try {
            source.next();
            QFAIL("an event of 5 bytes was accepted");
        } catch (const binlog::DecodeError& e) {
            QCOMPARE(e.offset(), bad);
            QVERIFY2(e.problem().find("event size 5") != std::string::npos, e.what());
        }
    }

    void aMissingFileIsAnErrorNamingIt() {
        auto source = BinlogFileSource::ofFiles({"/nonexistent/bin.000001"});
        QVERIFY_THROWS_EXCEPTION(binlog::DecodeError, source.next());
    }

    void startPositionSkipsToThatEventAfterTheFormatDescription() {
        auto dir = freshDir("start");
        SyntheticBinlog log;
        log.addQuery("CREATE TABLE a (id INT)");
        uint64_t second = log.addQuery("CREATE TABLE b (id INT)");
        log.addQuery("CREATE TABLE c (id INT)");
        log.writeTo(dir / "bin.000001");
        FileSourceOptions options;
        options.startPosition = second;
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"}, options);
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(3));
        QCOMPARE(seen[0].pos, uint64_t(4));  // the FORMAT_DESCRIPTION
        QCOMPARE(seen[1].pos, second);
    }

    void aStartPositionInsideAnEventIsRefused() {
        auto dir = freshDir("start-inside");
        SyntheticBinlog log;
        uint64_t first = log.addQuery("CREATE TABLE a (id INT)");
        log.addQuery("CREATE TABLE b (id INT)");
        log.writeTo(dir / "bin.000001");
        FileSourceOptions options;
        options.startPosition = first + 3;
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"}, options);
        QVERIFY(source.next().has_value());
        try {
            source.next();
            QFAIL("a start position inside an event was accepted");
        } catch (const binlog::DecodeError& e) {
            QCOMPARE(e.offset(), first + 3);
            QVERIFY2(e.problem().find("no event starts at this offset") != std::string::npos, e.what());
        }
    }

    void stopPositionStopsBeforeTheFirstEventStartingAtOrAfterIt_data() {
        QTest::addColumn<int>("stopAfter");  // offset added to the start of the second query
        QTest::addColumn<int>("expected");   // events handed out
        QTest::addRow("at the event's start") << 0 << 2;
        QTest::addRow("one byte into the event") << 1 << 3;
        QTest::addRow("one byte before the event") << -1 << 2;
    }

    void stopPositionStopsBeforeTheFirstEventStartingAtOrAfterIt() {
        QFETCH(int, stopAfter);
        QFETCH(int, expected);
        auto dir = freshDir("stop");
        SyntheticBinlog log;
        log.addQuery("CREATE TABLE a (id INT)");
        uint64_t second = log.addQuery("CREATE TABLE b (id INT)");
        log.addQuery("CREATE TABLE c (id INT)");
        log.writeTo(dir / "bin.000001");
        FileSourceOptions options;
        options.stopPosition = static_cast<uint64_t>(static_cast<int64_t>(second) + stopAfter);
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001"}, options);
        QCOMPARE(readAll(source).size(), size_t(expected));
        QCOMPARE(source.stop().reason, Reason::StopPosition);
    }

    void anExplicitListIsReadInOrderWithoutFollowingRotations() {
        auto dir = freshDir("explicit");
        SyntheticBinlog first, other, skipped;
        first.addRotate("bin.000002");
        skipped.addQuery("CREATE TABLE skipped (id INT)");
        other.addQuery("CREATE TABLE other (id INT)");
        first.writeTo(dir / "bin.000001");
        skipped.writeTo(dir / "bin.000002");
        other.writeTo(dir / "bin.000007");
        FileSourceOptions options;
        options.stopPosition = 4 + 1;  // applies to the last file only: just its FORMAT_DESCRIPTION
        auto source = BinlogFileSource::ofFiles({dir / "bin.000001", dir / "bin.000007"}, options);
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(3));
        QCOMPARE(seen[2].file, std::string("bin.000007"));
        QCOMPARE(seen[2].pos, uint64_t(4));
        QCOMPARE(source.stop().reason, Reason::StopPosition);
    }

    void aFileWithoutChecksumsIsReadAsSuch() {
        auto dir = freshDir("no-checksum");
        SyntheticBinlog log(false);
        log.addRotate("bin.000002");
        SyntheticBinlog next(false);
        log.writeTo(dir / "bin.000001");
        next.writeTo(dir / "bin.000002");
        auto source = BinlogFileSource::following(dir / "bin.000001");
        auto seen = readAll(source);
        QCOMPARE(seen.size(), size_t(3));  // the rotate target was read without a checksum
        QVERIFY(!source.currentFileHasChecksum());
    }
};

QTEST_GUILESS_MAIN(BinlogFileSourceTest)
#include "test_binlog_file_source.moc"
