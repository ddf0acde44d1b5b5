// Pause, resume and stop through the control API while a snapshot load copies chunks (the GUI's buttons
// send the same commands to the same Task). A pause or a stop rolls back the chunks in flight and
// copies nothing more while it holds; resume, or a new run after a stop, copies only the chunks not
// yet committed. "Only" is shown by a marker: a row of a committed chunk changed downstream while the
// load is held keeps its change to the end (a chunk copied again would have put the upstream's row
// back: on-duplicate-logical is replace, DM's default), and then equal checksums once the marker is
// put back.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;

namespace {

constexpr int kRows = 40000;
constexpr int kChunkRows = 400;  // about 200 chunks: a pause lands while most are still pending
constexpr int kThreads = 2;
constexpr double kShareDoneBeforeCommand = 0.1;
constexpr int kHttpOk = 200;
constexpr int kRunTimeoutMs = 120000;
constexpr int kLoadTimeoutMs = 90000;
// How long a paused or stopped load is watched for rows that should not move.
constexpr std::chrono::milliseconds kQuietWatch{1500};

UpstreamConnection connectAsRoot(const syncscope::test::ServerSettings& settings) {
    return UpstreamConnection(syncscope::test::engineSettings(settings));
}

uint64_t number(UpstreamConnection& server, const std::string& sql) {
    return std::stoull(server.queryValue(sql).value_or("0"));
}

// A binary value no row of the data set has.
constexpr const char* kMarkerHex = "5A5A5A5A5A5A5A5A";

// A row changed downstream while the load is held: `where` finds it in both `upstream` and `target`.
struct MarkedRow {
    std::string upstream;
    std::string target;
    std::string column;
    std::string where;
};

// Marks the last row downstream of items_copy or pairs, whichever has rows: a committed chunk's row,
// since the chunks in flight were rolled back.
MarkedRow markCommittedRow(UpstreamConnection& down) {
    MarkedRow marked;
    if (auto id = down.queryValue("SELECT MAX(id) FROM loaddst.items_copy")) {
        marked = {"loadsrc.items", "loaddst.items_copy", "payload", "id = " + *id};
    } else {
        auto key = down.query("SELECT QUOTE(region), n FROM loaddst.pairs ORDER BY region DESC, n DESC LIMIT 1");
        if (key.empty()) {
            return {};
        }
        marked = {"loadsrc.pairs", "loaddst.pairs", "b", "region = " + *key.front()[0] + " AND n = " + *key.front()[1]};
    }
    down.execute("UPDATE " + marked.target + " SET " + marked.column + " = X'" + kMarkerHex + "' WHERE " +
                 marked.where);
    return marked;
}

bool markerKept(UpstreamConnection& down, const MarkedRow& marked) {
    return down.queryValue("SELECT HEX(" + marked.column + ") FROM " + marked.target + " WHERE " + marked.where) ==
           std::string(kMarkerHex);
}

void restoreMarkedRow(UpstreamConnection& up, UpstreamConnection& down, const MarkedRow& marked) {
    auto original =
        up.queryValue("SELECT HEX(" + marked.column + ") FROM " + marked.upstream + " WHERE " + marked.where);
    down.execute("UPDATE " + marked.target + " SET " + marked.column + " = " +
                 (original ? "X'" + *original + "'" : std::string("NULL")) + " WHERE " + marked.where);
}

uint64_t rowsDownstream(UpstreamConnection& down) {
    uint64_t rows = 0;
    for (const auto& [source, target] : syncscope::test::kLoadedTables) {
        rows += number(down, "SELECT COUNT(*) FROM " + target);
    }
    return rows;
}

class ControlledLoad {
public:
    explicit ControlledLoad(const std::string& name)
        : name_(name),
          files_(syncscope::test::writeTaskFiles(dir_.path().toStdString(),
                                                 syncscope::test::loadTaskOptions(name, "full"))),
          port_(syncscope::test::freeLoopbackPort()) {}

    void start(bool listen) {
        QStringList extra;
        if (listen) {
            extra << QStringLiteral("--listen") << QStringLiteral("127.0.0.1:%1").arg(port_);
        }
        syncscope::test::startRun(run_, files_, dir_.filePath(QStringLiteral("logs")), kChunkRows, kThreads, {}, extra);
    }

    QProcess& process() { return run_; }

    int post(const std::string& command) {
        httplib::Client client("127.0.0.1", port_);
        auto answer = client.Post(("/api/v1/" + command).c_str(), "", "application/json");
        return answer ? answer->status : 0;
    }

    json status() {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(5));
        auto answer = client.Get("/api/v1/status");
        return answer && answer->status == kHttpOk ? json::parse(answer->body, nullptr, false) : json();
    }

    std::string stage() {
        json s = status();
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }

    // Chunks done and planned, from the loader checkpoint.
    std::pair<uint64_t, uint64_t> chunks(UpstreamConnection& down) const {
        try {
            auto row =
                down.query("SELECT COALESCE(SUM(done), 0), COUNT(*) FROM dm_meta.`" + name_ + "_loader_checkpoint`")
                    .front();
            return {std::stoull(*row[0]), std::stoull(*row[1])};
        } catch (const std::exception&) {
            return {0, 0};
        }
    }

