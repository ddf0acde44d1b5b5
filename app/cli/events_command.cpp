// syncscope-cli events: browses a binlog, from local files or a server's binlog dump, one line per
// event grouped by transaction, with filters by table, operation, GTID domain, time and key value.
#include <charconv>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_commands.h"
#include "app/cli/events_downstream_check.h"
#include "app/cli/events_printer.h"
#include "app/cli/server_option.h"
#include "engine/binlog/value_text.h"
#include "engine/browse/browse_start.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/event_browser.h"
#include "engine/browse/local_binlog_history.h"
#include "engine/browse/point_resolver.h"
#include "engine/browse/server_binlog_history.h"

namespace syncscope::cli {
namespace {

const char* const kEventsUsage =
    "Usage: syncscope-cli events (FILE... | --server HOST:PORT --user U --password-file F)\n"
    "         [--from POS|FILE:POS|GTID|'YYYY-MM-DD HH:MM:SS'] [--to FILE:POS] [--table DB.T]\n"
    "         [--op insert,update,delete,ddl] [--domain N] [--since TIME] [--till TIME]\n"
    "         [--key VALUE] [--rows] [--limit N] [--progress] [--json] [--position-only] [--show-secrets]\n"
    "         [--downstream HOST:PORT --downstream-user U --downstream-password-file F]\n"
    "Browses a binlog: a line per transaction (GTID, start, time) and an indented line per event\n"
    "(position, time, GTID, type, table, operation and rows), or with --json one JSON object per event.\n"
    "FILEs are read in the order given; --server reads through a binlog dump (as a replica does) up to\n"
    "where the upstream stood when the command started.\n"
    "  --from     start: a transaction boundary FILE:POS (POS alone: the first file), after a MariaDB GTID\n"
    "             position, or the first transaction at or after a local time (found by a binary search\n"
    "             over the files' start times); a purged file, a GTID the upstream never wrote or a\n"
    "             position inside a transaction is refused with the positions to use instead\n"
    "  --to       stop before the first transaction starting at or after FILE:POS\n"
    "  --table    only events of DB.T (and DDL naming it); --op only these operations; --domain only\n"
    "             transactions of this GTID domain; --since/--till only transactions in this time range\n"
    "  --key      row history: only rows whose key (the primary key, comma-separated, or the first column\n"
    "             when the binlog does not name the key) is VALUE, with their before and after images\n"
    "  --rows     print decoded row images under each rows event\n"
    "  --limit    stop after N transactions; --progress prints progress to stderr every 1,000,000 events\n"
    "  --position-only  with --from TIME: print where the first transaction at or after it starts\n"
    "             (FILE:POS GTID TIME, or one JSON object) and read no further (event headers only)\n"
    "  --show-secrets  print the passwords statements carry (CREATE USER ... IDENTIFIED BY '...'); by\n"
    "             default they are printed as '<redacted>'\n"
    "  --downstream  with --server: check each printed transaction's rows against this server (with\n"
    "             --downstream-user and --downstream-password-file), a page of transactions at a time\n"
    "Exit 0 when all went well, 1 with the reason on stderr for a bad point or unreadable input, 2 on bad usage.\n";

constexpr uint64_t kProgressEvery = 1000000;
// --downstream keeps the printed transactions for the check: a page of them.
constexpr uint64_t kDefaultCheckedTransactions = 250;
constexpr uint64_t kMaxCheckedTransactions = 1000;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct EventsOptions {
    std::vector<std::string> files;
    std::string server;
    std::string user;
    std::string passwordFile;
    std::string from;
    std::string to;
    std::string table;
    std::string operations;
    std::optional<uint32_t> domain;
    std::string since;
    std::string till;
    std::optional<std::string> key;
    bool rows = false;
    bool showSecrets = false;
    uint64_t limit = 0;
    bool progress = false;
    bool json = false;
    bool positionOnly = false;
    std::string downstream;
    std::string downstreamUser;
    std::string downstreamPasswordFile;
};

uint64_t parseNumber(const std::string& text, const std::string& option) {
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        throw UsageError(option + " '" + text + "' is not a non-negative number");
    }
    return value;
}

uint32_t parseTime(const std::string& text, const std::string& option) {
    auto time = browse::parseLocalTime(text);
    if (!time) {
        throw UsageError(option + " '" + text + "' is not a time 'YYYY-MM-DD HH:MM:SS'");
    }
    return *time;
}

EventsOptions parseOptions(std::span<char*> args) {
    EventsOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                throw UsageError(arg + " needs a value");
            }
            return args[++i];
        };
        if (arg == "--json") {
            options.json = true;
        } else if (arg == "--rows") {
            options.rows = true;
        } else if (arg == "--show-secrets") {
            options.showSecrets = true;
        } else if (arg == "--progress") {
            options.progress = true;
        } else if (arg == "--server") {
            options.server = value();
        } else if (arg == "--user") {
            options.user = value();
        } else if (arg == "--password-file") {
            options.passwordFile = value();
        } else if (arg == "--from") {
            options.from = value();
        } else if (arg == "--to") {
            options.to = value();
        } else if (arg == "--table") {
            options.table = value();
        } else if (arg == "--op") {
            options.operations = value();
        } else if (arg == "--domain") {
            options.domain = static_cast<uint32_t>(parseNumber(value(), arg));
        } else if (arg == "--since") {
            options.since = value();
        } else if (arg == "--till") {
            options.till = value();
        } else if (arg == "--key") {
            options.key = value();
        } else if (arg == "--position-only") {
            options.positionOnly = true;
        } else if (arg == "--limit") {
            options.limit = parseNumber(value(), arg);
        } else if (arg == "--downstream") {
            options.downstream = value();
        } else if (arg == "--downstream-user") {
            options.downstreamUser = value();
        } else if (arg == "--downstream-password-file") {
            options.downstreamPasswordFile = value();
        } else if (arg.starts_with("--")) {
            throw UsageError("unknown option " + arg);
        } else {
            options.files.push_back(arg);
        }
    }
    if (options.server.empty() == options.files.empty()) {
        throw UsageError("give either binlog FILEs or --server HOST:PORT");
    }
    if (!options.server.empty() && (options.user.empty() || options.passwordFile.empty())) {
        throw UsageError("--server needs --user and --password-file");
    }
    if (options.server.empty() && (!options.user.empty() || !options.passwordFile.empty())) {
        throw UsageError("--user and --password-file need --server");
    }
    const bool anyDownstream =
        !options.downstream.empty() || !options.downstreamUser.empty() || !options.downstreamPasswordFile.empty();
    const bool allDownstream =
        !options.downstream.empty() && !options.downstreamUser.empty() && !options.downstreamPasswordFile.empty();
    if (anyDownstream && !allDownstream) {
        throw UsageError("--downstream, --downstream-user and --downstream-password-file go together");
    }
    if (!options.downstream.empty()) {
        if (options.server.empty()) {
            throw UsageError("--downstream checks rows of the upstream's binlog: give --server, not files");
        }
        if (options.limit > kMaxCheckedTransactions) {
            throw UsageError("--downstream checks a page at a time: --limit at most " +
                             std::to_string(kMaxCheckedTransactions));
        }
        if (options.limit == 0) {
            options.limit = kDefaultCheckedTransactions;
        }
    }
    return options;
}

