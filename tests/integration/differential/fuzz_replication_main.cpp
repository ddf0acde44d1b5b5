// syncscope-fuzz-replication: the randomized differential replication test by hand (scripts/fuzz-replication
// starts the three servers and calls it). Each case prints its seed; a failing case is shrunk to its
// smallest failing workload and reported (stdout, and appended to --report FILE).
#include <QCoreApplication>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include "tests/integration/differential/case_report.h"
#include "tests/integration/differential/case_runner.h"
#include "tests/integration/differential/shrinker.h"

using namespace syncscope::differential;

namespace {

constexpr const char* kUsage =
    "usage: syncscope-fuzz-replication [--seed N | --first-seed N] [--cases N | --minutes M]\n"
    "         [--features LIST] [--keep STEPS] [--shrink-seconds S] [--report FILE] [--work-dir DIR]\n"
    "         [--steps MIN-MAX] [--faults N] [--catch-up S] [--catch-up-cap S]\n"
    "         [--commit TEXT] [--verbose]\n"
    "  --catch-up: seconds the engine may go without progress before the upstream's end (default 120)\n"
    "  --catch-up-cap: seconds it may take to reach that end while progressing (default 1800)\n"
    "  --features: comma list, 'all', 'stable' (default; or SYNCSCOPE_FUZZ_FEATURES), 'all,-xa'\n"
    "  --keep: step numbers to run, e.g. 3,5-9 (a shrunk case; with --seed)\n";
constexpr double kDefaultShrinkSeconds = 600;

struct Arguments {
    uint64_t firstSeed = 0;
    bool seedGiven = false;
    int cases = 1;
    double minutes = 0;
    std::string features = "stable";
    std::string keep;
    double shrinkSeconds = kDefaultShrinkSeconds;
    std::string report;
    std::string workDir = "/tmp/syncscope-fuzz-work";
    WorkloadSize size;
    int catchUp = 120;
    int catchUpCap = 1800;
    std::string commit = "this build";
    bool verbose = false;
};

Arguments parse(int argc, char** argv) {
    Arguments a;
    if (const char* env = std::getenv("SYNCSCOPE_FUZZ_FEATURES"); env != nullptr && *env != '\0') {
        a.features = env;
    }
    a.firstSeed = std::random_device{}() % 1000000000ULL;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw std::invalid_argument(arg + " needs a value");
            }
            return argv[++i];
        };
        if (arg == "--seed") {
            a.firstSeed = std::stoull(next());
            a.seedGiven = true;
            a.cases = 1;
        } else if (arg == "--first-seed") {
            a.firstSeed = std::stoull(next());
        } else if (arg == "--cases") {
            a.cases = std::stoi(next());
        } else if (arg == "--minutes") {
            a.minutes = std::stod(next());
        } else if (arg == "--features") {
            a.features = next();
        } else if (arg == "--keep") {
            a.keep = next();
        } else if (arg == "--shrink-seconds") {
            a.shrinkSeconds = std::stod(next());
        } else if (arg == "--report") {
            a.report = next();
        } else if (arg == "--work-dir") {
            a.workDir = next();
        } else if (arg == "--steps") {
            std::string range = next();
            size_t dash = range.find('-');
            a.size.minSteps = std::stoi(range.substr(0, dash));
            a.size.maxSteps = dash == std::string::npos ? a.size.minSteps : std::stoi(range.substr(dash + 1));
        } else if (arg == "--faults") {
            a.size.maxFaults = std::stoi(next());
        } else if (arg == "--catch-up") {
            a.catchUp = std::stoi(next());
        } else if (arg == "--catch-up-cap") {
            a.catchUpCap = std::stoi(next());
        } else if (arg == "--commit") {
            a.commit = next();
        } else if (arg == "--verbose") {
            a.verbose = true;
        } else {
            throw std::invalid_argument("unknown argument '" + arg + "'");
        }
    }
    return a;
}

// A catch-up longer than the stall window is shown with its rate: a slow case is not a divergence, but a
// DBA's setting (a small batch against a large transaction) that makes one should not go unseen.
std::string slowNote(const CaseOutcome& outcome, const RunOptions& options) {
    if (!outcome.slowCatchUp(options)) {
        return {};
    }
    const double rate = outcome.catchUpSeconds > 0 ? outcome.catchUpRows / outcome.catchUpSeconds : 0;
    return "; SLOW catch-up: " + std::to_string(static_cast<int>(outcome.catchUpSeconds)) + " s, " +
           std::to_string(outcome.catchUpRows) + " rows at " + std::to_string(static_cast<int>(rate)) + " rows/s";
}

