// syncscope-cli decode: prints the events of binlog files, or of a server's binlog stream, one line
// (or one JSON object) per event, decoded by the engine's own decoder.
#include <charconv>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/cli_commands.h"
#include "app/cli/decode_event_printer.h"
#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "engine/source/binlog_file_source.h"
#include "engine/source/binlog_server_source.h"

namespace syncscope::cli {
namespace {

const char* const kDecodeUsage =
    "Usage: syncscope-cli decode FILE... [--start-position N] [--stop-position N] [--json] [--show-secrets]\n"
    "       syncscope-cli decode --server HOST:PORT --user U --password-file F\n"
    "                            (--from FILE:POS | --gtid G) [--count N] [--json] [--show-secrets]\n"
    "Prints every event, one readable line each, or with --json one JSON object per line (file, pos,\n"
    "end_pos, type, timestamp, server_id, gtid; schema and query of statements; schema, table, op,\n"
    "columns and rows [{before, after}] of row events). --start-position applies to the first file,\n"
    "--stop-position to the last (stop before the first event starting at or after it), as in\n"
    "mariadb-binlog. --server streams from a MariaDB server from a file position or after a GTID\n"
    "position; --count stops after N events (heartbeats not counted). Passwords that statements carry\n"
    "(CREATE USER ... IDENTIFIED BY '...') are printed as '<redacted>' unless --show-secrets is given.\n"
    "Exit 0 when all went well, 1 with FILE:OFFSET: on stderr for bad input, 2 on bad usage.\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct DecodeOptions {
    std::vector<std::string> files;
    std::optional<uint64_t> startPosition;
    std::optional<uint64_t> stopPosition;
    std::string server;
    std::string user;
    std::string passwordFile;
    std::string from;
    std::string gtid;
    std::optional<uint64_t> count;
    bool json = false;
    bool showSecrets = false;
    bool help = false;
};

uint64_t parseNumber(std::string_view text, const std::string& option) {
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        throw UsageError(option + " '" + std::string(text) + "' is not a non-negative number");
    }
    return value;
}

DecodeOptions parseOptions(std::span<char*> args) {
    DecodeOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                throw UsageError(arg + " needs a value");
            }
            return args[++i];
        };
        if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--json") {
            options.json = true;
        } else if (arg == "--show-secrets") {
            options.showSecrets = true;
        } else if (arg == "--start-position") {
            options.startPosition = parseNumber(value(), arg);
        } else if (arg == "--stop-position") {
            options.stopPosition = parseNumber(value(), arg);
        } else if (arg == "--server") {
            options.server = value();
        } else if (arg == "--user") {
            options.user = value();
        } else if (arg == "--password-file") {
            options.passwordFile = value();
        } else if (arg == "--from") {
            options.from = value();
        } else if (arg == "--gtid") {
            options.gtid = value();
        } else if (arg == "--count") {
            options.count = parseNumber(value(), arg);
        } else if (arg.starts_with("--")) {
            throw UsageError("unknown option " + arg);
        } else {
            options.files.push_back(arg);
        }
    }
    if (options.help) {
        return options;
    }
    if (options.server.empty()) {
        if (options.files.empty()) {
            throw UsageError("name at least one binlog FILE, or --server");
        }
        if (!options.user.empty() || !options.passwordFile.empty() || !options.from.empty() || !options.gtid.empty()) {
            throw UsageError("--user, --password-file, --from and --gtid need --server");
        }
        return options;
    }
    if (!options.files.empty()) {
        throw UsageError("give either binlog FILEs or --server, not both");
    }
    if (options.startPosition || options.stopPosition) {
        throw UsageError("--start-position and --stop-position are for FILEs; use --from with --server");
    }
    if (options.user.empty() || options.passwordFile.empty()) {
        throw UsageError("--server needs --user and --password-file");
    }
    if (options.from.empty() == options.gtid.empty()) {
        throw UsageError("--server needs exactly one of --from FILE:POS and --gtid G");
    }
    return options;
}

ServerSettings serverSettings(const DecodeOptions& options) {
    ServerSettings settings;
    size_t colon = options.server.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        throw UsageError("--server '" + options.server + "' is not HOST:PORT");
    }
    constexpr uint64_t kMaxPort = 65535;
    uint64_t port = parseNumber(std::string_view(options.server).substr(colon + 1), "--server port");
    if (port == 0 || port > kMaxPort) {
        throw UsageError("--server '" + options.server + "': the port must be 1 to 65535");
    }
    settings.host = options.server.substr(0, colon);
    settings.port = static_cast<int>(port);
    settings.user = options.user;
    std::ifstream in(options.passwordFile);
    if (!in) {
        throw Error("cannot read password file '" + options.passwordFile + "'");
    }
    std::getline(in, settings.password);
    if (!settings.password.empty() && settings.password.back() == '\r') {
        settings.password.pop_back();
    }
    return settings;
}