browse::BrowseFilter filterOf(const EventsOptions& options) {
    browse::BrowseFilter filter;
    if (!options.table.empty()) {
        size_t dot = options.table.find('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == options.table.size()) {
            throw UsageError("--table '" + options.table + "' is not DB.TABLE");
        }
        filter.schema = options.table.substr(0, dot);
        filter.table = options.table.substr(dot + 1);
    }
    if (!options.operations.empty()) {
        try {
            filter.operations = browse::BrowseFilter::parseOperations(options.operations);
        } catch (const browse::BrowseError& e) {
            throw UsageError(std::string("--op: ") + e.what());
        }
    }
    filter.gtidDomain = options.domain;
    if (!options.since.empty()) {
        filter.fromTime = parseTime(options.since, "--since");
    }
    if (!options.till.empty()) {
        filter.toTime = parseTime(options.till, "--till");
    }
    filter.keyValue = options.key;
    filter.rowImages = options.rows;
    filter.showSecrets = options.showSecrets;
    return filter;
}

// --position-only: where a time resolves to, as `resume-from` and `--from` take it.
void printPosition(const browse::FoundTransaction& found, bool json) {
    if (json) {
        std::string line = "{\"file\":";
        binlog::appendJsonString(line, found.start.file);
        line += ",\"pos\":" + std::to_string(found.start.offset) + ",\"gtid\":";
        binlog::appendJsonString(line, found.gtid);
        line += ",\"time\":";
        binlog::appendJsonString(line, browse::formatLocalTime(found.timestamp));
        line += ",\"files_probed\":" + std::to_string(found.filesProbed) + "}\n";
        std::cout << line;
        return;
    }
    std::cout << found.start.toString() << (found.gtid.empty() ? std::string() : " " + found.gtid) << " "
              << browse::formatLocalTime(found.timestamp) << '\n';
}

