#include "app/viewer/window.h"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

namespace app::viewer {

namespace {
Window* self(GLFWwindow* w) { return static_cast<Window*>(glfwGetWindowUserPointer(w)); }
}  // namespace

Window::~Window() {
    if (imgui_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    if (win_) glfwDestroyWindow(win_);
    if (glfw_) glfwTerminate();
}

std::string Window::create(int width, int height, bool visible, const std::string& title) {
    if (!glfwInit()) return "cannot initialise GLFW (no X display? run under xvfb-run -a)";
    glfw_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: window size in screen units
    glfwWindowHint(GLFW_SAMPLES, 0);                   // MSAA lives in the renderer's target
    win_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!win_) return "cannot create a window with an OpenGL 4.1 core context";
    glfwMakeContextCurrent(win_);
    if (!gladLoadGL(glfwGetProcAddress)) return "cannot load OpenGL functions";
    // The sim thread paces itself; vsync keeps the UI from spinning a core.
    glfwSwapInterval(visible ? 1 : 0);

    glfwSetWindowUserPointer(win_, this);
    // Installed before ImGui, which chains to them (install_callbacks = true).
    glfwSetKeyCallback(win_, onKey);
    glfwSetCursorPosCallback(win_, onCursor);
    glfwSetScrollCallback(win_, onScroll);
    glfwSetDropCallback(win_, onDrop);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // layout is code, not a file in the cwd
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4.0f;
    ImGui::GetStyle().Alpha = 0.96f;
    ImGui_ImplGlfw_InitForOpenGL(win_, true);
    ImGui_ImplOpenGL3_Init("#version 410 core");
    imgui_ = true;
    return {};
}

bool Window::shouldClose() const { return glfwWindowShouldClose(win_); }
void Window::pollEvents() { glfwPollEvents(); }
void Window::swap() { glfwSwapBuffers(win_); }
void Window::framebufferSize(int& w, int& h) const { glfwGetFramebufferSize(win_, &w, &h); }
void Window::windowSize(int& w, int& h) const { glfwGetWindowSize(win_, &w, &h); }

void Window::beginUi() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void Window::endUi() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::onKey(GLFWwindow* w, int key, int, int action, int mods) {
    // ImGui's callback ran already (it chains to us); its flag says whether a
    // text field or widget has the keyboard.
    if (action == GLFW_RELEASE || ImGui::GetIO().WantCaptureKeyboard) return;
    if (auto* s = self(w); s && s->handlers_.key) s->handlers_.key(key, mods);
}

void Window::onCursor(GLFWwindow* w, double x, double y) {
    Window* s = self(w);
    if (!s) return;
    double dx = s->have_last_ ? x - s->last_x_ : 0.0, dy = s->have_last_ ? y - s->last_y_ : 0.0;
    s->last_x_ = x;
    s->last_y_ = y;
    s->have_last_ = true;
    if (ImGui::GetIO().WantCaptureMouse || !s->handlers_.drag) return;
    int mods = (glfwGetKey(w, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(w, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS)
                   ? GLFW_MOD_SHIFT
                   : 0;
    for (int b : {GLFW_MOUSE_BUTTON_LEFT, GLFW_MOUSE_BUTTON_RIGHT, GLFW_MOUSE_BUTTON_MIDDLE})
        if (glfwGetMouseButton(w, b) == GLFW_PRESS) {
            s->handlers_.drag(dx, dy, b, mods);
            break;
        }
}

void Window::onScroll(GLFWwindow* w, double, double dy) {
    if (ImGui::GetIO().WantCaptureMouse) return;
    if (auto* s = self(w); s && s->handlers_.scroll) s->handlers_.scroll(dy);
}

void Window::onDrop(GLFWwindow* w, int count, const char** paths) {
    if (auto* s = self(w); s && s->handlers_.drop) s->handlers_.drop(std::vector<std::string>(paths, paths + count));
}

}  // namespace app::viewer
