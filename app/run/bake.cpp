#include "app/run/bake.h"

#include <chrono>
#include <filesystem>
#include <new>

#include "app/run/run_report.h"
#include "engine/export/clip_writer.h"
#include "sim/skin_wrap.h"

namespace app {

BakeResult bakeClip(const BakeRequest& q, const BakeProgress& progress) {
    BakeResult res;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        if (!engine::bakeFormatFor(q.out)) {
            res.error = q.out + ": unknown format (" + engine::bakeFormatsHint() + ")";
            return res;
        }
        if (q.first_frame < 1 || q.frames < 1) {
            res.error = q.out + ": the frames to bake must start at frame 1 or later and be at least one";
            return res;
        }
        SceneDriver driver;
        driver.setAnimation(q.animation);
        if (auto e = driver.load(q.scene, q.params, q.given); !e.empty()) {
            res.error = e;
            return res;
        }
        if (q.animation_given && driver.animation() != q.animation) {
            res.error = q.scene + ": no animation " + std::to_string(q.animation) + " (the scene has " +
                        std::to_string(driver.scene().animations.size()) + ")";
            return res;
        }
        driver.setLoop(q.loop);
        driver.setActivationSource(q.activation);
        const size_t nm = driver.sim().world().muscles.size();
        if (q.overpressure) driver.setOverpressure(*q.overpressure);
        if (q.muscle_overpressure.size() == nm)
            for (size_t m = 0; m < nm; ++m) driver.setOverpressure(m, q.muscle_overpressure[m]);

        engine::BakeClip clip;
        clip.source = q.scene;
        clip.scene = &driver.scene();
        clip.muscles = engine::bakedMuscles(driver.sim().world());
        // The drawn skin that wraps the muscles, after them.
        const sim::World& world = driver.sim().world();
        if (world.envelope.active()) {
            engine::BakedMuscle skin;
            skin.name = world.envelope.name.empty() ? "skin" : world.envelope.name;
            skin.first = uint32_t(world.particles.size());
            skin.count = uint32_t(world.envelope.rest.size());
            skin.triangles = world.envelope.triangles;
            skin.rest = world.envelope.rest;
            clip.drawn_skin = int(clip.muscles.size());
            clip.muscles.push_back(std::move(skin));
        }
        clip.animation = driver.animation();
        clip.first_frame = q.first_frame;
        clip.frames = q.frames;
        clip.frame_dt = driver.params().frame_dt;
        // The poses the driver gives the bones at the end of each frame.
        for (int64_t k = 0; k < q.frames; ++k)
            clip.animation_times.push_back(driver.animationTime(double(q.first_frame + k) * clip.frame_dt));
        std::unique_ptr<engine::BakeWriter> writer = engine::openBakeWriter(q.out, clip);

        RunRecorder recorder;
        sim::SkinWrapScratch wrap_scratch;
        std::vector<glm::vec3> skin_now, frame_positions;
        sim::StepReport failure;
        const int64_t last = q.first_frame + q.frames - 1;
        while (driver.frame() < last) {
            if (driver.atEnd()) {
                res.error = q.scene + ": the animation ends at frame " + std::to_string(driver.frame()) +
                            " and loop is off; nothing written (bake up to that frame, or loop)";
                return res;
            }
            const auto s0 = std::chrono::steady_clock::now();
            sim::StepReport r = driver.step();
            const auto s1 = std::chrono::steady_clock::now();
            if (!r.ok) {
                res.error = q.scene + ": " + r.nan.message() + " (frame " + std::to_string(driver.frame()) +
                            "); nothing written";
                return res;
            }
            const bool written = driver.frame() >= q.first_frame;
            if (written && clip.drawn_skin >= 0)
                sim::wrapSkin(world, world.particles.x, sim::kSkinWrapClearance, wrap_scratch, skin_now);
            recorder.addFrame(std::chrono::duration<double, std::milli>(s1 - s0).count(), driver.sim(),
                              written && clip.drawn_skin >= 0 ? &skin_now : nullptr);
            if (written) {
                if (clip.drawn_skin >= 0) {
                    frame_positions.assign(world.particles.x.begin(), world.particles.x.end());
                    frame_positions.insert(frame_positions.end(), skin_now.begin(), skin_now.end());
                    writer->addFrame(frame_positions);
                } else {
                    writer->addFrame(world.particles.x);
                }
            }
            if (progress && !progress(driver.frame(), last)) {
                res.error = q.out + ": cancelled; nothing written";
                return res;
            }
        }
        writer->finish();
        res.files = writer->files();
        res.report = runReport(q.scene, driver.sim(), recorder, failure);
        uint64_t bytes = 0;
        for (const auto& f : res.files) {
            std::error_code ec;
            bytes += std::filesystem::file_size(f, ec);
        }
        res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        res.report["bake"] = {{"out", q.out},
                              {"format", engine::bakeFormatName(*engine::bakeFormatFor(q.out))},
                              {"files", res.files},
                              {"first_frame", q.first_frame},
                              {"last_frame", last},
                              {"frames", q.frames},
                              {"muscles", clip.muscleCount()},
                              {"skin", clip.drawn_skin >= 0 ? nlohmann::json(clip.muscles.back().name) : nlohmann::json()},
                              {"vertices", clip.surfaceVertices()},
                              {"bytes", bytes},
                              {"seconds", res.seconds}};
    } catch (const engine::ExportError& e) {
        res.error = e.what();
    } catch (const std::bad_alloc&) {
        res.error = q.out + ": out of memory while baking " + q.scene;
    } catch (const std::exception& e) {
        res.error = q.out + ": " + e.what();
    }
    return res;
}

}  // namespace app
