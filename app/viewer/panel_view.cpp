#include <string>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawViewPanel(PanelContext& c) {
    // Translucent meshes (docs/scene-format.md, "Translucent meshes").
    bool skin = c.state.render.skin;
    if (ImGui::Checkbox("skin (S)", &skin)) c.actions.setSkin(skin);
    ImGui::SameLine();
    bool bones = c.state.render.bones;
    if (ImGui::Checkbox("bones", &bones)) c.actions.setBones(bones);
    ImGui::SameLine();
    bool ground = c.state.render.ground;
    if (ImGui::Checkbox("ground", &ground)) c.actions.setGround(ground);
    if (skin) {
        float opacity = c.state.render.skin_opacity;
        if (ImGui::SliderFloat("skin opacity", &opacity, Actions::kSkinOpacityMin, Actions::kSkinOpacityMax, "%.2fx"))
            c.actions.setSkinOpacity(opacity);
    }
    // The overlays in two columns: the side bar is narrow and the list long.
    if (ImGui::BeginTable("overlays", 2)) {
        for (int i = 0; i < engine::render::kOverlayCount; ++i) {
            auto o = static_cast<engine::render::Overlay>(i);
            bool on = c.state.render.overlay(o);
            std::string label(engine::render::overlayLabel(o));
            ImGui::TableNextColumn();
            if (ImGui::Checkbox(label.c_str(), &on)) c.actions.setOverlay(o, on);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());  // a long one is cut by its column
        }
        ImGui::EndTable();
    }
    if (c.state.render.overlay(engine::render::Overlay::ErrorMap)) {
        float scale = c.state.render.error_scale;
        if (ImGui::SliderFloat("error scale", &scale, Actions::kErrorScaleMin, Actions::kErrorScaleMax, "%.3f",
                               ImGuiSliderFlags_Logarithmic))
            c.actions.setErrorScale(scale);
    }
    if (ImGui::Button("Frame all (F)")) c.actions.frameAll();
    ImGui::SameLine();
    if (ImGui::Button("Help (F1)")) c.actions.toggleHelp();
}

// Rendering quality: shadows and the fast path.
void drawRenderAdvanced(PanelContext& c) {
    bool shadows = c.state.render.shadows;
    if (ImGui::Checkbox("soft shadows", &shadows)) c.actions.setShadows(shadows);
    // The fast path (engine/render/render_path.h): auto takes it under a
    // software rasteriser only; the line under it says what this frame used.
    int fast = static_cast<int>(c.state.render.fast_render);
    const char* choices[] = {"auto", "on", "off"};
    ImGui::SetNextItemWidth(90.0f);
    if (ImGui::Combo("fast render", &fast, choices, 3))
        c.actions.setFastRender(static_cast<engine::render::FastRender>(fast));
    const engine::render::RenderPath& path = c.renderer.lastPath();
    if (path.fast)
        ImGui::TextDisabled("fast path%s: 1 sample, scene at %.0f%%, soft shadows %d^2 x4 taps",
                            c.renderer.softwareRenderer() ? " (software renderer)" : "", 100.0 * path.scale,
                            path.shadow_size);
    else
        ImGui::TextDisabled("full path: %dx MSAA, shadows %d^2", c.renderer.target().samples(), path.shadow_size);
}

}  // namespace app::viewer
