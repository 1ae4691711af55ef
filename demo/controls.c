/* Window input applied to the application: camera, pause, respawn, particle count and sort
 * backend (see app.h). */
#include "app.h"

#include <stdio.h>

int demo_handle_input(demo_app *app)
{
    glfwPollEvents();
    demo_input *in = &app->win.input;
    int quit = in->quit || glfwWindowShouldClose(app->win.window);
    demo_camera_orbit(&app->camera, in->orbit_dx, in->orbit_dy);
    demo_camera_zoom(&app->camera, in->zoom_steps);
    in->orbit_dx = in->orbit_dy = in->zoom_steps = 0.0f;
    if (in->toggle_pause)
        app->paused = !app->paused;
    if (in->reset)
        app->need_reset = 1;
    uint32_t count = app->count;
    if (in->count_change > 0 && count <= (1u << 28))
        count *= 2u;
    if (in->count_change < 0 && count > 1u)
        count /= 2u;
    demo_sort sort = app->sort;
    if (in->sort_key)
        sort = (demo_sort)(in->sort_key - 1);
    if (count != app->count || sort != app->sort) {
        demo_sort old_sort = app->sort;
        uint32_t old_count = app->count;
        if (demo_set_count(app, count, sort)) {
            fprintf(stderr, "vksort-demo: keeping %s with %u particles\n", demo_sort_name(old_sort),
                    old_count);
            if (demo_set_count(app, old_count, old_sort))
                quit = 1;
        } else {
            printf("vksort-demo: sort %s, %u particles\n", demo_sort_name(app->sort), app->count);
        }
    }
    in->toggle_pause = in->reset = in->count_change = in->sort_key = 0;
    return quit;
}
