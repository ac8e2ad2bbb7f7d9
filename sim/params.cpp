#include "sim/params.h"

#include <cmath>
#include <sstream>

namespace sim {

namespace {
constexpr std::array<std::string_view, kFamilyCount> kFamilyNames = {
    "fiber", "structure", "volume", "contact", "sliding", "plane", "tissue", "fascia"};
constexpr std::array<std::string_view, 4> kSolverNames = {"sst", "jacobi", "coloring", "hybrid"};
constexpr std::array<std::string_view, 3> kModeNames = {"xpbd", "pbd", "pbd-raw"};
constexpr std::array<std::string_view, 2> kFiberFormNames = {"paper", "projected"};
constexpr std::array<std::string_view, 2> kContactModelNames = {"spec", "limb"};

template <typename E, size_t N>
std::optional<E> parseName(const std::array<std::string_view, N>& names, std::string_view s) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == s) return static_cast<E>(i);
    return std::nullopt;
}

template <size_t N>
std::string joinNames(const std::array<std::string_view, N>& names, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < N; ++i) {
        if (i) out += sep;
        out += names[i];
    }
    return out;
}
}  // namespace

std::string_view familyName(Family f) { return kFamilyNames[static_cast<int>(f)]; }
std::string familyList(std::string_view sep) { return joinNames(kFamilyNames, sep); }
std::string solverList(std::string_view sep) { return joinNames(kSolverNames, sep); }
std::string modeList(std::string_view sep) { return joinNames(kModeNames, sep); }
std::string fiberFormList(std::string_view sep) { return joinNames(kFiberFormNames, sep); }
std::string contactModelList(std::string_view sep) { return joinNames(kContactModelNames, sep); }
std::string_view contactModelName(ContactModel c) { return kContactModelNames[static_cast<int>(c)]; }
std::optional<ContactModel> parseContactModel(std::string_view s) {
    return parseName<ContactModel>(kContactModelNames, s);
}
std::span<const std::string_view> solverNames() { return kSolverNames; }
std::optional<Family> parseFamily(std::string_view s) { return parseName<Family>(kFamilyNames, s); }
std::string_view solverName(SolverKind s) { return kSolverNames[static_cast<int>(s)]; }
std::optional<SolverKind> parseSolver(std::string_view s) { return parseName<SolverKind>(kSolverNames, s); }
std::string_view modeName(ConstraintMode m) { return kModeNames[static_cast<int>(m)]; }
std::optional<ConstraintMode> parseMode(std::string_view s) { return parseName<ConstraintMode>(kModeNames, s); }
std::string_view fiberFormName(FiberForm f) { return kFiberFormNames[static_cast<int>(f)]; }
std::optional<FiberForm> parseFiberForm(std::string_view s) {
    return parseName<FiberForm>(kFiberFormNames, s);
}

FamilyStiffness FamilyStiffness::unset() {
    FamilyStiffness s;
    s.k.fill(-1.0f);
    return s;
}

FamilyStiffness FamilyStiffness::xpbdDefaults() {
    // Our choice, tuned on the built-in scenes: surface fibres stiff enough
    // that a resting muscle keeps its shape under gravity at 10 iterations;
    // the internal structure (spokes, medulla) soft, so the activated muscle
    // can bulge around a contracting core instead of locking up against its
    // own spokes (0.1 N/m at 1 substep gives α̃ ≈ 9000, comparable to a
    // particle's inverse mass); volume nearly incompressible; contacts and
    // planes hard; sliding connections soft so layers can slide. Muscle
    // against muscle (tissue) is compliant: with hard two-sided contacts a
    // thin muscle squeezed between two bulkier ones (the supinator in the
    // flexing elbow of T5) was crushed inside out (volume ratio 0.40..1.54
    // over the flexion); at 0.1 N/m the squeeze is shared with the volume
    // constraint.
    FamilyStiffness s;
    s[Family::Fiber] = 2.0e4f;
    s[Family::Structure] = 0.1f;
    s[Family::Volume] = 1.0e7f;
    s[Family::Contact] = kInfiniteStiffness;
    s[Family::Sliding] = 50.0f;
    s[Family::Plane] = kInfiniteStiffness;
    s[Family::Tissue] = 0.1f;
    // The fascia holds muscles inside the limb firmly but not rigidly (its
    // value measured on T5–T7: docs/lab/fascia-envelope.md).
    s[Family::Fascia] = 1.0e3f;
    return s;
}

FamilyStiffness FamilyStiffness::pbdDefaults() {
    FamilyStiffness s;
    s[Family::Fiber] = 1.0f;
    s[Family::Structure] = 1.0f;
    s[Family::Volume] = 1.0f;
    s[Family::Contact] = 1.0f;
    s[Family::Sliding] = 0.1f;
    s[Family::Plane] = 1.0f;
    s[Family::Tissue] = 0.5f;
    s[Family::Fascia] = 1.0f;
    return s;
}

