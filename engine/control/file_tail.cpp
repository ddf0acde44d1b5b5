#include "engine/control/file_tail.h"

#include <algorithm>
#include <fstream>

namespace syncscope::control {

std::vector<std::string> tailLines(const std::string& path, size_t maxLines, size_t maxBytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in || maxLines == 0) {
        return {};
    }
    const std::streamoff size = in.tellg();
    const std::streamoff start = std::max<std::streamoff>(0, size - static_cast<std::streamoff>(maxBytes));
    in.seekg(start);
    std::string text(static_cast<size_t>(size - start), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    std::vector<std::string> lines;
    size_t end = text.size();
    if (end > 0 && text[end - 1] == '\n') {
        --end;
    }
    while (lines.size() < maxLines && end > 0) {
        size_t newline = text.rfind('\n', end - 1);
        size_t begin = newline == std::string::npos ? 0 : newline + 1;
        if (begin == 0 && start > 0) {
            break;  // the first line read may be cut: leave it out
        }
        lines.push_back(text.substr(begin, end - begin));
        if (newline == std::string::npos) {
            break;
        }
        end = newline;
    }
    std::reverse(lines.begin(), lines.end());
    return lines;
}

}  // namespace syncscope::control
