#include "app/viewer/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app::viewer::plot {

namespace {
constexpr ImU32 kBackground = IM_COL32(18, 18, 22, 235);
constexpr ImU32 kGrid = IM_COL32(255, 255, 255, 28);
constexpr ImU32 kAxis = IM_COL32(200, 200, 200, 255);
constexpr ImU32 kText = IM_COL32(225, 225, 225, 255);
constexpr float kTick = 4.0f;

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0.0); }
}  // namespace

std::vector<double> linearTicks(double lo, double hi, int target) {
    std::vector<double> t;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return t;
    const double raw = (hi - lo) / double(std::max(1, target));
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
        t.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return t;
}

std::vector<double> logTicks(double lo, double hi) {
    std::vector<double> t;
    if (!(lo > 0.0) || !(hi > lo) || !std::isfinite(hi)) return t;
    const int d0 = int(std::floor(std::log10(lo) + 1e-9)), d1 = int(std::ceil(std::log10(hi) - 1e-9));
    const bool fine = d1 - d0 <= 4;  // few decades: 1, 2, 5 in each
    for (int d = d0; d <= d1; ++d)
        for (double m : {1.0, 2.0, 5.0}) {
            if (m != 1.0 && !fine) continue;
            const double v = m * std::pow(10.0, d);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
        }
    return t;
}

std::string tickLabel(double v) {
    char b[32];
    const double a = std::abs(v);
    if (a == 0.0) return "0";
    if (a >= 1e5 || a < 1e-3) std::snprintf(b, sizeof b, "%.0e", v);
    else if (a >= 1.0 && std::abs(v - std::round(v)) < 1e-9) std::snprintf(b, sizeof b, "%.0f", v);
    else std::snprintf(b, sizeof b, "%g", v);
    return b;
}

void dashedPolyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 color, float thickness, Dash dash) {
    if (pts.size() < 2) return;
    if (dash == Dash::Solid) {
        dl->AddPolyline(pts.data(), int(pts.size()), color, 0, thickness);
        return;
    }
    const float on = dash == Dash::Dashed ? 9.0f : 2.0f, off = dash == Dash::Dashed ? 5.0f : 4.0f;
    // Walks each segment from one pattern boundary to the next. Lengths
    // under 1/1000 of a unit count as done: a float step that small could be
    // lost against the distance already walked and never end the loop.
    float phase = 0.0f;  // distance into the current on+off period, kept across segments
    for (size_t i = 1; i < pts.size(); ++i) {
        const ImVec2 a = pts[i - 1], b = pts[i];
        const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
        if (!(len > 1e-3f) || !std::isfinite(len)) continue;
        float s = 0.0f;
        while (len - s > 1e-3f) {
            const bool drawing = phase < on;
            const float left = drawing ? on - phase : on + off - phase;
            if (left <= 1e-3f) {  // at a boundary: the next part of the pattern
                phase = drawing ? on : 0.0f;
                continue;
            }
            const float step = std::min(left, len - s);
            if (drawing)
                dl->AddLine(ImVec2(a.x + dx * s / len, a.y + dy * s / len),
                            ImVec2(a.x + dx * (s + step) / len, a.y + dy * (s + step) / len), color, thickness);
            s += step;
            phase += step;
            if (phase >= on + off - 1e-3f) phase = 0.0f;
        }
    }
}

void drawMarker(ImDrawList* dl, ImVec2 c, Marker m, ImU32 color, float r) {
    switch (m) {
        case Marker::None: break;
        case Marker::Circle: dl->AddCircleFilled(c, r, color, 12); break;
        case Marker::Square: dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), color); break;
        case Marker::Triangle:
            dl->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x - r * 1.1f, c.y + r * 0.8f),
                                  ImVec2(c.x + r * 1.1f, c.y + r * 0.8f), color);
            break;
    }
}

