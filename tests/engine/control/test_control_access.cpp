// Who may do what on the control API, decided alone (ControlAccess, without a server): no tokens grant
// everything, the control token everything, the read-only token reading; a missing or wrong token nothing.
// Tokens that do not fit the listening address are refused with what is wrong, before anything binds.
#include <QtTest>

#include "engine/control/control_access.h"

using namespace syncscope::control;

namespace {

const std::string kControlToken = "control-token-0123456789";
const std::string kReadToken = "read-only-token-0123456789";

ControlServerOptions withTokens(const std::string& token, const std::string& readToken,
                                const std::string& host = "127.0.0.1") {
    ControlServerOptions options;
    options.host = host;
    options.token = token;
    options.readToken = readToken;
    return options;
}

std::string refusal(const ControlServerOptions& options) {
    try {
        ControlAccess access(options);
    } catch (const ControlServerError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class ControlAccessTest : public QObject {
    Q_OBJECT

private slots:
    void withoutTokensEveryoneControls() {
        ControlAccess access(withTokens("", ""));
        QVERIFY(!access.tokenRequired());
        QCOMPARE(access.levelOf(""), ControlAccess::Level::Control);
        QCOMPARE(access.levelOf("Bearer anything"), ControlAccess::Level::Control);
    }

    void eachTokenGrantsItsLevel() {
        ControlAccess access(withTokens(kControlToken, kReadToken));
        QVERIFY(access.tokenRequired());
        QCOMPARE(access.levelOf("Bearer " + kControlToken), ControlAccess::Level::Control);
        QCOMPARE(access.levelOf("Bearer " + kReadToken), ControlAccess::Level::Read);
        QCOMPARE(access.levelOf(""), ControlAccess::Level::None);
        QCOMPARE(access.levelOf(kControlToken), ControlAccess::Level::None);              // no "Bearer "
        QCOMPARE(access.levelOf("bearer " + kControlToken), ControlAccess::Level::None);  // the scheme's case
        QCOMPARE(access.levelOf("Bearer " + kControlToken + "x"), ControlAccess::Level::None);
        QCOMPARE(access.levelOf("Bearer " + kControlToken.substr(1)), ControlAccess::Level::None);
        QCOMPARE(access.levelOf("Bearer "), ControlAccess::Level::None);
    }

    void withoutAReadTokenOnlyTheControlTokenReads() {
        ControlAccess access(withTokens(kControlToken, ""));
        QCOMPARE(access.levelOf("Bearer " + kReadToken), ControlAccess::Level::None);
        QVERIFY(access.unauthorizedReason("GET").find("needs the control token") != std::string::npos);
    }

    void reasonsNameWhatIsNeeded() {
        ControlAccess access(withTokens(kControlToken, kReadToken));
        std::string reading = access.unauthorizedReason("GET");
        QVERIFY2(reading.find("read token or the control token") != std::string::npos, reading.c_str());
        std::string commanding = access.unauthorizedReason("POST");
        QVERIFY2(commanding.find("needs the control token") != std::string::npos, commanding.c_str());
        std::string forbidden = ControlAccess::forbiddenReason("POST", "/api/v1/pause");
        QVERIFY2(forbidden.find("POST /api/v1/pause needs the control token") != std::string::npos, forbidden.c_str());
        for (const std::string& reason : {reading, commanding, forbidden}) {
            QVERIFY(reason.find(kControlToken) == std::string::npos);
            QVERIFY(reason.find(kReadToken) == std::string::npos);
        }
    }

    void tokensThatDoNotFitAreRefused_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("readToken");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no token off loopback") << "0.0.0.0"
                                               << ""
                                               << ""
                                               << "not a loopback address, without a token";
        QTest::newRow("short control token") << "127.0.0.1"
                                             << "short"
                                             << ""
                                             << "the control API token is 5 characters";
        QTest::newRow("short read token") << "127.0.0.1" << QString::fromStdString(kControlToken) << "short"
                                          << "the read-only token is 5 characters";
        QTest::newRow("read token alone")
            << "127.0.0.1"
            << "" << QString::fromStdString(kReadToken) << "needs the control token (--token-file)";
        QTest::newRow("the same token twice")
            << "127.0.0.1" << QString::fromStdString(kControlToken) << QString::fromStdString(kControlToken)
            << "the read-only token is the control token";
    }

    void tokensThatDoNotFitAreRefused() {
        QFETCH(QString, host);
        QFETCH(QString, token);
        QFETCH(QString, readToken);
        QFETCH(QString, expected);
        std::string why = refusal(withTokens(token.toStdString(), readToken.toStdString(), host.toStdString()));
        QVERIFY2(why.find(expected.toStdString()) != std::string::npos, why.c_str());
    }

    void aTokenOffLoopbackIsAccepted() {
        QVERIFY(refusal(withTokens(kControlToken, "", "0.0.0.0")).empty());
        QVERIFY(refusal(withTokens(kControlToken, kReadToken, "::")).empty());
    }
};

QTEST_GUILESS_MAIN(ControlAccessTest)
#include "test_control_access.moc"
