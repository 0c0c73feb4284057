/* test_walk.c - a box walking over bent floors (issue 22, item 8). The report's level, where a box
 * stopped dead at the foot of a ramp against a wall that is not there (a corner of a concave polygon
 * where three of its parts meet); and random floors of slopes under 40 degrees, built as one concave
 * polygon, as a chain and as a row of tiles (one convex polygon per segment), at several scales, over
 * which a box walks as a game walks it (a step to the right each frame, falling under gravity, slide
 * response): it never stops at a joint or a bend, every contact it meets is the floor's, and it never
 * sinks under the floor. */
#include "testutil.h"

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* The level of the report (y grows downward): a flat stretch meets a 13-degree rise at
 * (22.0031..., 8.0441...), where three convex parts of the polygon meet. */
static const double walk_level[] = {
    0, 0, 6.3929392715013345, 3.6042121754510599, 10.237172515346801, 4.4305266115993209,
    14.897868450158173, 8.044165547273245, 22.003106589787535, 8.044165547273245, 27.334681327966589,
    6.8112191254382255, 30.241996330250448, 5.7548680889448169, 35.671440889434372, 3.1158037432833043,
    41.096704771117722, 3.1158037432833043, 43.46840937331185, 1.9727087286721674, 47.878063489559828,
    4.8222123926839151, 52.813486424339224, 5.7263687354370214, 59.635485974204947, 5.7263687354370214,
    65.689257025228343, 6.7184953453833778, 70.440214346103048, 8.7148715064055473, 70.440214346103048,
    200, 0, 200};

TEST(walk_box_climbs_from_a_flat_onto_a_ramp_where_three_parts_meet)
{
    int n = (int)(sizeof walk_level / sizeof walk_level[0] / 2);
    c2d_vec2 o[32];
    for (int i = 0; i < n; i++)
        o[i] = V(walk_level[2 * i], walk_level[2 * i + 1]);
    c2d_shape *s, *box;
    ENSURE_OK(c2d_concave_new(o, n, NULL, NULL, 0, &s));
    c2d_static_set *set;
    const c2d_shape *arr[1] = {s};
    ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
    /* Its bottom-right corner on the foot of the ramp (as Lua's rectangle(0, 0, 0.8, 1.6) placed there). */
    ENSURE_OK(c2d_rect_new(21.603106589787537, 7.2441655472732522, 0.8, 1.6, 0, &box));
    c2d_vec2 ramp = V(o[5].x - o[4].x, o[5].y - o[4].y);
    double len = sqrt(ramp.x * ramp.x + ramp.y * ramp.y);
    c2d_vec2 up = V(ramp.y / len, -ramp.x / len); /* the ramp's normal, out of the ground: (-0.225, -0.974) */
    c2d_move_result r;
    c2d_sweep_contact c[8];
    ENSURE_OK(c2d_static_set_move(set, box, V(0.10000000000000001, 0.0083333333333333332), NULL, &r, c, 8));
    for (int i = 0; i < r.count && i < 8; i++) {
        int floor = c[i].normal.x == 0 && c[i].normal.y == -1;
        int on_ramp = fabs(c[i].normal.x - up.x) <= 1e-9 && fabs(c[i].normal.y - up.y) <= 1e-9;
        ENSURE_MSG(floor || on_ramp, "contact %d: normal (%.17g, %.17g), neither the floor's nor the ramp's", i,
                   c[i].normal.x, c[i].normal.y);
    }
    /* Slid up the ramp, along it, keeping most of its 0.1 to the right. */
    ENSURE_MSG(r.displacement.x > 0.09, "moved by (%.17g, %.17g) only", r.displacement.x, r.displacement.y);
    ENSURE_NEAR(r.displacement.y, r.displacement.x * ramp.y / ramp.x, 1e-12);
    /* The polygon's own sweep (its parts in its frame) sees the same ramp: moving a hair steeper into it
     * than along it meets it at once, along its normal (from the box to the polygon, so -up). */
    c2d_toi t;
    c2d_vec2 into = V(0.1 * ramp.x / len - 1e-4 * up.x, 0.1 * ramp.y / len - 1e-4 * up.y);
    ENSURE_OK(c2d_sweep(box, into, s, V(0, 0), &t));
    ENSURE_MSG(t.state == C2D_TOI_HIT && t.t == 0, "sweep: state %d at t %.17g", (int)t.state, t.t);
    ENSURE_MSG(fabs(t.normal.x + up.x) <= 1e-9 && fabs(t.normal.y + up.y) <= 1e-9,
               "sweep: normal (%.17g, %.17g), not the ramp's", t.normal.x, t.normal.y);
    c2d_shape_destroy(box);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s);
}

