// The sources a DBA paused, remembered in a file across restarts (engine/multisource/paused_sources): a pause
// written at once is read back by the next process, a resume forgets it, a file that cannot be read refuses to
// start on a guess (naming the file), no file remembers nothing, and an unwritable folder is an error naming it.
#include <QtTest>

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "engine/common/error.h"
#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/paused_sources.h"

using syncscope::multisource::MultiSourceError;
using syncscope::multisource::PausedSources;

class PausedSourcesTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::string file(const char* name) const { return dir_.filePath(QString::fromUtf8(name)).toStdString(); }
    static std::string readAll(const std::string& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }

private slots:
    void aPauseIsReadBackByTheNextProcessAndAResumeForgetsIt() {
        const std::string path = file("shop-paused-sources.json");
        {
            PausedSources first(path);
            QVERIFY(!first.isPaused("mysql-eu"));
            first.remember("mysql-eu");
            first.remember("mysql-us");
            QVERIFY(first.pausedSince("mysql-eu").ends_with(" UTC"));
        }
        PausedSources restarted(path);
        QVERIFY(restarted.isPaused("mysql-eu"));
        QVERIFY(restarted.isPaused("mysql-us"));
        restarted.forget("mysql-us");
        PausedSources again(path);
        QVERIFY(again.isPaused("mysql-eu"));
        QVERIFY(!again.isPaused("mysql-us"));
        QVERIFY(!std::filesystem::exists(path + ".new"));  // written whole, then renamed over the old one
    }

    void theFileRecordsWhetherThePauseReachedTheDownstream() {
        // Without a table (a task run with no downstream memory), a pause is not in the downstream; an older file
        // without the flag, or one whose pause did reach the downstream, still pauses: the file is all there is.
        const std::string path = file("flag-paused-sources.json");
        {
            PausedSources first(path);
            first.remember("mysql-eu");
        }
        const std::string written = readAll(path);
        QVERIFY2(written.find("\"in_downstream\": false") != std::string::npos, written.c_str());
        std::ofstream(path)
            << R"({"paused": [{"source_id": "old", "since": "2026-12-01 10:00:00 UTC"},)"
            << R"( {"source_id": "copied", "since": "2026-12-01 11:00:00 UTC", "in_downstream": true}]})";
        PausedSources restarted(path);
        QVERIFY(restarted.isPaused("old"));
        QVERIFY(restarted.isPaused("copied"));
        QCOMPARE(restarted.pausedSince("old"), std::string("2026-12-01 10:00:00 UTC"));
        QCOMPARE(PausedSources::readWithoutWriting(path, nullptr).size(), size_t(2));
    }

    void noFileAndNoPathRememberNothing() {
        PausedSources missing(file("never-written.json"));
        QVERIFY(!missing.isPaused("mysql-eu"));
        PausedSources nowhere("");
        nowhere.remember("mysql-eu");  // kept in memory only
        QVERIFY(nowhere.isPaused("mysql-eu"));
    }

    void aFileThatCannotBeReadRefusesNamingIt_data() {
        QTest::addColumn<QString>("text");
        QTest::addRow("not JSON") << "paused: mysql-eu";
        QTest::addRow("no paused list") << "{\"sources\": []}";
        QTest::addRow("an entry without a source id") << "{\"paused\": [{\"since\": \"today\"}]}";
    }

    void aFileThatCannotBeReadRefusesNamingIt() {
        QFETCH(QString, text);
        const std::string path = file("broken.json");
        std::ofstream(path) << text.toStdString();
        try {
            PausedSources broken(path);
            QFAIL("a broken file was taken as none paused");
        } catch (const MultiSourceError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("nothing was started") != std::string::npos, e.what());
        }
    }

    void anUnwritableFolderIsAnErrorNamingTheFile() {
        const std::string blocker = file("not-a-folder");
        std::ofstream(blocker) << "a file where the folder should be";
        PausedSources paused(blocker + "/shop-paused-sources.json");
        try {
            paused.remember("mysql-eu");
            QFAIL("the pause was taken as remembered");
        } catch (const syncscope::Error& e) {
            QVERIFY2(std::string(e.what()).find("shop-paused-sources.json") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(PausedSourcesTest)
#include "test_paused_sources.moc"