// Every value accepted must survive the first step: one frame of free fall
// moves a particle at most |gravity| · gravity_scale (≤ 10) · dt² = 10⁴ m at
// the bounds, below the NaN guard's blow-up distance (10⁵ m, sim/solver.h);
// dt up to 10⁶ s or gravity up to 10³⁰ m/s² tripped the guard at frame 0.
const std::array<NumericParam, 12>& numericParams() {
    static const std::array<NumericParam, 12> table = {{
        {"iterations", "solver", "constraint iterations per substep", 1, 1000, true,
         [](const SolverParams& p) { return double(p.iterations); },
         [](SolverParams& p, double v) { p.iterations = int(v); }},
        {"substeps", "solver", "substeps per animation frame", 1, 100, true,
         [](const SolverParams& p) { return double(p.substeps); },
         [](SolverParams& p, double v) { p.substeps = int(v); }},
        {"threads", "solver", "worker threads (0 = all cores)", 0, 256, true,
         [](const SolverParams& p) { return double(p.threads); },
         [](SolverParams& p, double v) { p.threads = int(v); }},
        {"dt", "time", "animation frame length in seconds", 1e-5, 1, false,
         [](const SolverParams& p) { return double(p.frame_dt); },
         [](SolverParams& p, double v) { p.frame_dt = float(v); }},
        {"damping", "material", "velocity damping (1/s)", 0, 1000, false,
         [](const SolverParams& p) { return double(p.damping); },
         [](SolverParams& p, double v) { p.damping = float(v); }},
        {"carry", "material", "share of the bones' acceleration the muscles take on (0 = free inertia, 1 = carried)", 0, 1, false,
         [](const SolverParams& p) { return double(p.carry); },
         [](SolverParams& p, double v) { p.carry = float(v); }},
        {"gravity", "material", "gravity along +Y (m/s^2; -9.81 is Earth)", -1000, 1000, false,
         [](const SolverParams& p) { return double(p.gravity.y); },
         [](SolverParams& p, double v) { p.gravity = glm::vec3(0.0f, float(v), 0.0f); }},
        {"omega", "solver", "Jacobi over-relaxation", 1, 2, false,
         [](const SolverParams& p) { return double(p.omega); },
         [](SolverParams& p, double v) { p.omega = float(v); }},
        {"activation-tau", "activation", "activation filter time constant (s)", 0, 1, false,
         [](const SolverParams& p) { return double(p.activation_tau); },
         [](SolverParams& p, double v) { p.activation_tau = float(v); }},
        {"contact-radius", "contacts", "contact offset r (m)", 0, 0.05, false,
         [](const SolverParams& p) { return double(p.contact_radius); },
         [](SolverParams& p, double v) { p.contact_radius = float(v); }},
        {"hybrid-groups", "solver", "hybrid: colour groups k (k-1 colours + Jacobi overflow)", 2, 256,
         true, [](const SolverParams& p) { return double(p.hybrid_groups); },
         [](SolverParams& p, double v) { p.hybrid_groups = int(v); }},
        {"search-every", "contacts", "substeps between full contact searches (0 = once per frame, 1 = every substep)", 0, 100,
         true, [](const SolverParams& p) { return double(p.search_every); },
         [](SolverParams& p, double v) { p.search_every = int(v); }},
    }};
    return table;
}

const NumericParam* findNumericParam(std::string_view name) {
    for (const auto& p : numericParams())
        if (name == p.name) return &p;
    return nullptr;
}

StiffnessRange stiffnessRange(ConstraintMode mode, Family f) {
    // One row per family (every family shares the same XPBD bounds today).
    static constexpr std::array<StiffnessRange, kFamilyCount> kXpbd = {{
        {1e-6, 1e12, true},  // fiber
        {1e-6, 1e12, true},  // structure
        {1e-6, 1e12, true},  // volume
        {1e-6, 1e12, true},  // contact
        {1e-6, 1e12, true},  // sliding
        {1e-6, 1e12, true},  // plane
        {1e-6, 1e12, true},  // tissue
        {1e-6, 1e12, true},  // fascia
    }};
    if (mode != ConstraintMode::Xpbd) return {0.0, 1.0, false};
    return kXpbd[static_cast<size_t>(fi(f))];
}

std::string describeStiffnessRange(ConstraintMode mode, Family f) {
    const StiffnessRange r = stiffnessRange(mode, f);
    std::ostringstream os;
    os << "[" << r.min << ", " << r.max << "]" << (r.infinite ? " or inf" : "");
    return os.str();
}

std::string validateStiffness(ConstraintMode mode, Family f, double k) {
    std::ostringstream os;
    const StiffnessRange r = stiffnessRange(mode, f);
    // As the float the value becomes (a bound printed is accepted given back);
    // a finite value beyond the float range is out of range, not ∞.
    const float kf = float(k);
    const bool hard = std::isinf(k) && k > 0.0;
    const bool inside = std::isfinite(kf) && kf >= float(r.min) && kf <= float(r.max);
    if (std::isnan(k)) {
        os << "stiffness " << familyName(f) << " is not a number";
    } else if (!inside && !(hard && r.infinite)) {
        os << "stiffness " << familyName(f) << "=" << k << " out of range: " << modeName(mode) << " needs k in "
           << describeStiffnessRange(mode, f);
    }
    return os.str();
}

std::string validate(const SolverParams& p) {
    for (const auto& np : numericParams()) {
        double v = np.get(p);
        // Real-valued parameters are stored as float: the bounds as floats too,
        // so a bound printed by --help (0.05) is accepted when given back.
        const double lo = np.integer ? np.min : double(float(np.min));
        const double hi = np.integer ? np.max : double(float(np.max));
        if (!(v >= lo && v <= hi)) {
            std::ostringstream os;
            os << np.name << "=" << v << " out of range [" << np.min << ", " << np.max << "]";
            return os.str();
        }
    }
    for (int i = 0; i < kFamilyCount; ++i) {
        auto f = static_cast<Family>(i);
        if (auto e = validateStiffness(ConstraintMode::Xpbd, f, p.xpbd_stiffness[f]); !e.empty()) return e;
        if (auto e = validateStiffness(ConstraintMode::Pbd, f, p.pbd_stiffness[f]); !e.empty()) return e;
    }
    return {};
}

}  // namespace sim