#define WALK_MAX_SEGS 24

/* A random bent floor (y up, solid below): segs + 1 points from x0 to the right, each segment a slope
 * under 40 degrees either way (two in five of them flat, so that flats meet rises and falls), lengths
 * 0.4 .. 3, everything times scale. */
static int walk_floor(double scale, c2d_vec2 *p)
{
    int segs = 12 + (int)(c2d_test_rand() % 13);
    double x0 = c2d_test_uniform(-40, 40);
    double y0 = c2d_test_uniform(-20, 20);
    p[0] = V(x0 * scale, y0 * scale);
    for (int k = 0; k < segs; k++) {
        double flat = c2d_test_uniform(0, 1);
        double angle = c2d_test_uniform(-40, 40) * TU_PI / 180;
        double len = c2d_test_uniform(0.4, 3);
        if (flat < 0.4)
            angle = 0;
        p[k + 1] = V(p[k].x + len * cos(angle) * scale, angle == 0 ? p[k].y : p[k].y + len * sin(angle) * scale);
    }
    return segs;
}

/* The floor's highest point over [x0, x1] (a height field: the maximum is at an end or at a vertex). */
static double walk_height(const c2d_vec2 *p, int segs, double x0, double x1)
{
    double h = -INFINITY;
    for (int k = 0; k < segs; k++) {
        double a = fmax(x0, p[k].x), b = fmin(x1, p[k + 1].x);
        if (a > b)
            continue;
        double ya = p[k].y + (p[k + 1].y - p[k].y) * (a - p[k].x) / (p[k + 1].x - p[k].x);
        double yb = p[k].y + (p[k + 1].y - p[k].y) * (b - p[k].x) / (p[k + 1].x - p[k].x);
        h = fmax(h, fmax(ya, yb));
    }
    return h;
}

/* The floor as a static set: 0 one concave polygon down to a flat base under the floor, 1 an open
 * chain, 2 one convex quadrilateral per segment down to the same base (tiles sharing their upright
 * edges). */
static c2d_status walk_set(int how, const c2d_vec2 *p, int segs, double base, c2d_static_set **out)
{
    c2d_shape *shapes[WALK_MAX_SEGS];
    int count = 0;
    c2d_status st = C2D_OK;
    if (how == 0) {
        c2d_vec2 o[WALK_MAX_SEGS + 3];
        for (int k = 0; k <= segs; k++)
            o[k] = p[k];
        o[segs + 1] = V(p[segs].x, base);
        o[segs + 2] = V(p[0].x, base);
        st = c2d_concave_new(o, segs + 3, NULL, NULL, 0, &shapes[count++]);
    } else if (how == 1) {
        st = c2d_chain_new(p, segs + 1, 0, &shapes[count++]);
    } else {
        for (int k = 0; k < segs && st == C2D_OK; k++) {
            c2d_vec2 q[4] = {{p[k].x, base}, {p[k + 1].x, base}, {p[k + 1].x, p[k + 1].y}, {p[k].x, p[k].y}};
            st = c2d_polygon_new(q, 4, &shapes[count++]);
        }
    }
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)shapes, count, NULL, out);
    for (int k = 0; k < count; k++)
        c2d_shape_destroy(shapes[k]);
    return st;
}

