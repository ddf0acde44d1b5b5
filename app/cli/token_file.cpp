#include "app/cli/token_file.h"

#include <fstream>
#include <stdexcept>

namespace syncscope::cli {

std::string readTokenFile(const std::string& file) {
    std::ifstream in(file);
    if (!in) {
        throw std::runtime_error("cannot read the token file '" + file + "'");
    }
    std::string token;
    std::getline(in, token);
    while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) {
        token.pop_back();
    }
    return token;
}

}  // namespace syncscope::cli
