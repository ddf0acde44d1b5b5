// The hash causality keys are made of: a byte stream hashes alike however it is handed over (a folded value
// whole, or one character's weight after another), different streams differ, and row keys spread over
// workers.
#include <QtTest>

#include <random>
#include <set>
#include <string>

#include "engine/apply/key_hash.h"

using namespace syncscope::apply;

namespace {

std::string randomBytes(std::mt19937_64& random, size_t length) {
    std::string bytes(length, '\0');
    for (char& byte : bytes) {
        byte = static_cast<char>(random() & 0xff);
    }
    return bytes;
}

uint64_t hashOf(std::string_view bytes) {
    KeyHash hash;
    hash.bytes(bytes);
    return hash.value();
}

}  // namespace

class KeyHashTest : public QObject {
    Q_OBJECT

private slots:
    void aStreamHashesAlikeHoweverItIsCut() {
        std::mt19937_64 random(20261206);
        for (int round = 0; round < 2000; ++round) {
            std::string stream = randomBytes(random, random() % 70);
            KeyHash pieces;
            size_t at = 0;
            while (at < stream.size()) {
                size_t length = std::min<size_t>(stream.size() - at, random() % 11);
                std::string_view piece(stream.data() + at, length);
                switch (random() % 3) {
                    case 0:
                        pieces.bytes(piece);
                        break;
                    case 1:
                        for (char byte : piece) {
                            pieces.byte(static_cast<unsigned char>(byte));
                        }
                        break;
                    default: {
                        size_t word = std::min<size_t>(length, sizeof(uint64_t));
                        uint64_t bits = 0;
                        std::memcpy(&bits, piece.data(), word);
                        pieces.append(bits, static_cast<unsigned>(word));
                        length = word;
                        break;
                    }
                }
                at += length;
            }
            QCOMPARE(pieces.value(), hashOf(stream));
        }
    }

    void differentStreamsHashDifferently() {
        // Zero bytes count: a value and the same value with a zero byte more are two keys.
        QVERIFY(hashOf("") != hashOf(std::string(1, '\0')));
        QVERIFY(hashOf("a") != hashOf(std::string("a\0", 2)));
        QVERIFY(hashOf(std::string(8, '\0')) != hashOf(std::string(9, '\0')));
        // Every prefix of a stream, and many random streams, hash apart.
        std::mt19937_64 random(7);
        std::string stream = randomBytes(random, 40);
        std::set<uint64_t> prefixes;
        for (size_t length = 0; length <= stream.size(); ++length) {
            prefixes.insert(hashOf(std::string_view(stream).substr(0, length)));
        }
        QCOMPARE(prefixes.size(), stream.size() + 1);
        std::set<std::string> streams;
        std::set<uint64_t> hashes;
        while (streams.size() < 100000) {
            std::string bytes = randomBytes(random, 1 + random() % 12);
            if (streams.insert(bytes).second) {
                hashes.insert(hashOf(bytes));
            }
        }
        QCOMPARE(hashes.size(), streams.size());
    }

    void consecutiveRowKeysSpreadOverWorkers() {
        // The dispatcher spreads rows by their key's hash: ids 1..16000 over 16 workers.
        constexpr size_t kWorkers = 16;
        constexpr uint64_t kRows = 16000;
        std::array<size_t, kWorkers> perWorker{};
        for (uint64_t id = 1; id <= kRows; ++id) {
            KeyHash hash;
            hash.append(id, sizeof(uint64_t));
            ++perWorker[hash.value() % kWorkers];
        }
        for (size_t rows : perWorker) {
            QVERIFY2(rows > kRows / kWorkers * 8 / 10 && rows < kRows / kWorkers * 12 / 10,
                     qPrintable(QString("a worker got %1 of %2 rows").arg(rows).arg(kRows)));
        }
    }
};

QTEST_GUILESS_MAIN(KeyHashTest)
#include "test_key_hash.moc"
