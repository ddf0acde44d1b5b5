// A binlog history made of binlog files on disk, in the order given (as mariadb-binlog reads several
// files); the files' sizes are taken when the history is made.
#pragma once

#include <filesystem>
#include <vector>

#include "engine/browse/binlog_history.h"

namespace syncscope::browse {

class LocalBinlogHistory : public BinlogHistory {
public:
    // Throws BrowseError when a file cannot be read or two files have the same name.
    explicit LocalBinlogHistory(std::vector<std::filesystem::path> files);

    std::vector<binlog::BinlogFileSize> files() override { return sizes_; }
    std::unique_ptr<EventStream> openAt(const BrowsePoint& start) override;
    // Reads headers and seeks past bodies (LocalHeaderStream).
    std::unique_ptr<EventStream> openHeadersAt(const BrowsePoint& start) override;
    std::unique_ptr<EventStream> openAfterGtid(const std::string&) override { return nullptr; }
    std::string currentGtidPosition() override { return {}; }
    std::string oldestGtidPosition() override { return {}; }
    std::string describe() const override;

private:
    // The files from `file` on; throws BrowseError when it is not among them.
    std::vector<std::filesystem::path> filesFrom(const std::string& file) const;

    std::vector<std::filesystem::path> paths_;
    std::vector<binlog::BinlogFileSize> sizes_;
};

}  // namespace syncscope::browse
