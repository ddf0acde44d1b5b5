#include "engine/preview/replay_sql_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "engine/common/error.h"

namespace syncscope::preview {

namespace {

constexpr int kMillisecondsPerSecond = 1000;
constexpr size_t kMillisecondDigits = 3;
constexpr mode_t kFileMode = 0640;  // row images: readable by the DBA's group, not by everyone

std::string stampNow() {
    auto now = std::chrono::system_clock::now();
    std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % kMillisecondsPerSecond;
    std::tm fields{};
    localtime_r(&seconds, &fields);
    constexpr size_t kTextSize = 32;
    char text[kTextSize] = {};
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &fields);
    std::string stamp = std::to_string(millis);
    stamp.insert(0, kMillisecondDigits - std::min(kMillisecondDigits, stamp.size()), '0');
    return std::string(text) + "-" + stamp;
}

}  // namespace

std::string replaySqlPath(const std::string& folder, const std::string& taskName) {
    return (std::filesystem::path(folder) / (taskName + "-skipped-" + stampNow() + ".sql")).string();
}

void writeReplaySql(const std::string& path, const std::string& sql) {
    const std::string what = "cannot save the replay SQL to " + path + ": ";
    std::error_code error;
    std::filesystem::path target = std::filesystem::absolute(path, error);
    if (!error && target.has_parent_path()) {
        std::filesystem::create_directories(target.parent_path(), error);
    }
    if (error) {
        throw Error(what + error.message());
    }
    const std::string partial = target.string() + ".part";
    int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, kFileMode);
    if (fd < 0) {
        throw Error(what + std::strerror(errno));
    }
    size_t written = 0;
    while (written < sql.size()) {
        ssize_t n = ::write(fd, sql.data() + written, sql.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int saved = errno;
            ::close(fd);
            ::unlink(partial.c_str());
            throw Error(what + std::strerror(saved));
        }
        written += static_cast<size_t>(n);
    }
    const bool synced = ::fsync(fd) == 0;
    int saved = errno;
    const bool closed = ::close(fd) == 0;
    if (!synced || !closed) {
        saved = synced ? errno : saved;
        ::unlink(partial.c_str());
        throw Error(what + std::strerror(saved));
    }
    if (::rename(partial.c_str(), target.c_str()) != 0) {
        saved = errno;
        ::unlink(partial.c_str());
        throw Error(what + std::strerror(saved));
    }
}

std::string saveReplaySql(const verify::WindowPreview& preview, const std::string& folder, const std::string& taskName,
                          const std::string& why) {
    std::string path = std::filesystem::absolute(replaySqlPath(folder, taskName)).string();
    writeReplaySql(path, preview.replaySql(why));
    return path;
}

}  // namespace syncscope::preview
