#include "engine/control/token_file.h"

#include <fstream>

#include "engine/common/error.h"

namespace syncscope::control {

std::string readTokenFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw Error("cannot read the token file '" + path + "'");
    }
    std::string token;
    std::getline(in, token);
    while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) {
        token.pop_back();
    }
    if (token.empty()) {
        throw Error("the token file '" + path + "' is empty");
    }
    return token;
}

}  // namespace syncscope::control