int decodeFiles(const DecodeOptions& options, DecodeEventPrinter& printer) {
    source::FileSourceOptions sourceOptions;
    sourceOptions.startPosition = options.startPosition.value_or(0);
    sourceOptions.stopPosition = options.stopPosition;
    std::vector<std::filesystem::path> files(options.files.begin(), options.files.end());
    auto source = source::BinlogFileSource::ofFiles(files, sourceOptions);
    binlog::EventDecoder decoder;
    decoder.setRowTextStorage(binlog::TextStorage::Borrow);  // each event is printed before the next read
    std::vector<binlog::Event> events;
    uint64_t printed = 0;
    while (auto raw = source.next()) {
        decoder.recycle(events);
        decoder.decodeInto(*raw, events);
        for (const auto& event : events) {
            if (options.count && printed >= *options.count) {
                return kExitOk;
            }
            printer.print(event);
            ++printed;
        }
    }
    const auto& stop = source.stop();
    if (stop.reason == source::BinlogFileSource::StopReason::Incomplete) {
        std::cout.flush();
        std::cerr << stop.file << ":" << stop.pos << ": " << stop.detail << '\n';
        return kExitFailure;
    }
    return kExitOk;
}

int decodeServer(const DecodeOptions& options, DecodeEventPrinter& printer) {
    source::ServerSourceOptions sourceOptions;
    sourceOptions.server = serverSettings(options);
    sourceOptions.checkSettings = false;  // decode reads any binlog, as mariadb-binlog does
    if (!options.gtid.empty()) {
        sourceOptions.startGtid = options.gtid;
    } else {
        size_t colon = options.from.rfind(':');
        if (colon == std::string::npos || colon == 0) {
            throw UsageError("--from '" + options.from + "' is not FILE:POS");
        }
        sourceOptions.startFile = options.from.substr(0, colon);
        sourceOptions.startPosition = parseNumber(std::string_view(options.from).substr(colon + 1), "--from position");
    }
    source::BinlogServerSource source(sourceOptions);
    binlog::EventDecoder decoder;
    decoder.setRowTextStorage(binlog::TextStorage::Borrow);  // each event is printed before the next read
    bool checksumSet = false;
    std::vector<binlog::Event> events;
    uint64_t printed = 0;
    while (!options.count || printed < *options.count) {
        auto raw = source.next();
        if (!raw) {
            break;
        }
        if (!checksumSet) {
            // The stream's first event (an artificial ROTATE) comes before any FORMAT_DESCRIPTION.
            decoder.setChecksum(source.hasChecksum() ? binlog::ChecksumAlgorithm::Crc32
                                                     : binlog::ChecksumAlgorithm::Off);
            checksumSet = true;
        }
        decoder.recycle(events);
        decoder.decodeInto(*raw, events);
        for (const auto& event : events) {
            if (event.type() == binlog::EventType::Heartbeat || event.type() == binlog::EventType::HeartbeatV2) {
                continue;
            }
            if (options.count && printed >= *options.count) {
                break;
            }
            printer.print(event);
            ++printed;
        }
        std::cout.flush();
    }
    return kExitOk;
}

int runDecode(std::span<char*> args) {
    DecodeOptions options;
    try {
        options = parseOptions(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli decode: " << e.what() << "\n\n" << kDecodeUsage;
        return kExitUsage;
    }
    if (options.help) {
        std::cout << kDecodeUsage;
        return kExitOk;
    }
    std::ios::sync_with_stdio(false);
    DecodeEventPrinter printer(std::cout,
                               options.json ? DecodeEventPrinter::Format::JsonLines : DecodeEventPrinter::Format::Text,
                               options.showSecrets);
    try {
        int code = options.server.empty() ? decodeFiles(options, printer) : decodeServer(options, printer);
        std::cout.flush();
        return code;
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli decode: " << e.what() << "\n\n" << kDecodeUsage;
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kDecodeCommand({"decode", "print the events of binlog files or a server's binlog stream",
                                          runDecode});

}  // namespace
}  // namespace syncscope::cli
