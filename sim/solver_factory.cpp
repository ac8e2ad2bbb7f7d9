#include "sim/solver.h"

namespace sim {

std::unique_ptr<Solver> makeSequentialSolver();
std::unique_ptr<Solver> makeJacobiSolver();
std::unique_ptr<Solver> makeColoringSolver();
std::unique_ptr<Solver> makeHybridSolver();

std::unique_ptr<Solver> makeSolver(SolverKind kind) {
    switch (kind) {
        case SolverKind::Sst: return makeSequentialSolver();
        case SolverKind::Jacobi: return makeJacobiSolver();
        case SolverKind::Coloring: return makeColoringSolver();
        case SolverKind::Hybrid: return makeHybridSolver();
    }
    return nullptr;
}

}  // namespace sim
