// The binlog CRC32 (carry-less multiply folding where the CPU has it, zlib otherwise) equals zlib's
// crc32 for every length around the folding block sizes, at every alignment, and on large buffers.
#include <QTest>

#include <zlib.h>

#include <random>
#include <string>

#include "engine/binlog/checksum.h"

using namespace syncscope::binlog;

namespace {

uint32_t zlibCrc(std::string_view bytes) {
    return static_cast<uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

std::string randomBytes(size_t size, unsigned seed) {
    std::mt19937 random(seed);
    std::string bytes(size, '\0');
    for (char& c : bytes) {
        c = static_cast<char>(random() & 0xFF);
    }
    return bytes;
}

}  // namespace

class BinlogChecksumTest : public QObject {
    Q_OBJECT

private slots:
    void knownValue() {
        QCOMPARE(binlogCrc32("123456789"), uint32_t{0xCBF43926});  // the CRC-32 check value
        QCOMPARE(binlogCrc32(""), uint32_t{0});
        const std::string zeros(4096, '\0');
        QCOMPARE(binlogCrc32(zeros), zlibCrc(zeros));
        const std::string ones(4096, '\xFF');
        QCOMPARE(binlogCrc32(ones), zlibCrc(ones));
    }

    void equalsZlibAtEveryLengthAndAlignment() {
        const std::string bytes = randomBytes(1200, 1);
        for (size_t offset = 0; offset < 16; ++offset) {
            for (size_t length = 0; offset + length <= 1100; ++length) {
                const std::string_view view = std::string_view(bytes).substr(offset, length);
                if (binlogCrc32(view) != zlibCrc(view)) {
                    QFAIL(("CRC32 differs from zlib at offset " + std::to_string(offset) + ", length " +
                           std::to_string(length))
                              .c_str());
                }
            }
        }
    }

    void equalsZlibOnLargeBuffers() {
        for (size_t size : {size_t{8192}, size_t{65536 + 13}, size_t{4 * 1024 * 1024 + 7}}) {
            const std::string bytes = randomBytes(size, static_cast<unsigned>(size));
            QCOMPARE(binlogCrc32(bytes), zlibCrc(bytes));
        }
    }
};

QTEST_GUILESS_MAIN(BinlogChecksumTest)
#include "test_binlog_checksum.moc"