static void walk_print_floor(const char *kind, double scale, const c2d_vec2 *p, int segs, double base)
{
    printf("  %s floor, scale %g, base %.17g:", kind, scale, base);
    for (int k = 0; k <= segs; k++)
        printf(" (%.17g, %.17g)", p[k].x, p[k].y);
    printf("\n");
}

TEST(walk_box_never_stops_at_a_joint_or_a_bend_of_a_random_floor)
{
    static const char *const kinds[3] = {"concave", "chain", "tiles"};
    static const double scales[4] = {1, 0.01, 40, 3000};
    long levels = c2d_test_iterations(256);
    for (long level = 0; level < levels && !c2d_test_failed(); level++) {
        double scale = scales[level % 4];
        c2d_vec2 p[WALK_MAX_SEGS + 1];
        int segs = walk_floor(scale, p);
        double low = p[0].y;
        for (int k = 1; k <= segs; k++)
            low = fmin(low, p[k].y);
        /* The polygon's base: close under the floor (wide parts that fan out from the floor's bends:
         * three of them met where the box of the report stopped) or far below. */
        double depth = c2d_test_uniform(0.1, 3);
        if (level % 8 >= 4)
            depth = c2d_test_uniform(3, 200);
        double base = low - depth * scale;
        double w = c2d_test_uniform(0.3, 1.5) * scale;
        double h = c2d_test_uniform(0.5, 2) * scale;
        /* As a game walks it, 0.1 a frame to the right, falling faster by 0.02 a frame up to 0.05 a
         * frame and stopping its fall when it lands. Up a 40-degree slope, even at the fastest fall,
         * the slide keeps (0.1 cos 40 - 0.05 sin 40) cos 40 = 0.034 to the right: at least 0.03 a
         * frame, or it stopped. Before the fix of item 8, the concave floor of level 7 stopped it. */
        double vx = 0.1 * scale, g = 0.02 * scale, fall_max = 0.05 * scale;
        for (int how = 0; how < 3 && !c2d_test_failed(); how++) {
            c2d_static_set *set;
            ENSURE_OK(walk_set(how, p, segs, base, &set));
            double x = p[0].x + 0.5 * w + 0.01 * scale;
            double y = walk_height(p, segs, x - 0.5 * w, x + 0.5 * w) + 0.5 * h + 0.01 * scale;
            double end = p[segs].x - w, fall = 0;
            for (int frame = 0; x < end && !c2d_test_failed(); frame++) {
                fall = fmin(fall + g, fall_max);
                c2d_vec2 d = V(vx, -fall);
                c2d_shape *box;
                ENSURE_OK(c2d_rect_new(x, y, w, h, 0, &box));
                c2d_move_result r;
                c2d_sweep_contact c[16];
                c2d_status st = c2d_static_set_move(set, box, d, NULL, &r, c, 16);
                c2d_shape_destroy(box);
                ENSURE_OK(st);
                /* Every contact is the floor's: a slope under 40 degrees or a bend between two. */
                for (int i = 0; i < r.count && i < 16; i++) {
                    if (!(c[i].normal.y > 0.7)) {
                        walk_print_floor(kinds[how], scale, p, segs, base);
                        ENSURE_MSG(0,
                                   "level %ld (%s), frame %d: box (%.17g, %.17g) %.17g x %.17g moving by (%.17g, "
                                   "%.17g) met a wall: normal (%.17g, %.17g) at (%.17g, %.17g)",
                                   level, kinds[how], frame, x, y, w, h, d.x, d.y, c[i].normal.x, c[i].normal.y,
                                   c[i].point.x, c[i].point.y);
                    }
                    fall = 0; /* landed */
                }
                if (!(r.displacement.x >= 0.3 * vx)) {
                    walk_print_floor(kinds[how], scale, p, segs, base);
                    ENSURE_MSG(0,
                               "level %ld (%s), frame %d: box (%.17g, %.17g) %.17g x %.17g moving by (%.17g, %.17g) "
                               "moved by (%.17g, %.17g) only",
                               level, kinds[how], frame, x, y, w, h, d.x, d.y, r.displacement.x, r.displacement.y);
                }
                /* Never under the floor (beyond rounding). */
                double floor = walk_height(p, segs, x + r.displacement.x - 0.5 * w, x + r.displacement.x + 0.5 * w);
                if (!(y + r.displacement.y - 0.5 * h >= floor - 1e-9 * scale)) {
                    walk_print_floor(kinds[how], scale, p, segs, base);
                    ENSURE_MSG(0,
                               "level %ld (%s), frame %d: box (%.17g, %.17g) %.17g x %.17g moving by (%.17g, %.17g) "
                               "moved by (%.17g, %.17g), its bottom %.17g under the floor %.17g",
                               level, kinds[how], frame, x, y, w, h, d.x, d.y, r.displacement.x, r.displacement.y,
                               y + r.displacement.y - 0.5 * h, floor);
                }
                x += r.displacement.x;
                y += r.displacement.y;
            }
            c2d_static_set_destroy(set);
        }
    }
}