Plot::Plot(const Axis& x, const Axis& y, ImVec2 size, float legend_width)
    : x_(x), y_(y), legend_width_(legend_width), dl_(ImGui::GetWindowDrawList()) {
    if (x_.ticks.empty()) x_.ticks = x_.log ? logTicks(x_.min, x_.max) : linearTicks(x_.min, x_.max);
    if (y_.ticks.empty()) y_.ticks = y_.log ? logTicks(y_.min, y_.max) : linearTicks(y_.min, y_.max, 4);
    auto label = [](const Axis& a, size_t i) { return i < a.tick_labels.size() ? a.tick_labels[i] : tickLabel(a.ticks[i]); };
    frame_min_ = ImGui::GetCursorScreenPos();
    frame_max_ = ImVec2(frame_min_.x + size.x, frame_min_.y + size.y);
    const float lh = ImGui::GetTextLineHeight();
    float yw = 0.0f;
    for (size_t i = 0; i < y_.ticks.size(); ++i) yw = std::max(yw, ImGui::CalcTextSize(label(y_, i).c_str()).x);
    area_min_ = ImVec2(frame_min_.x + yw + kTick + 6.0f, frame_min_.y + lh + 6.0f);
    area_max_ = ImVec2(frame_max_.x - legend_width_ - 8.0f, frame_max_.y - 2.0f * lh - 8.0f);
    if (area_max_.x < area_min_.x + 10.0f) area_max_.x = area_min_.x + 10.0f;
    if (area_max_.y < area_min_.y + 10.0f) area_max_.y = area_min_.y + 10.0f;

    dl_->AddRectFilled(frame_min_, frame_max_, kBackground, 3.0f);
    // Grid and ticks.
    for (size_t i = 0; i < x_.ticks.size(); ++i) {
        if (!usable(x_.ticks[i], x_.log)) continue;
        const float sx = toScreen(x_.ticks[i], y_.min).x;
        if (sx < area_min_.x - 0.5f || sx > area_max_.x + 0.5f) continue;
        dl_->AddLine(ImVec2(sx, area_min_.y), ImVec2(sx, area_max_.y), kGrid);
        dl_->AddLine(ImVec2(sx, area_max_.y), ImVec2(sx, area_max_.y + kTick), kAxis);
        const std::string t = label(x_, i);
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        dl_->AddText(ImVec2(std::clamp(sx - 0.5f * w, frame_min_.x, frame_max_.x - w), area_max_.y + kTick + 1.0f), kText,
                     t.c_str());
    }
    for (size_t i = 0; i < y_.ticks.size(); ++i) {
        if (!usable(y_.ticks[i], y_.log)) continue;
        const float sy = toScreen(x_.min, y_.ticks[i]).y;
        if (sy < area_min_.y - 0.5f || sy > area_max_.y + 0.5f) continue;
        dl_->AddLine(ImVec2(area_min_.x, sy), ImVec2(area_max_.x, sy), kGrid);
        dl_->AddLine(ImVec2(area_min_.x - kTick, sy), ImVec2(area_min_.x, sy), kAxis);
        const std::string t = label(y_, i);
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        dl_->AddText(ImVec2(area_min_.x - kTick - 2.0f - w, sy - 0.5f * lh), kText, t.c_str());
    }
    // Axes and their labels: x centred under the tick values, y above its axis.
    dl_->AddLine(ImVec2(area_min_.x, area_max_.y), ImVec2(area_max_.x, area_max_.y), kAxis);
    dl_->AddLine(ImVec2(area_min_.x, area_min_.y), ImVec2(area_min_.x, area_max_.y), kAxis);
    const float xw = ImGui::CalcTextSize(x_.label.c_str()).x;
    dl_->AddText(ImVec2(0.5f * (area_min_.x + area_max_.x - xw), area_max_.y + kTick + lh + 3.0f), kText,
                 x_.label.c_str());
    dl_->AddText(ImVec2(frame_min_.x + 4.0f, frame_min_.y + 3.0f), kText, y_.label.c_str());
    ImGui::Dummy(size);
}

double Plot::tx(double x) const {
    if (x_.log) return (std::log10(x) - std::log10(x_.min)) / (std::log10(x_.max) - std::log10(x_.min));
    return (x - x_.min) / (x_.max - x_.min);
}

double Plot::ty(double y) const {
    if (y_.log) return (std::log10(y) - std::log10(y_.min)) / (std::log10(y_.max) - std::log10(y_.min));
    return (y - y_.min) / (y_.max - y_.min);
}

