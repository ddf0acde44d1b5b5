// The error for a task or source file that cannot be used: one line, "FILE:LINE: key 'a.b.c': what is
// wrong", so that a DBA can jump to the line. Nothing starts when a file has one.
#pragma once

#include <string>

#include "engine/common/error.h"

namespace syncscope::config {

class ConfigError : public Error {
public:
    // line is 1-based; 0 when the problem has no single line (the message then omits it).
    ConfigError(std::string file, int line, std::string key, std::string problem)
        : Error(render(file, line, key, problem)),
          file_(std::move(file)),
          line_(line),
          key_(std::move(key)),
          problem_(std::move(problem)) {}

    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& key() const { return key_; }
    const std::string& problem() const { return problem_; }

    static std::string render(const std::string& file, int line, const std::string& key, const std::string& problem) {
        std::string text = file;
        if (line > 0)
            text += ":" + std::to_string(line);
        text += ": ";
        if (!key.empty())
            text += "key '" + key + "': ";
        return text + problem;
    }

private:
    std::string file_;
    int line_;
    std::string key_;
    std::string problem_;
};

}  // namespace syncscope::config
