#include "sim/solver.h"

namespace sim {

std::unique_ptr<Solver> makeSequentialSolver();

std::unique_ptr<Solver> makeSolver(SolverKind kind) {
    switch (kind) {
        case SolverKind::Sst: return makeSequentialSolver();
        default: return nullptr;  // parallel modes: see issue #3
    }
}

}  // namespace sim