// A divergence's files are kept before the shrinker's runs overwrite them: the engine's logs and task files
// and the upstream's binlog (the work folder's sibling "up/binlog", where scripts/fuzz-replication keeps it).
void keepCaseFiles(const std::string& workDir, uint64_t seed) {
    namespace fs = std::filesystem;
    const fs::path kept = fs::path(workDir).string() + "-diverged-" + std::to_string(seed);
    std::error_code error;
    fs::remove_all(kept, error);
    fs::create_directories(kept, error);
    fs::copy(workDir, kept / "work", fs::copy_options::recursive, error);
    const fs::path binlog = fs::path(workDir).parent_path() / "up" / "binlog";
    if (fs::exists(binlog)) {
        fs::copy(binlog, kept / "up-binlog", fs::copy_options::recursive, error);
    }
    std::cout << "  the case's files are kept in " << kept.string()
              << (error ? " (some could not be copied: " + error.message() + ")" : std::string()) << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    Arguments args;
    FeatureSet features;
    try {
        args = parse(argc, argv);
        features = parseFeatures(args.features);
    } catch (const std::exception& e) {
        std::cerr << "syncscope-fuzz-replication: " << e.what() << "\n" << kUsage;
        return 2;
    }
    RunOptions options;
    options.workDir = args.workDir;
    options.catchUpSeconds = args.catchUp;
    options.catchUpCapSeconds = args.catchUpCap;
    options.verbose = args.verbose;
    std::cout << "features: " << featureList(features) << "\n";

    auto started = std::chrono::steady_clock::now();
    auto timeLeft = [&] {
        return args.minutes <= 0 ||
               std::chrono::steady_clock::now() - started < std::chrono::duration<double>(args.minutes * 60);
    };
    int cases = 0, failed = 0, oracleProblems = 0, faults = 0, steps = 0, refused = 0, slow = 0;
    for (uint64_t seed = args.firstSeed; (args.minutes > 0 ? timeLeft() : cases < args.cases); ++seed) {
        CaseSpec spec = generateCase(seed, features, args.size);
        std::vector<int> keep = parseStepList(args.keep);
        std::cout << "case " << cases + 1 << ": seed " << seed << " (" << caseSummary(spec) << ")" << std::endl;
        CaseOutcome outcome;
        try {
            outcome = runCase(spec, keep, options);
        } catch (const std::exception& e) {
            outcome.oracleProblem = std::string("harness error: ") + e.what();
        }
        ++cases;
        faults += outcome.faults;
        steps += outcome.stepsRun;
        refused += outcome.stepsFailedUpstream;
        if (!outcome.oracleProblem.empty()) {
            ++oracleProblems;
            std::cout << "  NOT JUDGED: " << outcome.oracleProblem << std::endl;
            continue;
        }
        if (outcome.slowCatchUp(options)) {
            ++slow;
        }
        if (outcome.passed()) {
            std::cout << "  equal (" << outcome.stepsRun << " steps, " << outcome.stepsFailedUpstream
                      << " refused upstream, " << outcome.faults << " faults, " << static_cast<int>(outcome.seconds)
                      << " s)" << slowNote(outcome, options) << std::endl;
            continue;
        }
        ++failed;
        std::cout << "  DIVERGED: " << outcome.divergences.front().kind << ": " << outcome.divergences.front().detail
                  << std::endl;
        keepCaseFiles(options.workDir, seed);
        ShrinkResult shrunk{keep, outcome, 0};
        if (args.shrinkSeconds > 0) {
            shrunk = shrinkCase(spec, outcome.divergences.front().kind, outcome, options, args.shrinkSeconds,
                                [](const std::string& line) { std::cout << "  " << line << std::endl; });
        }
        std::string report = divergenceReport(spec, shrunk.kept, shrunk.outcome, shrunk.runs, args.commit);
        std::cout << report << std::endl;
        if (!args.report.empty()) {
            std::ofstream(args.report, std::ios::app) << report;
        }
    }
    std::cout << "cases " << cases << ", diverged " << failed << ", not judged " << oracleProblems
              << ", slow catch-ups " << slow << ", steps " << steps << " (" << refused
              << " refused upstream), faults injected " << faults << ", "
              << static_cast<int>(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count())
              << " s" << std::endl;
    return failed == 0 && oracleProblems == 0 ? 0 : 1;
}
