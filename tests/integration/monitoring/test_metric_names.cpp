// The shipped dashboard and alert rules against a running engine: `syncscope-cli run --listen` on the
// private pair replicates a row, /metrics is scraped, and every syncscope_* name that the Grafana
// dashboard or the Prometheus rules use is a family on the page (a renamed metric fails here).
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "engine/source/upstream_connection.h"
#include "tests/engine/control/prometheus_text_parser.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using namespace syncscope;

namespace {

constexpr int kHttpOk = 200;
constexpr int kStopTimeoutMs = 30000;

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Every syncscope_* name in a file (PromQL inside JSON or YAML).
std::set<std::string> metricNamesIn(const std::string& path) {
    const std::string text = readFile(path);
    std::set<std::string> names;
    const std::regex name("syncscope_[a-z_]+");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it) {
        names.insert(it->str());
    }
    return names;
}

}  // namespace

class MetricNamesTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QProcess run_;
    int port_ = 0;

    std::string scrape() {
        httplib::Client client("127.0.0.1", port_);
        auto answer = client.Get("/metrics");
        return answer && answer->status == kHttpOk ? answer->body : std::string();
    }

private slots:
    void initTestCase() {
        source::UpstreamConnection up(test::engineSettings(test::upstreamRoot()));
        up.execute("DROP DATABASE IF EXISTS mon_names");
        auto row = up.query("SHOW MASTER STATUS").front();
        test::TaskFileOptions options;
        options.name = "mon-names";
        options.binlogName = row[0].value_or("");
        options.binlogPos = std::stoull(row[1].value_or("4"));
        options.topLevelExtra = "block-allow-list:\n  only:\n    do-dbs: [\"mon_names\"]\n";
        options.instanceExtra = "    block-allow-list: only\n";
        auto files = test::writeTaskFiles(dir_.path().toStdString(), options);
        port_ = test::freeLoopbackPort();
        run_.setProcessChannelMode(QProcess::ForwardedChannels);
        run_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                   {"run", QString::fromStdString(files.task), "--source", QString::fromStdString(files.source),
                    "--log-dir", dir_.filePath("logs"), "--listen", QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(run_.waitForStarted());
        QVERIFY(test::waitFor([&] { return scrape().find("syncscope_stage{") != std::string::npos; }));
        up.execute("CREATE DATABASE mon_names");
        up.execute("CREATE TABLE mon_names.orders (id INT PRIMARY KEY, qty INT)");
        up.execute("INSERT INTO mon_names.orders VALUES (1, 2)");
        QVERIFY(test::waitFor([&] {
            return scrape().find(
                       "syncscope_table_rows_applied_total{task=\"mon-names\",source_id=\"mysql-3306\","
                       "schema=\"mon_names\",table=\"orders\"} 1") != std::string::npos;
        }));
    }

    void cleanupTestCase() {
        if (run_.state() != QProcess::NotRunning) {
            run_.terminate();
            QVERIFY(run_.waitForFinished(kStopTimeoutMs));
        }
    }

    void everyNameTheDashboardAndRulesUseIsServed_data() {
        QTest::addColumn<QString>("file");
        QTest::addRow("Grafana dashboard") << QStringLiteral("syncscope-dashboard.json");
        QTest::addRow("Prometheus alert rules") << QStringLiteral("syncscope-alerts.yml");
    }

    void everyNameTheDashboardAndRulesUseIsServed() {
        QFETCH(QString, file);
        const std::string path = std::string(SYNCSCOPE_SOURCE_DIR "/resources/monitoring/") + file.toStdString();
        const std::set<std::string> used = metricNamesIn(path);
        QVERIFY2(used.size() > 5, path.c_str());
        test::PrometheusPage page = test::parsePrometheusText(scrape());
        QVERIFY2(page.error.empty(), page.error.c_str());
        for (const auto& name : used) {
            QVERIFY2(page.families.count(name) == 1,
                     (file.toStdString() + " uses " + name + ", which the engine's /metrics does not serve").c_str());
        }
    }
};

QTEST_GUILESS_MAIN(MetricNamesTest)
#include "test_metric_names.moc"
