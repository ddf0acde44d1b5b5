#include "engine/apply/downstream_connection.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <mysql_driver.h>

#include <mutex>

namespace syncscope::apply {

namespace {

std::string hintFor(int code) {
    constexpr int kAccessDenied = 1045;
    constexpr int kCannotConnect = 2003;
    constexpr int kUnknownHost = 2005;
    switch (code) {
        case kAccessDenied:
            return "; check the user name and password of the target database";
        case kCannotConnect:
        case kUnknownHost:
            return "; check that the target database runs and that host and port are right";
        default:
            return {};
    }
}

}  // namespace

std::unique_ptr<sql::Connection> connectDownstream(const ServerSettings& settings) {
    // The driver's first use is not thread-safe in Connector/C++ 1.1.
    static std::mutex driverMutex;
    sql::mysql::MySQL_Driver* driver = nullptr;
    {
        std::lock_guard lock(driverMutex);
        driver = sql::mysql::get_mysql_driver_instance();
    }
    sql::ConnectOptionsMap options;
    options["hostName"] = sql::SQLString(settings.host);
    options["port"] = settings.port;
    options["userName"] = sql::SQLString(settings.user);
    options["password"] = sql::SQLString(settings.password);
    options["OPT_CONNECT_TIMEOUT"] = settings.connectTimeoutSeconds;
    options["OPT_READ_TIMEOUT"] = settings.readTimeoutSeconds;
    options["OPT_WRITE_TIMEOUT"] = settings.readTimeoutSeconds;
    options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
    options["CLIENT_MULTI_STATEMENTS"] = false;
    if (settings.tls.enabled()) {
        options["sslCA"] = sql::SQLString(settings.tls.caFile);
        options["sslCert"] = sql::SQLString(settings.tls.certFile);
        options["sslKey"] = sql::SQLString(settings.tls.keyFile);
        options["sslVerify"] = true;
    }
    try {
        std::unique_ptr<sql::Connection> connection(driver->connect(options));
        return connection;
    } catch (const sql::SQLException& e) {
        throw DownstreamError("target database " + settings.describe() + ": cannot connect: " + e.what() + " [" +
                                  std::to_string(e.getErrorCode()) + "]" + hintFor(e.getErrorCode()),
                              e.getErrorCode());
    }
}

}  // namespace syncscope::apply