ImVec2 Plot::toScreen(double x, double y) const {
    return ImVec2(float(area_min_.x + tx(x) * (area_max_.x - area_min_.x)),
                  float(area_max_.y - ty(y) * (area_max_.y - area_min_.y)));
}

void Plot::line(const std::vector<double>& x, const std::vector<double>& y, ImU32 color, float thickness, Dash dash,
                Marker marker) {
    dl_->PushClipRect(area_min_, area_max_, true);
    std::vector<ImVec2> run;
    auto flush = [&] {
        dashedPolyline(dl_, run, color, thickness, dash);
        run.clear();
    };
    const size_t n = std::min(x.size(), y.size());
    for (size_t i = 0; i < n; ++i) {
        if (!usable(x[i], x_.log) || !usable(y[i], y_.log)) {
            flush();
            continue;
        }
        run.push_back(toScreen(x[i], y[i]));
    }
    flush();
    for (size_t i = 0; i < n; ++i)
        if (usable(x[i], x_.log) && usable(y[i], y_.log)) drawMarker(dl_, toScreen(x[i], y[i]), marker, color, thickness + 1.5f);
    dl_->PopClipRect();
}

void Plot::hline(double y, ImU32 color, float thickness, Dash dash, const std::string& label) {
    if (!usable(y, y_.log)) return;
    const float sy = toScreen(x_.min, y).y;
    if (sy < area_min_.y || sy > area_max_.y) return;
    dashedPolyline(dl_, {ImVec2(area_min_.x, sy), ImVec2(area_max_.x, sy)}, color, thickness, dash);
    if (!label.empty()) {
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        const ImVec2 at(area_max_.x - ts.x - 4.0f, sy - ts.y - 2.0f);
        dl_->AddRectFilled(ImVec2(at.x - 2.0f, at.y), ImVec2(at.x + ts.x + 2.0f, at.y + ts.y), IM_COL32(18, 18, 22, 200));
        dl_->AddText(at, color, label.c_str());
    }
}

void Plot::bar(double x0, double y0, double x1, double y1, ImU32 color) {
    dl_->PushClipRect(area_min_, area_max_, true);
    ImVec2 a = toScreen(x0, y0), b = toScreen(x1, y1);
    dl_->AddRectFilled(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)), ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)),
                       color);
    dl_->PopClipRect();
}

void Plot::legend(const std::vector<LegendEntry>& entries) {
    if (entries.empty()) return;
    const float lh = ImGui::GetTextLineHeight(), sample = 26.0f, gap = 4.0f;
    float tw = 0.0f;
    for (const auto& e : entries) tw = std::max(tw, ImGui::CalcTextSize(e.label.c_str()).x);
    const float w = sample + 6.0f + tw + 2.0f * gap, h = float(entries.size()) * (lh + 2.0f) + 2.0f * gap;
    ImVec2 p = legend_width_ > 0.0f ? ImVec2(area_max_.x + 8.0f, area_min_.y)
                                    : ImVec2(area_max_.x - w - 4.0f, area_min_.y + 4.0f);
    dl_->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(30, 30, 36, 230), 3.0f);
    dl_->AddRect(p, ImVec2(p.x + w, p.y + h), IM_COL32(255, 255, 255, 40), 3.0f);
    float y = p.y + gap;
    for (const auto& e : entries) {
        const float cy = y + 0.5f * lh;
        const float x0 = p.x + gap, x1 = x0 + sample;
        if (e.swatch) {
            dl_->AddRectFilled(ImVec2(x0 + 4.0f, cy - 5.0f), ImVec2(x1 - 4.0f, cy + 5.0f), e.color, 2.0f);
        } else {
            dashedPolyline(dl_, {ImVec2(x0, cy), ImVec2(x1, cy)}, e.color, e.thickness, e.dash);
            drawMarker(dl_, ImVec2(0.5f * (x0 + x1), cy), e.marker, e.color, e.thickness + 1.5f);
        }
        dl_->AddText(ImVec2(x1 + 6.0f, y), kText, e.label.c_str());
        y += lh + 2.0f;
    }
}

}  // namespace app::viewer::plot