/* The level's other member for walk_beside: 0 a crate standing on the floor at fraction at of its
 * length, 1 a slab under its base, 2 a concave piece under its base. */
static c2d_status walk_other(int which, const c2d_vec2 *p, int segs, double base, double scale, double at,
                             c2d_shape **out)
{
    double x0 = p[0].x, x1 = p[segs].x;
    if (which == 0) {
        double xc = x0 + at * (x1 - x0);
        double top = walk_height(p, segs, xc - 0.5 * scale, xc + 0.5 * scale);
        return c2d_rect_new(xc, top + 0.5 * scale, scale, scale, 0, out);
    }
    if (which == 1)
        return c2d_rect_new(0.5 * (x0 + x1), base - 0.5 * scale, x1 - x0, scale, 0, out);
    c2d_vec2 q[5] = {{x0, base}, {x0, base - scale}, {x0 + at * (x1 - x0), base - 0.2 * scale},
                     {x1, base - scale}, {x1, base}};
    return c2d_concave_new(q, 5, NULL, NULL, 0, out);
}

TEST(walk_box_never_stops_at_a_joint_beside_a_member_disabled_crossed_or_ignored)
{
    /* A random floor (a concave polygon or a chain) in a set with another member: a crate on the floor,
     * or a slab or a concave piece under it. That member disabled, crossed or ignored by the move's
     * responses, or disabled and enabled again, or the floor itself disabled and enabled again: the
     * seams around it are recomputed (for the call only, for responses), and the floor's joints must
     * stay seams; a box walking over it never stops at one and meets nothing of the floor but its
     * surface. Where the crate stays solid, the walk ends at it. */
    static const double scales[4] = {1, 0.01, 40, 3000};
    static const char *const modes[5] = {"disabled", "crossed", "ignored", "disabled and enabled again",
                                         "floor disabled and enabled again"};
    long levels = c2d_test_iterations(64);
    for (long level = 0; level < levels && !c2d_test_failed(); level++) {
        double scale = scales[level % 4];
        c2d_vec2 p[WALK_MAX_SEGS + 1];
        int segs = walk_floor(scale, p);
        double low = p[0].y;
        for (int k = 1; k <= segs; k++)
            low = fmin(low, p[k].y);
        double depth = c2d_test_uniform(0.1, 3);
        if (level % 8 >= 4)
            depth = c2d_test_uniform(3, 200);
        double base = low - depth * scale;
        double w = c2d_test_uniform(0.3, 1.5) * scale;
        double h = c2d_test_uniform(0.5, 2) * scale;
        double at = c2d_test_uniform(0.3, 0.7);
        double vx = 0.1 * scale, g = 0.02 * scale, fall_max = 0.05 * scale;
        c2d_vec2 o[WALK_MAX_SEGS + 3];
        for (int k = 0; k <= segs; k++)
            o[k] = p[k];
        o[segs + 1] = V(p[segs].x, base);
        o[segs + 2] = V(p[0].x, base);
        for (int kind = 0; kind < 2 && !c2d_test_failed(); kind++) {
            for (int which = 0; which < 3 && !c2d_test_failed(); which++) {
                c2d_shape *sh[2];
                if (kind == 0)
                    ENSURE_OK(c2d_concave_new(o, segs + 3, NULL, NULL, 0, &sh[0]));
                else
                    ENSURE_OK(c2d_chain_new(p, segs + 1, 0, &sh[0]));
                ENSURE_OK(walk_other(which, p, segs, base, scale, at, &sh[1]));
                for (int mode = 0; mode < 5 && !c2d_test_failed(); mode++) {
                    c2d_static_set *set;
                    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)sh, 2, NULL, &set));
                    c2d_response resp[2] = {C2D_RESPONSE_SLIDE, mode == 1 ? C2D_RESPONSE_CROSS : C2D_RESPONSE_NONE};
                    c2d_move_options opt = c2d_move_options_default();
                    if (mode == 1 || mode == 2)
                        opt.responses = resp;
                    if (mode == 0 || mode == 3)
                        ENSURE_OK(c2d_static_set_set_enabled(set, 1, 0));
                    if (mode == 3)
                        ENSURE_OK(c2d_static_set_set_enabled(set, 1, 1));
                    if (mode == 4) {
                        ENSURE_OK(c2d_static_set_set_enabled(set, 0, 0));
                        ENSURE_OK(c2d_static_set_set_enabled(set, 0, 1));
                    }
                    double x = p[0].x + 0.5 * w + 0.01 * scale;
                    double y = walk_height(p, segs, x - 0.5 * w, x + 0.5 * w) + 0.5 * h + 0.01 * scale;
                    double end = p[segs].x - w, fall = 0;
                    for (int frame = 0; x < end && !c2d_test_failed(); frame++) {
                        fall = fmin(fall + g, fall_max);
                        c2d_vec2 d = V(vx, -fall);
                        c2d_shape *box;
                        ENSURE_OK(c2d_rect_new(x, y, w, h, 0, &box));
                        c2d_move_result r;
                        c2d_sweep_contact c[16];
                        c2d_status st = c2d_static_set_move(set, box, d, &opt, &r, c, 16);
                        c2d_shape_destroy(box);
                        ENSURE_OK(st);
                        int crate = 0;
                        for (int i = 0; i < r.count && i < 16; i++) {
                            if (c[i].index == 1) {
                                crate = 1;
                                continue;
                            }
                            if (!(c[i].normal.y > 0.7)) {
                                walk_print_floor(kind ? "chain" : "concave", scale, p, segs, base);
                                ENSURE_MSG(0,
                                           "level %ld, other member %d %s, frame %d: box (%.17g, %.17g) %.17g x "
                                           "%.17g moving by (%.17g, %.17g) met a wall: normal (%.17g, %.17g) at "
                                           "(%.17g, %.17g)",
                                           level, which, modes[mode], frame, x, y, w, h, d.x, d.y, c[i].normal.x,
                                           c[i].normal.y, c[i].point.x, c[i].point.y);
                            }
                            fall = 0;
                        }
                        if (crate && resp[1] != C2D_RESPONSE_CROSS)
                            break; /* the crate, solid: the walk ends there */
                        if (!(r.displacement.x >= 0.3 * vx)) {
                            walk_print_floor(kind ? "chain" : "concave", scale, p, segs, base);
                            ENSURE_MSG(0,
                                       "level %ld, other member %d %s, frame %d: box (%.17g, %.17g) %.17g x %.17g "
                                       "moving by (%.17g, %.17g) moved by (%.17g, %.17g) only",
                                       level, which, modes[mode], frame, x, y, w, h, d.x, d.y, r.displacement.x,
                                       r.displacement.y);
                        }
                        x += r.displacement.x;
                        y += r.displacement.y;
                    }
                    c2d_static_set_destroy(set);
                }
                c2d_shape_destroy(sh[0]);
                c2d_shape_destroy(sh[1]);
            }
        }
    }
}