std::unique_ptr<browse::BinlogHistory> historyOf(const EventsOptions& options) {
    if (!options.files.empty()) {
        return std::make_unique<browse::LocalBinlogHistory>(
            std::vector<std::filesystem::path>(options.files.begin(), options.files.end()));
    }
    try {
        return std::make_unique<browse::ServerBinlogHistory>(
            serverFromOptions("--server", options.server, options.user, options.passwordFile));
    } catch (const ServerOptionError& e) {
        throw UsageError(e.what());
    }
}

int runEvents(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kEventsUsage;
        return kExitOk;
    }
    EventsOptions options;
    browse::BrowseFilter filter;
    browse::StartPoint start;
    browse::BrowseRange range;
    try {
        options = parseOptions(args);
        filter = filterOf(options);
        start = browse::parseStartPoint(options.from);
        if (options.positionOnly && start.kind != browse::StartPoint::Kind::Time) {
            throw UsageError("--position-only goes with --from 'YYYY-MM-DD HH:MM:SS'");
        }
        if (!options.to.empty()) {
            auto to = browse::parseStartPoint(options.to);
            if (to.kind != browse::StartPoint::Kind::Position) {
                throw UsageError("--to '" + options.to + "' is not FILE:POS");
            }
            range.stopAt = to.position;
        }
    } catch (const std::runtime_error& e) {
        std::cerr << "syncscope-cli events: " << e.what() << "\n\n" << kEventsUsage;
        return kExitUsage;
    }
    std::ios::sync_with_stdio(false);
    try {
        auto history = historyOf(options);
        auto files = history->files();
        if (range.stopAt && range.stopAt->file.empty()) {
            range.stopAt->file = files.back().file;
        }
        if (options.positionOnly) {
            printPosition(browse::PointResolver(*history).firstTransactionAtOrAfter(start.time), options.json);
            return kExitOk;
        }
        auto opened = browse::openFrom(*history, start);
        if (opened.resolvedTime) {
            const auto& found = *opened.resolvedTime;
            std::cerr << "# " << start.text << " -> the first transaction at or after it: "
                      << (found.gtid.empty() ? std::string() : found.gtid + " ") << "at " << found.start.toString()
                      << " (" << browse::formatLocalTime(found.timestamp) << "), found probing " << found.filesProbed
                      << " of " << files.size() << " files\n";
        }
        range.skipUpToGtid = opened.skipUpToGtid;
        if (options.progress) {
            range.progressEvery = kProgressEvery;
            range.onProgress = [](const browse::BrowseProgress& progress) {
                std::cerr << "# read " << progress.eventsRead << " events, " << progress.transactionsRead
                          << " transactions, at " << progress.at.toString() << '\n';
            };
        }
        EventsPrinter printer(std::cout, options.json ? EventsPrinter::Format::JsonLines : EventsPrinter::Format::Text,
                              options.limit);
        browse::EventBrowser browser(filter, files);
        if (options.downstream.empty()) {
            browser.browse(*opened.stream, printer, range);
        } else {
            DownstreamCheckSink checked(printer);
            browser.browse(*opened.stream, checked, range);
            std::cout.flush();
            checked.checkAndPrint(serverFromOptions("--server", options.server, options.user, options.passwordFile),
                                  serverFromOptions("--downstream", options.downstream, options.downstreamUser,
                                                    options.downstreamPasswordFile),
                                  filter, options.json, std::cout);
        }
        std::cout.flush();
        return kExitOk;
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli events: " << e.what() << "\n\n" << kEventsUsage;
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << "syncscope-cli events: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kEventsCommand({"events", "browse a binlog by transaction, with filters and row history",
                                          runEvents});

}  // namespace
}  // namespace syncscope::cli
