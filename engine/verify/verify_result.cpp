#include "engine/verify/verify_result.h"

namespace syncscope::verify {

const char* differenceKindName(DifferenceKind kind) {
    switch (kind) {
        case DifferenceKind::Missing:
            return "missing";
        case DifferenceKind::Extra:
            return "extra";
        case DifferenceKind::Different:
            return "different";
    }
    return "different";
}

const char* tableOutcomeName(TableOutcome outcome) {
    switch (outcome) {
        case TableOutcome::Equal:
            return "equal";
        case TableOutcome::Different:
            return "different";
        case TableOutcome::Failed:
            return "failed";
        case TableOutcome::Cancelled:
            return "cancelled";
    }
    return "failed";
}

}  // namespace syncscope::verify
