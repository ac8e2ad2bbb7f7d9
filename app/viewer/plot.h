// A small plotting helper over Dear ImGui's draw lists (ImPlot is not in
// Debian): a frame with linear or log axes, tick values, axis labels, lines
// with dash patterns and markers, horizontal reference lines, bars, and a
// legend. Immediate mode like the rest of the UI: a Plot reserves its place
// at the cursor when made, draws its axes, and takes the data drawn into it.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

namespace app::viewer::plot {

enum class Dash : unsigned char { Solid, Dashed, Dotted };
enum class Marker : unsigned char { None, Circle, Square, Triangle };

struct Axis {
    std::string label;
    bool log = false;
    double min = 0.0, max = 1.0;  // the range shown (log: both > 0)
    // Where the ticks go and what they read; empty: chosen from the range
    // (steps of 1, 2 or 5 × 10ⁿ; log: decades, with 2 and 5 between them
    // when the range spans few decades).
    std::vector<double> ticks;
    std::vector<std::string> tick_labels;
};

struct LegendEntry {
    std::string label;
    ImU32 color = IM_COL32_WHITE;
    Dash dash = Dash::Solid;
    Marker marker = Marker::None;
    float thickness = 2.0f;
    bool swatch = false;  // a filled square (a colour key) instead of a line sample
};

class Plot {
public:
    // Reserves `size` (window units) at the cursor and draws the background,
    // grid, ticks, tick values and axis labels (x below, y above the axis).
    // `legend_width` > 0 keeps a column that wide on the right for legend().
    Plot(const Axis& x, const Axis& y, ImVec2 size, float legend_width = 0.0f);

    ImVec2 toScreen(double x, double y) const;
    // A polyline through the points (non-finite points, and ≤ 0 on a log
    // axis, break it), clipped to the plot area.
    void line(const std::vector<double>& x, const std::vector<double>& y, ImU32 color, float thickness = 2.0f,
              Dash dash = Dash::Solid, Marker marker = Marker::None);
    // Across the whole width, with its label at the right end above the line.
    void hline(double y, ImU32 color, float thickness, Dash dash, const std::string& label);
    void bar(double x0, double y0, double x1, double y1, ImU32 color);  // filled, clipped
    // In the legend column, or inside the top-right corner without one.
    void legend(const std::vector<LegendEntry>& entries);

    // The rectangle reserved (screen units): x, y, width, height.
    ImVec4 frame() const { return ImVec4(frame_min_.x, frame_min_.y, frame_max_.x - frame_min_.x, frame_max_.y - frame_min_.y); }

private:
    double tx(double x) const;  // axis value → 0..1 across the area
    double ty(double y) const;
    Axis x_, y_;
    ImVec2 frame_min_, frame_max_, area_min_, area_max_;
    float legend_width_;
    ImDrawList* dl_;
};

// Tick positions for a range (see Axis::ticks) and a short label for a value.
std::vector<double> linearTicks(double lo, double hi, int target = 5);
std::vector<double> logTicks(double lo, double hi);
std::string tickLabel(double v);
// Draws a polyline with a dash pattern (solid, dashed, dotted).
void dashedPolyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 color, float thickness, Dash dash);
void drawMarker(ImDrawList* dl, ImVec2 c, Marker m, ImU32 color, float size);

}  // namespace app::viewer::plot
