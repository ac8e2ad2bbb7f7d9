// glTF animation sampling (glTF 2.0 spec, Appendix C "Interpolation").
#include "engine/scene/animation.h"

#include <algorithm>
#include <cmath>

namespace engine {

double Animation::duration() const {
    double d = 0.0;
    for (const AnimationChannel& c : channels)
        if (!c.times.empty()) d = std::max(d, static_cast<double>(c.times.back()));
    return d;
}

namespace {

glm::vec4 normalizeQuat(glm::vec4 q) {
    float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0.0f) || !std::isfinite(n)) return {0.0f, 0.0f, 0.0f, 1.0f};
    return q / n;
}

// Spherical interpolation along the short path; falls back to normalised lerp
// for nearly parallel quaternions.
glm::vec4 slerpShort(glm::vec4 a, glm::vec4 b, double s) {
    double d = double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w;
    if (d < 0.0) {
        b = -b;
        d = -d;
    }
    double wa, wb;
    if (d > 0.9995) {
        wa = 1.0 - s;
        wb = s;
    } else {
        double theta = std::acos(std::min(1.0, d));
        double sn = std::sin(theta);
        wa = std::sin((1.0 - s) * theta) / sn;
        wb = std::sin(s * theta) / sn;
    }
    glm::vec4 r(float(wa * a.x + wb * b.x), float(wa * a.y + wb * b.y), float(wa * a.z + wb * b.z),
                float(wa * a.w + wb * b.w));
    return normalizeQuat(r);
}

}  // namespace

glm::vec4 sampleChannel(const AnimationChannel& c, double t) {
    const bool cubic = c.interpolation == Interpolation::CubicSpline;
    const size_t stride = cubic ? 3 : 1;
    const size_t n = std::min(c.times.size(), c.values.size() / stride);
    const bool rot = c.path == ChannelPath::Rotation;
    auto value = [&](size_t k) { return c.values[k * stride + (cubic ? 1 : 0)]; };
    if (n == 0) return rot ? glm::vec4(0, 0, 0, 1) : glm::vec4(0.0f);
    if (!(t > double(c.times[0])) || n == 1) return rot ? normalizeQuat(value(0)) : value(0);
    if (t >= double(c.times[n - 1])) return rot ? normalizeQuat(value(n - 1)) : value(n - 1);
    // k: last key with times[k] <= t (t is strictly inside the range here).
    size_t k = size_t(std::upper_bound(c.times.begin(), c.times.begin() + n, float(t)) - c.times.begin());
    k = k == 0 ? 0 : k - 1;
    while (k + 1 < n && double(c.times[k + 1]) <= t) ++k;  // float(t) rounding guard
    while (k > 0 && double(c.times[k]) > t) --k;
    const double t0 = c.times[k], t1 = c.times[k + 1];
    const double td = t1 - t0;
    const double s = td > 0.0 ? std::clamp((t - t0) / td, 0.0, 1.0) : 0.0;
    switch (c.interpolation) {
        case Interpolation::Step:
            return rot ? normalizeQuat(value(k)) : value(k);
        case Interpolation::Linear: {
            if (rot) return slerpShort(value(k), value(k + 1), s);
            glm::vec4 a = value(k), b = value(k + 1);
            return glm::vec4(glm::dvec4(a) * (1.0 - s) + glm::dvec4(b) * s);
        }
        case Interpolation::CubicSpline: {
            const glm::dvec4 p0 = c.values[3 * k + 1];
            const glm::dvec4 m0 = glm::dvec4(c.values[3 * k + 2]) * td;        // out-tangent of k
            const glm::dvec4 p1 = c.values[3 * (k + 1) + 1];
            const glm::dvec4 m1 = glm::dvec4(c.values[3 * (k + 1) + 0]) * td;  // in-tangent of k+1
            const double s2 = s * s, s3 = s2 * s;
            glm::dvec4 r = (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 +
                           (s3 - s2) * m1;
            return rot ? normalizeQuat(glm::vec4(r)) : glm::vec4(r);
        }
    }
    return value(k);
}

void sampleWeights(const AnimationChannel& c, double t, std::span<float> out) {
    const bool cubic = c.interpolation == Interpolation::CubicSpline;
    const size_t stride = cubic ? 3 : 1;
    const size_t width = size_t(std::max(c.width, 0));
    const size_t m = std::min(width, out.size());
    if (width == 0 || m == 0) return;
    const size_t n = std::min(c.times.size(), c.weights.size() / (width * stride));
    if (n == 0) return;
    // Entry e (0: in-tangent, 1: value, 2: out-tangent for CUBICSPLINE) of key k, weight i.
    auto at = [&](size_t k, size_t e, size_t i) { return double(c.weights[(k * stride + e) * width + i]); };
    const size_t ve = cubic ? 1 : 0;
    auto hold = [&](size_t k) {
        for (size_t i = 0; i < m; ++i) out[i] = float(at(k, ve, i));
    };
    if (!(t > double(c.times[0])) || n == 1) return hold(0);
    if (t >= double(c.times[n - 1])) return hold(n - 1);
    size_t k = size_t(std::upper_bound(c.times.begin(), c.times.begin() + n, float(t)) - c.times.begin());
    k = k == 0 ? 0 : k - 1;
    while (k + 1 < n && double(c.times[k + 1]) <= t) ++k;
    while (k > 0 && double(c.times[k]) > t) --k;
    const double td = double(c.times[k + 1]) - double(c.times[k]);
    const double s = td > 0.0 ? std::clamp((t - double(c.times[k])) / td, 0.0, 1.0) : 0.0;
    for (size_t i = 0; i < m; ++i) {
        switch (c.interpolation) {
            case Interpolation::Step: out[i] = float(at(k, 0, i)); break;
            case Interpolation::Linear: out[i] = float(at(k, 0, i) * (1.0 - s) + at(k + 1, 0, i) * s); break;
            case Interpolation::CubicSpline: {
                const double p0 = at(k, 1, i), m0 = at(k, 2, i) * td, p1 = at(k + 1, 1, i), m1 = at(k + 1, 0, i) * td;
                const double s2 = s * s, s3 = s2 * s;
                out[i] = float((2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 +
                               (s3 - s2) * m1);
                break;
            }
        }
    }
}

}  // namespace engine
