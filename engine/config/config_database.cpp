#include "engine/config/config_database.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace syncscope::config {

namespace {

constexpr int kMaxPort = 65535;
constexpr std::string_view kEnvPrefix = "${ENV:";
constexpr int64_t kMaxPacketBytes = int64_t{1} << 30;  // MySQL's own ceiling for max_allowed_packet

bool isVariableName(const std::string& name) {
    if (name.empty())
        return false;
    for (unsigned char c : name) {
        if (!(std::isalnum(c) || c == '_' || c == '.' || c == '@'))
            return false;
    }
    return true;
}

std::string readPasswordFile(ConfigReader& reader, const YAML::Node& at, const std::string& key,
                             const std::string& path, const std::string& configDirectory) {
    std::filesystem::path file(path);
    if (file.is_relative() && !configDirectory.empty())
        file = std::filesystem::path(configDirectory) / file;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        reader.fail(at, key, "cannot read password file '" + file.string() + "'");
    std::ostringstream text;
    text << in.rdbuf();
    std::string password = text.str();
    if (!password.empty() && password.back() == '\n')
        password.pop_back();
    if (!password.empty() && password.back() == '\r')
        password.pop_back();
    return password;
}

}  // namespace

bool DatabaseConfig::operator==(const DatabaseConfig& other) const {
    return server.host == other.server.host && server.port == other.server.port && server.user == other.server.user &&
           server.password == other.server.password && server.tls.caFile == other.server.tls.caFile &&
           server.tls.certFile == other.server.tls.certFile && server.tls.keyFile == other.server.tls.keyFile &&
           passwordSource == other.passwordSource && sessionVariables == other.sessionVariables &&
           maxAllowedPacket == other.maxAllowedPacket;
}

std::string environmentReference(const std::string& password) {
    if (password.size() > kEnvPrefix.size() + 1 && password.starts_with(kEnvPrefix) && password.back() == '}') {
        return password.substr(kEnvPrefix.size(), password.size() - kEnvPrefix.size() - 1);
    }
    return {};
}

DatabaseConfig readDatabaseConfig(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                  const std::string& configDirectory) {
    if (!node.IsDefined() || node.IsNull())
        reader.fail(node, path, "is required");
    reader.checkKeys(node, path,
                     {"host", "port", "user", "password", "password-file", "session", "security", "max-allowed-packet"},
                     {}, "");
    DatabaseConfig database;
    const auto key = [&](std::string_view name) { return ConfigReader::join(path, name); };

    const YAML::Node host = ConfigReader::child(node, "host");
    if (!host.IsDefined())
        reader.fail(node, key("host"), "is required");
    database.server.host = reader.readNonEmptyString(host, key("host"));

    database.server.port = DatabaseConfig::kDefaultPort;
    if (auto port = ConfigReader::child(node, "port"); port.IsDefined()) {
        database.server.port = static_cast<int>(reader.readInteger(port, key("port"), 1, kMaxPort));
    }

    const YAML::Node user = ConfigReader::child(node, "user");
    if (!user.IsDefined())
        reader.fail(node, key("user"), "is required");
    database.server.user = reader.readNonEmptyString(user, key("user"));

    const YAML::Node password = ConfigReader::child(node, "password");
    const YAML::Node passwordFile = ConfigReader::child(node, "password-file");
    if (password.IsDefined() && passwordFile.IsDefined()) {
        reader.fail(passwordFile, key("password-file"), "give either password or password-file, not both");
    }
    if (passwordFile.IsDefined()) {
        const std::string file = reader.readNonEmptyString(passwordFile, key("password-file"));
        database.passwordSource = {PasswordSource::Kind::File, file};
        database.server.password = readPasswordFile(reader, passwordFile, key("password-file"), file, configDirectory);
    } else if (password.IsDefined()) {
        const std::string text = reader.readString(password, key("password"));
        const std::string variable = environmentReference(text);
        if (!variable.empty()) {
            const char* value = std::getenv(variable.c_str());
            if (value == nullptr) {
                reader.fail(password, key("password"), "environment variable '" + variable + "' is not set");
            }
            database.passwordSource = {PasswordSource::Kind::Environment, variable};
            database.server.password = value;
        } else {
            database.server.password = text;
        }
    }

    if (auto session = ConfigReader::child(node, "session"); session.IsDefined()) {
        database.sessionVariables = reader.readStringMap(session, key("session"));
        for (const auto& entry : reader.entries(session, key("session"))) {
            if (!isVariableName(entry.key)) {
                reader.fail(entry.line, ConfigReader::join(key("session"), entry.key),
                            "is not a session variable name (letters, digits, '_' only)");
            }
        }
    }
    if (auto packet = ConfigReader::child(node, "max-allowed-packet"); packet.IsDefined() && !packet.IsNull()) {
        database.maxAllowedPacket = reader.readInteger(packet, key("max-allowed-packet"), 1, kMaxPacketBytes);
    }
    if (auto security = ConfigReader::child(node, "security"); security.IsDefined() && !security.IsNull()) {
        const std::string securityPath = key("security");
        reader.checkKeys(security, securityPath, {"ssl-ca", "ssl-cert", "ssl-key"}, {"cert-allowed-cn"},
                         "accepted but not checked by this version (the server certificate is verified against "
                         "ssl-ca only)");
        const auto read = [&](std::string_view name) {
            const YAML::Node value = ConfigReader::child(security, name);
            return value.IsDefined() ? reader.readString(value, ConfigReader::join(securityPath, name)) : std::string();
        };
        database.server.tls.caFile = read("ssl-ca");
        database.server.tls.certFile = read("ssl-cert");
        database.server.tls.keyFile = read("ssl-key");
    }
    return database;
}

