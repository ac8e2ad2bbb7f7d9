// Lock-free triple buffer (docs/architecture.md "Threads in the viewer"): one writer
// (the sim thread) fills its back slot and publishes it; one reader (the
// render thread) takes the newest published slot without waiting. Neither
// side ever sees a slot the other is using, so a frame is never half written.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace app::viewer {

template <class T>
class TripleBuffer {
public:
    // Writer side: fill writeSlot() completely (it holds an old frame), then publish().
    T& writeSlot() { return slots_[back_]; }
    void publish() {
        // Our back slot becomes the "middle" (newest) one; we take the old middle.
        uint8_t old = middle_.exchange(uint8_t(back_ | kFresh), std::memory_order_acq_rel);
        back_ = old & kIndexMask;
    }

    // Reader side: takes the newest frame if one was published since the last
    // call; returns whether it did. read() stays valid until the next update().
    bool update() {
        if (!(middle_.load(std::memory_order_acquire) & kFresh)) return false;
        uint8_t old = middle_.exchange(front_, std::memory_order_acq_rel);
        front_ = old & kIndexMask;
        return true;
    }
    const T& read() const { return slots_[front_]; }

private:
    static constexpr uint8_t kFresh = 0x4, kIndexMask = 0x3;
    std::array<T, 3> slots_{};
    uint8_t back_ = 0;                 // writer only
    uint8_t front_ = 1;                // reader only
    std::atomic<uint8_t> middle_{2};   // shared: index | kFresh
};

}  // namespace app::viewer
