// Solver parameters, declared once with their ranges so that the command line,
// presets and the UI all validate (and describe) them the same way.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <glm/vec3.hpp>

namespace sim {

// Constraint families with a user-facing stiffness (attachments are always hard).
// Contact: a muscle against a bone (rigid, hard by default); Tissue: a muscle
// against another muscle (soft tissue on soft tissue, compliant by default).
// Fascia: a muscle against the envelope around the limb (docs/model.md §3.8),
// one-sided and compliant.
enum class Family : uint8_t { Fiber, Structure, Volume, Contact, Sliding, Plane, Tissue, Fascia, Count };
constexpr int kFamilyCount = static_cast<int>(Family::Count);
// Index of a family in per-family arrays.
constexpr int fi(Family f) { return static_cast<int>(f); }
// Every family's name joined by `sep` ("fiber, structure, ..., tissue"), for
// help texts and messages: the names come from one table (sim/params.cpp).
std::string familyList(std::string_view sep = ", ");
std::string_view familyName(Family f);
std::optional<Family> parseFamily(std::string_view name);

constexpr float kInfiniteStiffness = std::numeric_limits<float>::infinity();

// One stiffness per family. XPBD: k in N/m-like units, α = 1/k, k = ∞ is hard.
// PBD: k ∈ [0, 1] (fraction of the correction per solve, Müller 2007).
struct FamilyStiffness {
    std::array<float, kFamilyCount> k{};
    float& operator[](Family f) { return k[static_cast<int>(f)]; }
    float operator[](Family f) const { return k[static_cast<int>(f)]; }
    static FamilyStiffness unset();        // every entry negative: "use the default"
    static FamilyStiffness xpbdDefaults();
    static FamilyStiffness pbdDefaults();
};

enum class SolverKind : uint8_t { Sst, Jacobi, Coloring, Hybrid };
// XPBD (Macklin 2016); PBD with the iteration-corrected stiffness
// k' = 1 − (1 − k)^(1/n) (Müller 2007, docs/model.md §3); and PBD with k applied raw at
// every iteration (the original formulation, whose stiffness grows with the
// iteration count — the contrast of the students' study).
enum class ConstraintMode : uint8_t { Xpbd, Pbd, PbdRaw };
enum class FiberForm : uint8_t { Paper, Projected };
// Which contact model holds the muscles in the limb: the specification's
// contacts alone (spec), or with the fascia envelope around them (limb,
// docs/model.md §3.8), kept for comparison.
enum class ContactModel : uint8_t { Spec, Limb };

std::string_view solverName(SolverKind s);
std::optional<SolverKind> parseSolver(std::string_view name);
std::string_view modeName(ConstraintMode m);
std::optional<ConstraintMode> parseMode(std::string_view name);
std::string_view fiberFormName(FiberForm f);
std::optional<FiberForm> parseFiberForm(std::string_view name);
std::string_view contactModelName(ContactModel c);
std::optional<ContactModel> parseContactModel(std::string_view name);
// The valid names joined by `sep`, for help texts, errors and presets (the
// same tables parse*() read, so a new entry shows up everywhere at once).
std::string solverList(std::string_view sep = ", ");
std::string modeList(std::string_view sep = ", ");
std::string fiberFormList(std::string_view sep = ", ");
std::string contactModelList(std::string_view sep = ", ");
std::span<const std::string_view> solverNames();

struct SolverParams {
    SolverKind solver = SolverKind::Sst;
    ConstraintMode mode = ConstraintMode::Xpbd;
    FiberForm fiber_form = FiberForm::Projected;
    ContactModel contacts = ContactModel::Limb;
    int iterations = 10;
    int substeps = 1;
    int threads = 0;  // 0 = all cores
    float frame_dt = 1.0f / 30.0f;
    float damping = 1.0f;          // 1/s, velocity damping
    // Share of the bones' acceleration the muscles take on in the prediction
    // (0: docs/model.md §2's p = x + Δt·v; 1: tissue moves with its carrier bones and
    // keeps only its own motion relative to them, as fascia and skin hold
    // it). Our addition; scenes with violent moves ask for 1 (T6: a strike
    // swings the elbow 120° in 0.15 s, and without it the solve drags the
    // muscles centimetres after their bones and crushes them against them).
    float carry = 0.0f;
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    float omega = 1.5f;            // Jacobi over-relaxation ∈ [1, 2]
    float activation_tau = 0.03f;  // s, first-order activation filter
    float contact_radius = 0.002f; // m, r in C = (p − q)·n − r ≥ 0
    int hybrid_groups = 8;         // k colour groups in the hybrid solver
    // Substeps between two full contact searches (docs/model.md §3.6): 0 =
    // once per frame, at its first substep; 1 = every substep. In between, the
    // contacts found are kept and their planes move with their triangles.
    int search_every = 0;
    FamilyStiffness xpbd_stiffness = FamilyStiffness::xpbdDefaults();
    FamilyStiffness pbd_stiffness = FamilyStiffness::pbdDefaults();

    const FamilyStiffness& stiffness() const {
        return mode == ConstraintMode::Xpbd ? xpbd_stiffness : pbd_stiffness;
    }
    bool pbd() const { return mode != ConstraintMode::Xpbd; }
    FamilyStiffness& stiffness() {
        return mode == ConstraintMode::Xpbd ? xpbd_stiffness : pbd_stiffness;
    }
};

// Numeric parameter table: name, range, group and description, used by the
// command line, presets and the UI. Access goes through a member pointer so
// there is a single source of truth for each value.
struct NumericParam {
    const char* name;
    const char* group;
    const char* description;
    double min, max;
    bool integer;
    double (*get)(const SolverParams&);
    void (*set)(SolverParams&, double);
};
const std::array<NumericParam, 12>& numericParams();
const NumericParam* findNumericParam(std::string_view name);

// Validates a whole parameter set; returns an error message or empty.
std::string validate(const SolverParams& p);

// The stiffness a family accepts in a mode, the one bound shared by the command
// line, presets, the viewer and scene files (glTF extras): XPBD k in [min, max]
// or ∞ (hard); PBD k in [0, 1]. The XPBD floor keeps α̃ = 1/(k·Δt²) finite as
// a float at the smallest substep (Δt = 10⁻⁵ s / 100 substeps: α̃ ≤ 10²⁰); a
// k such as 1e-45 (a float denormal) made α̃ infinite and the first step NaN.
struct StiffnessRange {
    double min, max;  // compared as the float the value becomes
    bool infinite;  // ∞ (hard) is accepted too
};
StiffnessRange stiffnessRange(ConstraintMode mode, Family f);
// "[1e-06, 1e+12] or inf" / "[0, 1]": the range as messages and help print it.
std::string describeStiffnessRange(ConstraintMode mode, Family f);
// Range check for a stiffness value in a mode; returns an error message
// ("stiffness fiber=1e-45 out of range: xpbd needs k in [1e-06, 1e+12] or inf") or empty.
std::string validateStiffness(ConstraintMode mode, Family f, double k);

}  // namespace sim
