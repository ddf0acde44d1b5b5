// The connection part of a task or source file: DM's `target-database` and `from` (host, port, user,
// password, session, security). The password is never printed (describe() leaves it out) and may be
// kept out of the file:
//   password: "${ENV:NAME}"       read from environment variable NAME when the file is loaded
//   password-file: secret.txt     read from that file (relative to the config file); one trailing
//                                 newline is dropped
// A plain `password` is used as written (DM's dmctl-encrypted passwords are not decrypted).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "engine/common/server_settings.h"
#include "engine/config/config_reader.h"

namespace syncscope::config {

struct PasswordSource {
    enum class Kind { Inline, Environment, File };
    Kind kind = Kind::Inline;
    std::string reference;  // the variable name or the file path, as written

    bool operator==(const PasswordSource&) const = default;
};

struct DatabaseConfig {
    static constexpr int kDefaultPort = 3306;

    ServerSettings server;  // the password in it is resolved
    PasswordSource passwordSource;
    // `session`: SET SESSION name = value, each value as the file wrote it (the applier decides quoting)
    std::map<std::string, std::string> sessionVariables;
    std::optional<int64_t> maxAllowedPacket;

    std::string describe() const { return server.describe(); }
    bool operator==(const DatabaseConfig& other) const;
};

// Reads a `target-database` or `from` mapping; path is its key path for messages.
DatabaseConfig readDatabaseConfig(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                  const std::string& configDirectory);

// Writes the mapping's keys (inside an open map): the password as its source had it.
void writeDatabaseConfig(YAML::Emitter& out, const DatabaseConfig& database);

// "${ENV:NAME}" -> "NAME"; "" when the text is not such a reference.
std::string environmentReference(const std::string& password);

}  // namespace syncscope::config
