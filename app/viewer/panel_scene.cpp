#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/viewer/panels.h"
#include "engine/scene/builtin_scenes.h"
#include "engine/build_info.h"

namespace app::viewer {

namespace {
// Scenes offered in the list: the built-in ones and every .glb under assets/scenes.
std::vector<std::string> sceneList() {
    std::vector<std::string> out;
    for (const auto& n : engine::builtinSceneNames()) out.push_back("builtin:" + n);
    std::vector<std::string> files;
    for (const std::string& dir : {std::string("assets/scenes"), std::string(engine::sourceDirectory()) + "/assets/scenes"}) {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".glb") files.push_back(e.path().string());
        if (!files.empty()) break;
    }
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
    return out;
}
}  // namespace

void drawScenePanel(PanelContext& c) {
    auto& scenes = c.state.scene_list;
    if (scenes.empty()) scenes = sceneList();
    // File names in the list (the folder is the same for all); the whole path on hover.
    auto shortName = [](const std::string& s) { return std::filesystem::path(s).filename().string(); };
    if (ImGui::BeginCombo("scene", shortName(c.state.scene).c_str())) {
        for (const auto& s : scenes)
            if (ImGui::Selectable(shortName(s).c_str(), s == c.state.scene)) c.actions.openScene(s);
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.state.scene.c_str());
    const SceneInfo* info = c.frame.scene.get();
    if (info && !info->animations.empty()) {
        int a = c.state.controls.animation;
        const char* cur = a >= 0 && size_t(a) < info->animations.size() ? info->animations[size_t(a)].c_str() : "rest pose";
        if (ImGui::BeginCombo("animation", cur)) {
            if (ImGui::Selectable("rest pose", a < 0)) c.actions.setAnimation(-1);
            for (size_t i = 0; i < info->animations.size(); ++i)
                if (ImGui::Selectable(info->animations[i].c_str(), int(i) == a)) c.actions.setAnimation(int(i));
            ImGui::EndCombo();
        }
    }
}

// Files: a scene by path, reload, rescan the list, presets.
void drawFilesPanel(PanelContext& c) {
    auto& path = c.state.open_path;
    ImGui::InputTextWithHint("##path", "path to .glb (or drop a file)", &path);
    ImGui::SameLine();
    if (ImGui::Button("Open") && !path.empty()) c.actions.openScene(path);
    if (ImGui::Button("Reload")) c.actions.reload();
    ImGui::SameLine();
    if (ImGui::Button("Rescan scenes")) c.state.scene_list = sceneList();
    ImGui::InputText("preset", &c.state.preset_path);
    // The actions report to the info overlay (state.status) themselves.
    if (ImGui::Button("Save preset")) c.actions.savePreset(c.state.preset_path);
    ImGui::SameLine();
    if (ImGui::Button("Load preset")) c.actions.loadPreset(c.state.preset_path);
}

}  // namespace app::viewer