void writeDatabaseConfig(YAML::Emitter& out, const DatabaseConfig& database) {
    out << YAML::Key << "host" << YAML::Value << YAML::DoubleQuoted << database.server.host;
    out << YAML::Key << "port" << YAML::Value << database.server.port;
    out << YAML::Key << "user" << YAML::Value << YAML::DoubleQuoted << database.server.user;
    switch (database.passwordSource.kind) {
        case PasswordSource::Kind::Inline:
            out << YAML::Key << "password" << YAML::Value << YAML::DoubleQuoted << database.server.password;
            break;
        case PasswordSource::Kind::Environment:
            out << YAML::Key << "password" << YAML::Value << YAML::DoubleQuoted
                << std::string(kEnvPrefix) + database.passwordSource.reference + "}";
            break;
        case PasswordSource::Kind::File:
            out << YAML::Key << "password-file" << YAML::Value << YAML::DoubleQuoted
                << database.passwordSource.reference;
            break;
    }
    if (database.maxAllowedPacket)
        out << YAML::Key << "max-allowed-packet" << YAML::Value << *database.maxAllowedPacket;
    if (!database.sessionVariables.empty()) {
        out << YAML::Key << "session" << YAML::Value << YAML::BeginMap;
        for (const auto& [name, value] : database.sessionVariables) {
            out << YAML::Key << name << YAML::Value << YAML::DoubleQuoted << value;
        }
        out << YAML::EndMap;
    }
    const TlsSettings& tls = database.server.tls;
    if (tls.enabled()) {
        out << YAML::Key << "security" << YAML::Value << YAML::BeginMap;
        if (!tls.caFile.empty())
            out << YAML::Key << "ssl-ca" << YAML::Value << YAML::DoubleQuoted << tls.caFile;
        if (!tls.certFile.empty())
            out << YAML::Key << "ssl-cert" << YAML::Value << YAML::DoubleQuoted << tls.certFile;
        if (!tls.keyFile.empty())
            out << YAML::Key << "ssl-key" << YAML::Value << YAML::DoubleQuoted << tls.keyFile;
        out << YAML::EndMap;
    }
}

}  // namespace syncscope::config
