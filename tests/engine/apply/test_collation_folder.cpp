// Key values folded as the column's collation compares them: byte rules need no server; weight rules
// concatenate per-character weights (here from a small weight table standing in for WEIGHT_STRING; the
// real server's weights are proven in tests/integration/apply); anything not exact is said to be so.
#include <QtTest>

#include <cctype>
#include <stdexcept>

#include "engine/apply/collation_folder.h"

using namespace syncscope::apply;

namespace {

// Upper-case ASCII, 'é' weighs as 'E', 'ß' expands to 'SS', U+200B weighs nothing, '~' weighs more than
// a word (ten bytes).
std::vector<std::string> weightTable(const std::string&, const std::string&,
                                     const std::vector<std::string>& characters) {
    std::vector<std::string> weights;
    for (const auto& character : characters) {
        if (character == "\xc3\xa9") {
            weights.push_back("E");
        } else if (character == "\xc3\x9f") {
            weights.push_back("SS");
        } else if (character == "\xe2\x80\x8b") {
            weights.push_back("");
        } else if (character == "~") {
            weights.push_back("~~~~~~~~~~");
        } else {
            weights.push_back(
                std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(character[0])))));
        }
    }
    return weights;
}

}  // namespace

class CollationFolderTest : public QObject {
    Q_OBJECT

private slots:
    void valuesFoldAsTheCollationComparesThem_data() {
        QTest::addColumn<QString>("collation");
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<bool>("exact");
        QTest::addColumn<bool>("equal");
        QTest::addRow("binary: bytes, trailing spaces count")
            << "binary" << QByteArray("x") << QByteArray("x ") << true << false;
        QTest::addRow("_bin: PAD SPACE drops trailing spaces")
            << "utf8mb4_bin" << QByteArray("x") << QByteArray("x  ") << true << true;
        QTest::addRow("_bin: case counts") << "utf8mb4_bin" << QByteArray("x") << QByteArray("X") << true << false;
        QTest::addRow("_nopad_bin: trailing spaces count")
            << "utf8mb4_nopad_bin" << QByteArray("x") << QByteArray("x ") << true << false;
        QTest::addRow("_general_ci: an accent") << "utf8mb4_general_ci" << QByteArray("e1")
                                                << QByteArray(
                                                       "\xc3\xa9"
                                                       "1")
                                                << true << true;
        QTest::addRow("_unicode_ci: an expansion") << "utf8mb4_unicode_ci" << QByteArray("strasse")
                                                   << QByteArray(
                                                          "stra\xc3\x9f"
                                                          "e")
                                                   << true << true;
        QTest::addRow("PAD SPACE: a trailing space and an ignorable")
            << "utf8mb4_unicode_ci" << QByteArray("ab") << QByteArray("ab \xe2\x80\x8b ") << true << true;
        QTest::addRow("NO PAD: a trailing space counts")
            << "utf8mb4_unicode_nopad_ci" << QByteArray("ab") << QByteArray("ab ") << true << false;
        QTest::addRow("latin1: one byte a character")
            << "latin1_swedish_ci" << QByteArray("ABC") << QByteArray("abc") << true << true;
        QTest::addRow("different values stay different")
            << "utf8mb4_general_ci" << QByteArray("e1") << QByteArray("e2") << true << false;
        QTest::addRow("a collation with contractions is not folded")
            << "utf8mb4_czech_ci" << QByteArray("ch") << QByteArray("CH") << false << false;
        QTest::addRow("a charset not split here is not folded")
            << "gbk_chinese_ci" << QByteArray("a") << QByteArray("A") << false << false;
        QTest::addRow("an unknown collation is not folded")
            << "" << QByteArray("a") << QByteArray("a") << false << false;
        QTest::addRow("invalid UTF-8 is not folded")
            << "utf8mb4_general_ci" << QByteArray("a\xff") << QByteArray("a") << false << false;
    }
    void valuesFoldAsTheCollationComparesThem() {
        QFETCH(QString, collation);
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(bool, exact);
        QFETCH(bool, equal);
        CollationFolder folder(weightTable);
        std::string foldedA;
        std::string foldedB;
        auto outcome = folder.fold(collation.toStdString(), a.toStdString(), foldedA);
        QCOMPARE(outcome == CollationFolder::Outcome::Exact, exact);
        if (exact) {
            QCOMPARE(folder.fold(collation.toStdString(), b.toStdString(), foldedB), CollationFolder::Outcome::Exact);
            QCOMPARE(foldedA == foldedB, equal);
        }
    }

    void spacesCountWhereACharacterFollowsThem_data() {
        QTest::addColumn<QString>("collation");
        QTest::addColumn<QByteArray>("value");
        QTest::addRow("PAD SPACE, trailing spaces") << "utf8mb4_general_ci" << QByteArray("Ab c  ");
        QTest::addRow("NO PAD, trailing spaces") << "utf8mb4_unicode_nopad_ci" << QByteArray("Ab c  ");
        QTest::addRow("only spaces") << "utf8mb4_general_ci" << QByteArray("   ");
        QTest::addRow("empty") << "utf8mb4_general_ci" << QByteArray("");
        QTest::addRow("latin1") << "latin1_swedish_ci" << QByteArray("xYz ");
    }
    void spacesCountWhereACharacterFollowsThem() {
        QFETCH(QString, collation);
        QFETCH(QByteArray, value);
        // A value followed by one more character: its fold ends with that character's weight after the
        // value's own characters' weights, trailing spaces included (they are no longer trailing), whether
        // that character is ASCII or not.
        CollationFolder folder(weightTable);
        std::string spacesKept;
        QCOMPARE(folder.fold(collation.toStdString(), value.toStdString() + "x", spacesKept),
                 CollationFolder::Outcome::Exact);
        spacesKept.pop_back();  // the weight of the 'x'
        std::string mixed;
        QCOMPARE(folder.fold(collation.toStdString(), value.toStdString() + "\xc3\xa9", mixed),
                 CollationFolder::Outcome::Exact);
        QVERIFY(mixed.size() > spacesKept.size() && mixed.starts_with(spacesKept));
        // And hashed without a string, once every character is known: the same bytes.
        KeyHash hashed;
        KeyHash expected;
        expected.bytes(spacesKept + "X");
        QCOMPARE(folder.foldInto(collation.toStdString(), value.toStdString() + "x", hashed),
                 CollationFolder::Outcome::Exact);
        QCOMPARE(hashed.value(), expected.value());
    }

