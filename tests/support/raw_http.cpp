#include "tests/support/raw_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace syncscope::test {

namespace {

constexpr size_t kReadChunk = 4096;
constexpr int kStatusCodeOffset = 9;  // "HTTP/1.1 " precedes the code
constexpr int kStatusCodeLength = 3;

class Socket {
public:
    Socket() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {}
    ~Socket() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

size_t contentLengthOf(const std::string& headers) {
    const std::string name = "\r\ncontent-length:";
    std::string lower = headers;
    for (char& c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    size_t at = lower.find(name);
    if (at == std::string::npos) {
        return std::string::npos;
    }
    return std::stoul(headers.substr(at + name.size()));
}

}  // namespace

RawHttpAnswer rawHttpExchange(int port, const std::string& request, int timeoutSeconds) {
    RawHttpAnswer answer;
    Socket socket;
    if (socket.fd() < 0) {
        answer.problem = std::string("socket: ") + std::strerror(errno);
        return answer;
    }
    timeval timeout{timeoutSeconds, 0};
    setsockopt(socket.fd(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(socket.fd(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        answer.problem = "connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
        return answer;
    }
    if (send(socket.fd(), request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
        answer.problem = std::string("send: ") + std::strerror(errno);
        return answer;
    }
    std::string received;
    size_t headerEnd = std::string::npos;
    size_t bodyLength = std::string::npos;
    char chunk[kReadChunk];
    for (;;) {
        if (headerEnd != std::string::npos && bodyLength != std::string::npos &&
            received.size() >= headerEnd + bodyLength) {
            break;
        }
        ssize_t n = recv(socket.fd(), chunk, sizeof chunk, 0);
        if (n < 0) {
            answer.problem = "no complete answer within " + std::to_string(timeoutSeconds) + " s (" +
                             std::to_string(received.size()) + " bytes received)";
            return answer;
        }
        if (n == 0) {
            break;  // closed by the server
        }
        received.append(chunk, static_cast<size_t>(n));
        if (headerEnd == std::string::npos && (headerEnd = received.find("\r\n\r\n")) != std::string::npos) {
            headerEnd += std::strlen("\r\n\r\n");
            bodyLength = contentLengthOf(received.substr(0, headerEnd));
        }
    }
    if (headerEnd == std::string::npos || !received.starts_with("HTTP/1.")) {
        answer.problem = "not an HTTP answer: '" + received + "'";
        return answer;
    }
    answer.status = std::stoi(received.substr(kStatusCodeOffset, kStatusCodeLength));
    answer.body = received.substr(headerEnd);
    return answer;
}

}  // namespace syncscope::test
