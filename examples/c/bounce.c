/* bounce.c - seed 004's scene done right: a ball bouncing inside a 640 x 480 window among four
 * rectangles, stepped with c2d_static_set_step_ball. Every contact is reported (which rectangle,
 * when, where, and whether it was a face or a corner), the speed never changes, and the ball can be
 * as fast as you like without passing through anything. */
#include <collide2d.h>

#include <math.h>
#include <stdio.h>

#define WIDTH 640.0
#define HEIGHT 480.0
#define RADIUS 20.0

/* Seed 004's rectangles as {left, top, right, bottom}; the first four are the window's walls. */
static const double rects[][4] = {
    {-10, -10, WIDTH + 10, -1}, {-10, HEIGHT, WIDTH + 10, HEIGHT + 10},
    {-10, -1, -1, HEIGHT},      {WIDTH, -1, WIDTH + 10, HEIGHT},
    {86, 72, 207, 177},         {391, 37, 500, 113},
    {103, 334, 229, 407},       {304, 200, 493, 339},
};
#define NRECTS ((int)(sizeof rects / sizeof rects[0]))

int main(void)
{
    c2d_shape *shapes[NRECTS];
    c2d_static_set *set = NULL;
    for (int i = 0; i < NRECTS; i++) {
        const double *r = rects[i];
        if (c2d_rect_new((r[0] + r[2]) / 2, (r[1] + r[3]) / 2, r[2] - r[0], r[3] - r[1], 0, &shapes[i]) != C2D_OK)
            return 1;
    }
    if (c2d_static_set_new((const c2d_shape *const *)shapes, NRECTS, NULL, &set) != C2D_OK)
        return 1;

    /* Fast on purpose: 60 pixels per step is three ball radii, far beyond seed 004's 10. */
    c2d_ball ball = {{40, 40}, {60 * cos(0.7), 60 * sin(0.7)}, RADIUS};
    double speed = hypot(ball.velocity.x, ball.velocity.y);
    int faces = 0, corners = 0;
    for (int step = 0; step < 2000; step++) {
        c2d_sweep_contact hits[16];
        c2d_move_result res;
        if (c2d_static_set_step_ball(set, &ball, 1.0, NULL, &res, hits, 16) != C2D_OK)
            return 1;
        for (int k = 0; k < res.count && k < 16; k++) {
            const double *r = rects[hits[k].index];
            /* A corner contact has a normal along neither axis. */
            int corner = fabs(hits[k].normal.x) > 1e-9 && fabs(hits[k].normal.y) > 1e-9;
            corner ? corners++ : faces++;
            if (step < 40)
                printf("step %3d  t=%.3f  %-6s of rect %d [%g,%g..%g,%g] at (%.2f, %.2f)\n", step, hits[k].t,
                       corner ? "corner" : "face", hits[k].index, r[0], r[1], r[2], r[3], hits[k].point.x,
                       hits[k].point.y);
        }
        /* The walls' inner faces are x = -1, x = WIDTH, y = -1, y = HEIGHT. */
        if (ball.position.x < -1 + RADIUS - 1e-9 || ball.position.x > WIDTH - RADIUS + 1e-9 ||
            ball.position.y < -1 + RADIUS - 1e-9 || ball.position.y > HEIGHT - RADIUS + 1e-9) {
            printf("the ball left the window at step %d\n", step);
            return 1;
        }
    }
    printf("2000 steps: %d face bounces, %d corner bounces, speed %.12f (started %.12f)\n", faces, corners,
           hypot(ball.velocity.x, ball.velocity.y), speed);
    c2d_static_set_destroy(set);
    for (int i = 0; i < NRECTS; i++)
        c2d_shape_destroy(shapes[i]);
    return 0;
}