    void foldIntoHashesWhatFoldWrites_data() {
        QTest::addColumn<QString>("collation");
        QTest::addColumn<QByteArray>("value");
        QTest::addRow("ASCII, PAD SPACE") << "utf8mb4_general_ci" << QByteArray("Ab c  ");
        QTest::addRow("ASCII, NO PAD") << "utf8mb4_unicode_nopad_ci" << QByteArray("Ab c  ");
        QTest::addRow("longer than a word") << "utf8mb4_general_ci" << QByteArray("0123456789-abcdefghij-xyz");
        QTest::addRow("a weight longer than a word") << "utf8mb4_general_ci" << QByteArray("a~b");
        QTest::addRow("an accent") << "utf8mb4_general_ci" << QByteArray("caf\xc3\xa9 ");
        QTest::addRow("an expansion") << "utf8mb4_unicode_ci"
                                      << QByteArray(
                                             "stra\xc3\x9f"
                                             "e");
        QTest::addRow("only spaces") << "utf8mb4_general_ci" << QByteArray("   ");
        QTest::addRow("empty") << "utf8mb4_general_ci" << QByteArray("");
        QTest::addRow("_bin") << "utf8mb4_bin" << QByteArray("x  ");
        QTest::addRow("binary") << "binary" << QByteArray("x\0y", 3);
        QTest::addRow("not exact") << "utf8mb4_czech_ci" << QByteArray("ch");
        QTest::addRow("unknown collation") << "" << QByteArray("a");
        QTest::addRow("invalid UTF-8") << "utf8mb4_general_ci" << QByteArray("a\xff");
    }
    void foldIntoHashesWhatFoldWrites() {
        QFETCH(QString, collation);
        QFETCH(QByteArray, value);
        const std::string name = collation.toStdString();
        const std::string text = value.toStdString();
        CollationFolder folder(weightTable);
        // Twice: the first asks for the characters (the general path), the second finds them known.
        for (int pass = 0; pass < 2; ++pass) {
            KeyHash hashed;
            hashed.byte(1);  // a key goes on from its table's hash
            KeyHash expected = hashed;
            std::string folded;
            auto foldedOutcome = folder.fold(name, text, folded);
            QCOMPARE(folder.foldInto(name, text, hashed), foldedOutcome);
            if (foldedOutcome == CollationFolder::Outcome::Exact) {
                expected.bytes(folded);
            }
            QCOMPARE(hashed.value(), expected.value());  // not exact: the hash is left as it was
        }
    }

    void valuesTheCollationComparesAlikeHashAlike() {
        CollationFolder folder(weightTable);
        auto hashOf = [&](const std::string& value) {
            KeyHash hash;
            bool exact = folder.foldInto("utf8mb4_general_ci", value, hash) == CollationFolder::Outcome::Exact;
            return exact ? hash.value() : uint64_t(0);  // 0: the test's sign of a value that did not fold
        };
        const uint64_t plain = hashOf("cafe 1");
        QVERIFY(plain != 0);
        QCOMPARE(hashOf("CAFE 1  "), plain);                    // known ASCII characters: no string built
        QCOMPARE(hashOf("caf\xc3\xa9 1"), plain);               // the general path
        QCOMPARE(hashOf("CAF\xc3\xa9 1\xe2\x80\x8b "), plain);  // an ignorable and a space trail
        QVERIFY(hashOf("cafe 2") != plain);
        QVERIFY(hashOf("cafe 1~") != plain);
    }

    void aServerThatCannotBeAskedStopsFoldingForGood() {
        bool answer = true;
        CollationFolder folder(
            [&](const std::string& charset, const std::string& collation, const std::vector<std::string>& characters) {
                if (!answer) {
                    throw std::runtime_error("the downstream is gone");
                }
                return weightTable(charset, collation, characters);
            });
        std::string folded;
        QCOMPARE(folder.fold("utf8mb4_general_ci", "ab", folded), CollationFolder::Outcome::Exact);
        QCOMPARE(folder.foldingStopped(), uint64_t(0));
        answer = false;
        QCOMPARE(folder.fold("utf8mb4_general_ci", "abc", folded), CollationFolder::Outcome::NotExact);
        QCOMPARE(folder.foldingStopped(), uint64_t(1));
        // Even a value whose characters are all known now folds as the rest: one key for the column.
        QCOMPARE(folder.fold("utf8mb4_general_ci", "ab", folded), CollationFolder::Outcome::NotExact);
    }

    void withoutAServerOnlyByteRulesFold() {
        CollationFolder folder;
        std::string folded;
        QCOMPARE(folder.fold("utf8mb4_general_ci", "a", folded), CollationFolder::Outcome::NotExact);
        QCOMPARE(folder.fold("latin1_bin", "a ", folded), CollationFolder::Outcome::Exact);
        QCOMPARE(folded, std::string("a"));
    }
};

QTEST_GUILESS_MAIN(CollationFolderTest)
#include "test_collation_folder.moc"
