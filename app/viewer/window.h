// The GLFW window with a GL 4.1 core context (glad-loaded), MSAA handled by
// the renderer's own target, and the ImGui context with its GLFW/OpenGL3
// backends. Owns their lifetimes; one per viewer, on the main thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

struct GLFWwindow;

namespace app::viewer {

struct InputHandlers {
    std::function<void(int key, int mods)> key;              // GLFW key codes, on press/repeat
    std::function<void(double dx, double dy, int button, int mods)> drag;  // window pixels
    std::function<void(double steps)> scroll;
    std::function<void(const std::vector<std::string>& paths)> drop;
};

class Window {
public:
    Window() = default;
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Returns an error (no display, no GL 4.1) or empty.
    std::string create(int width, int height, bool visible, const std::string& title);
    void setHandlers(InputHandlers h) { handlers_ = std::move(h); }
    bool shouldClose() const;
    void pollEvents();
    void swap();
    void framebufferSize(int& w, int& h) const;
    void windowSize(int& w, int& h) const;
    GLFWwindow* handle() const { return win_; }
    // ImGui frame helpers.
    void beginUi();
    void endUi();  // renders the UI into the currently bound framebuffer

private:
    static void onKey(GLFWwindow* w, int key, int scancode, int action, int mods);
    static void onCursor(GLFWwindow* w, double x, double y);
    static void onScroll(GLFWwindow* w, double dx, double dy);
    static void onDrop(GLFWwindow* w, int count, const char** paths);
    GLFWwindow* win_ = nullptr;
    bool imgui_ = false;
    bool glfw_ = false;
    double last_x_ = 0.0, last_y_ = 0.0;
    bool have_last_ = false;
    InputHandlers handlers_;
};

}  // namespace app::viewer