    uint64_t rowsOfDoneChunks(UpstreamConnection& down) const {
        return number(down,
                      "SELECT COALESCE(SUM(rows_done), 0) FROM dm_meta.`" + name_ + "_loader_checkpoint` WHERE done");
    }

    bool waitForShareDone(UpstreamConnection& down) {
        return syncscope::test::waitFor(
            [&] {
                auto [done, total] = chunks(down);
                return total > 0 && done >= kShareDoneBeforeCommand * static_cast<double>(total);
            },
            kLoadTimeoutMs);
    }

    void terminate() {
        if (run_.state() != QProcess::NotRunning) {
            run_.terminate();  // SIGTERM: a graceful stop
            if (!run_.waitForFinished(kRunTimeoutMs)) {
                run_.kill();
                run_.waitForFinished();
            }
        }
    }

    ~ControlledLoad() {
        if (run_.state() != QProcess::NotRunning) {
            run_.kill();
            run_.waitForFinished();
        }
    }

private:
    std::string name_;
    QTemporaryDir dir_;
    syncscope::test::TaskFiles files_;
    int port_;
    QProcess run_;
};

}  // namespace

class LoadControlTest : public QObject {
    Q_OBJECT

private slots:
    void pauseRollsBackChunksInFlightAndResumeCopiesOnlyTheRest() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        try {
            pauseThenResume(up, down);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }

    void pauseThenResume(UpstreamConnection& up, UpstreamConnection& down) {
        syncscope::test::createLoadSource(up, down, kRows);
        ControlledLoad load("load-pause");
        load.start(true);
        QVERIFY(load.waitForShareDone(down));

        QCOMPARE(load.post("pause"), kHttpOk);
        QVERIFY2(syncscope::test::waitFor([&] { return load.stage() == "Paused"; }), load.status().dump(2).c_str());
        json paused = load.status();
        QCOMPARE(paused["load"].value("unit", std::string()), std::string("Load"));
        QVERIFY2(!paused["load"].value("finished", true), paused.dump(2).c_str());
        // Rolled back: the downstream holds exactly the rows of the committed chunks, and nothing moves.
        auto [doneAtPause, total] = load.chunks(down);
        QVERIFY2(doneAtPause < total, "the load finished before the pause landed");
        uint64_t committedRows = load.rowsOfDoneChunks(down);
        QCOMPARE(rowsDownstream(down), committedRows);
        std::this_thread::sleep_for(kQuietWatch);
        QCOMPARE(load.chunks(down).first, doneAtPause);
        QCOMPARE(rowsDownstream(down), committedRows);
        MarkedRow marked = markCommittedRow(down);
        QVERIFY2(!marked.target.empty(), "no committed row of a keyed table to mark");

        QCOMPARE(load.post("resume"), kHttpOk);
        // task-mode full: the process ends with the load.
        QVERIFY(load.process().waitForFinished(kRunTimeoutMs));
        QVERIFY2(load.process().exitCode() == 0, load.process().readAllStandardError().right(3000).constData());
        auto [doneAtEnd, totalAtEnd] = load.chunks(down);
        QCOMPARE(doneAtEnd, totalAtEnd);
        // Only the chunks pending at the pause were copied after it, each once.
        QVERIFY(markerKept(down, marked));
        restoreMarkedRow(up, down, marked);
        QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
    }

    void stopThenANewRunCopiesOnlyTheChunksNotCommitted() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        syncscope::test::createLoadSource(up, down, kRows);
        ControlledLoad load("load-stop");
        load.start(true);
        QVERIFY(load.waitForShareDone(down));

        QCOMPARE(load.post("stop"), kHttpOk);
        // task-mode full: a stopped task ends the process (exit 0), as a finished load does.
        QVERIFY(load.process().waitForFinished(kRunTimeoutMs));
        QVERIFY2(load.process().exitCode() == 0, load.process().readAllStandardError().right(3000).constData());
        auto [doneAtStop, total] = load.chunks(down);
        QVERIFY2(doneAtStop < total, "the load finished before the stop landed");
        uint64_t committedRows = load.rowsOfDoneChunks(down);
        // The chunks in flight were rolled back: the downstream holds exactly the committed chunks' rows.
        QCOMPARE(rowsDownstream(down), committedRows);
        MarkedRow marked = markCommittedRow(down);
        QVERIFY2(!marked.target.empty(), "no committed row of a keyed table to mark");

        load.start(false);
        QVERIFY(load.process().waitForFinished(kRunTimeoutMs));
        QVERIFY2(load.process().exitCode() == 0, load.process().readAllStandardError().right(3000).constData());
        QCOMPARE(load.chunks(down).first, total);
        QVERIFY(markerKept(down, marked));
        restoreMarkedRow(up, down, marked);
        QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
    }
};

QTEST_GUILESS_MAIN(LoadControlTest)
#include "test_load_control.moc"
