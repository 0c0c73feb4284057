/* test_ball.c - the ball stepper (c2d_static_set_step_ball): face and corner bounces against seed 004's
 * reflection formula, rolling along a row of 100 adjacent boxes without feeling the seams, a ball that
 * starts inside pushed out the shortest way, broken bricks exposing their neighbours' faces, and one
 * million random trajectories in seed 004's scene and in a brick grid with rotated bricks: no tunnels,
 * no stuck balls, the speed kept. The geometry checks use testutil.h's independent distances. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A scene of static rectangles known both to the library (as a set) and to the test (as geometry). */
#define SCENE_MAX 256
typedef struct scene {
    int n;
    c2d_shape *shapes[SCENE_MAX];
    tu_geom geom[SCENE_MAX];
    c2d_static_set *set;
    double width, height; /* the inside of the window walls, when there are walls */
} scene;

static c2d_status scene_rect(scene *s, double cx, double cy, double w, double h, double angle)
{
    int i = s->n;
    memset(&s->geom[i], 0, sizeof s->geom[i]);
    s->geom[i].kind = TU_RECT;
    s->geom[i].n = 4;
    tu_rect_corners(V(cx, cy), w, h, angle, s->geom[i].v);
    c2d_status st = c2d_rect_new(cx, cy, w, h, angle, &s->shapes[i]);
    if (st == C2D_OK)
        s->n++;
    return st;
}

/* A rectangle given by its sides, as the seed's RECT {left, top, right, bottom}. */
static c2d_status scene_ltrb(scene *s, double l, double t, double r, double b)
{
    return scene_rect(s, 0.5 * (l + r), 0.5 * (t + b), r - l, b - t, 0);
}

static c2d_status scene_walls(scene *s, double w, double h)
{
    /* Seed 004's window walls: 9 units thick, overlapping at the corners. */
    s->width = w;
    s->height = h;
    c2d_status st = scene_ltrb(s, -10, -10, w + 10, -1);
    if (st == C2D_OK)
        st = scene_ltrb(s, -10, h, w + 10, h + 10);
    if (st == C2D_OK)
        st = scene_ltrb(s, -10, -1, -1, h);
    if (st == C2D_OK)
        st = scene_ltrb(s, w, -1, w + 10, h);
    return st;
}

static c2d_status scene_finish(scene *s)
{
    return c2d_static_set_new((const c2d_shape *const *)s->shapes, s->n, NULL, &s->set);
}

static void scene_free(scene *s)
{
    for (int i = 0; i < s->n; i++)
        c2d_shape_destroy(s->shapes[i]);
    c2d_static_set_destroy(s->set);
    s->n = 0;
    s->set = NULL;
}

/* Seed 004's demo: a 640x480 window and four rectangles. */
static c2d_status seed_scene(scene *s)
{
    memset(s, 0, sizeof *s);
    c2d_status st = scene_walls(s, 640, 480);
    if (st == C2D_OK)
        st = scene_ltrb(s, 86, 72, 207, 177);
    if (st == C2D_OK)
        st = scene_ltrb(s, 391, 37, 500, 113);
    if (st == C2D_OK)
        st = scene_ltrb(s, 103, 334, 229, 407);
    if (st == C2D_OK)
        st = scene_ltrb(s, 304, 200, 493, 339);
    return st == C2D_OK ? scene_finish(s) : st;
}

/* A 20x10 brick grid in a 900x600 window: the upper five rows have gaps and every seventh brick turned
 * by 0.3 rad; the lower five rows are packed edge to edge (seams both ways). */
static c2d_status brick_scene(scene *s)
{
    memset(s, 0, sizeof *s);
    c2d_status st = scene_walls(s, 900, 600);
    for (int row = 0; row < 10 && st == C2D_OK; row++) {
        for (int col = 0; col < 20 && st == C2D_OK; col++) {
            if (row < 5) {
                double angle = (row * 20 + col) % 7 == 3 ? 0.3 : 0.0;
                st = scene_rect(s, 60 + 40 * col, 100 + 22 * row, 36, 14, angle);
            } else {
                st = scene_rect(s, 60 + 36 * col, 250 + 14 * (row - 5), 36, 14, 0);
            }
        }
    }
    return st == C2D_OK ? scene_finish(s) : st;
}

/* Smallest distance from p to the surface of any shape of the scene, negative when inside one. */
static double scene_clearance(const scene *s, c2d_vec2 p, int *which)
{
    double best = INFINITY;
    for (int i = 0; i < s->n; i++) {
        double d = tu_point_distance(&s->geom[i], p);
        if (d < best) {
            best = d;
            *which = i;
        }
    }
    return best;
}

/* Seed 004's vertex bounce, written as the seed computes it: the reflecting surface is at the angle of
 * the line from the corner to the centre, the normal 90 degrees from it, and beta = 2 theta - alpha. */
static c2d_vec2 seed_corner_bounce(c2d_vec2 corner, c2d_vec2 centre, c2d_vec2 v)
{
    double surface = atan2(centre.y - corner.y, centre.x - corner.x);
    double theta = surface + TU_PI / 2;
    double alpha = atan2(v.y, v.x);
    double beta = 2 * theta - alpha;
    double speed = tu_len(v);
    return V(cos(beta) * speed, sin(beta) * speed);
}

TEST(ball_face_bounce_reflects_the_normal_component)
{
    /* A ball of radius 1 at (0, 5) moving (3, -4) per unit of time onto the top y = 1 of a wide box: it
     * touches at t = 0.75 (centre (2.25, 2)), then goes on with (3, 4) for the remaining 0.25. */
    scene s;
    memset(&s, 0, sizeof s);
    ENSURE_OK(scene_rect(&s, 0, 0, 40, 2, 0));
    ENSURE_OK(scene_finish(&s));
    c2d_ball ball = {{0, 5}, {3, -4}, 1};
    c2d_sweep_contact contacts[4];
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 1.0, NULL, &res, contacts, 4));
    ENSURE(res.count == 1);
    ENSURE(contacts[0].index == 0);
    ENSURE_NEAR(contacts[0].t, 0.75, 1e-15);
    ENSURE_NEAR(contacts[0].point.x, 2.25, 1e-14);
    ENSURE_NEAR(contacts[0].point.y, 1, 1e-14);
    ENSURE_NEAR(contacts[0].normal.x, 0, 0);
    ENSURE_NEAR(contacts[0].normal.y, 1, 0);
    ENSURE(contacts[0].response == C2D_RESPONSE_BOUNCE && contacts[0].pushed_out == 0);
    ENSURE_NEAR(ball.velocity.x, 3, 1e-15);
    ENSURE_NEAR(ball.velocity.y, 4, 1e-15);
    ENSURE_NEAR(ball.position.x, 3, 1e-14);
    ENSURE_NEAR(ball.position.y, 3, 1e-14);
    ENSURE_NEAR(res.travelled, 5, 1e-14);
    scene_free(&s);
}

TEST(ball_corner_bounces_match_the_seed_formula)
{
    /* Straight paths aimed past the corner (1, 1) of the box [-1,1]^2 at random angles and offsets. The
     * expected contact is solved here independently: the centre path p(s) = start + s u (u unit) meets
     * the circle of radius r about the corner where s = (w.u) - sqrt(r^2 - |w - (w.u)u|^2), w the
     * corner seen from the start. Only paths whose contact lies in the corner's region count. */
    scene s;
    memset(&s, 0, sizeof s);
    ENSURE_OK(scene_rect(&s, 0, 0, 2, 2, 0));
    ENSURE_OK(scene_finish(&s));
    const double r = 0.5;
    c2d_vec2 corner = V(1, 1);
    long n = c2d_test_iterations(20000), corner_hits = 0;
    for (long it = 0; it < n; it++) {
        double angle = c2d_test_uniform(TU_PI + 0.01, 1.5 * TU_PI - 0.01);
        c2d_vec2 u = V(cos(angle), sin(angle));
        c2d_vec2 side = V(-u.y, u.x);
        c2d_vec2 start = tu_add(tu_add(corner, tu_scale(u, -6)), tu_scale(side, c2d_test_uniform(-0.99 * r, 0.99 * r)));
        c2d_vec2 w = tu_sub(corner, start);
        double along = tu_dot(w, u);
        c2d_vec2 perp = tu_sub(w, tu_scale(u, along));
        double dist = along - sqrt(r * r - tu_dot(perp, perp));
        c2d_vec2 centre = tu_add(start, tu_scale(u, dist));
        c2d_vec2 normal = tu_scale(tu_sub(centre, corner), 1 / r);
        if (!(normal.x > 1e-6 && normal.y > 1e-6))
            continue; /* a face hit */
        double speed = c2d_test_uniform(0.5, 20);
        c2d_ball ball;
        ball.position = start;
        ball.velocity = tu_scale(u, speed);
        ball.radius = r;
        double dt = 8 / speed; /* long enough to hit, too short to come back */
        c2d_sweep_contact c[4];
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, dt, NULL, &res, c, 4));
        ENSURE_MSG(res.count == 1, "angle %.17g: %d contacts", angle, res.count);
        c2d_vec2 expect_v = seed_corner_bounce(corner, centre, tu_scale(u, speed));
        ENSURE_NEAR(ball.velocity.x, expect_v.x, 1e-9 * speed);
        ENSURE_NEAR(ball.velocity.y, expect_v.y, 1e-9 * speed);
        ENSURE_NEAR(c[0].t, dist / speed / dt, 1e-9);
        ENSURE_NEAR(c[0].normal.x, normal.x, 1e-9);
        ENSURE_NEAR(c[0].normal.y, normal.y, 1e-9);
        ENSURE_NEAR(c[0].point.x, 1, 1e-12);
        ENSURE_NEAR(c[0].point.y, 1, 1e-12);
        c2d_vec2 end = tu_add(centre, tu_scale(expect_v, dt - dist / speed));
        ENSURE_NEAR(ball.position.x, end.x, 1e-9);
        ENSURE_NEAR(ball.position.y, end.y, 1e-9);
        corner_hits++;
    }
    ENSURE_MSG(corner_hits > n / 4, "only %ld corner hits", corner_hits);
    scene_free(&s);
}

/* 100 unit boxes side by side, tops at y = 1, from x = 0 to x = 100. */
static c2d_status row_scene(scene *s)
{
    memset(s, 0, sizeof *s);
    c2d_status st = C2D_OK;
    for (int i = 0; i < 100 && st == C2D_OK; i++)
        st = scene_rect(s, i + 0.5, 0.5, 1, 1, 0);
    return st == C2D_OK ? scene_finish(s) : st;
}

TEST(ball_rolls_along_100_adjacent_boxes_without_feeling_a_seam)
{
    /* Resting on the tops and moving right: no contact at any of the 99 joints, velocity untouched. */
    scene s;
    ENSURE_OK(row_scene(&s));
    c2d_ball ball = {{0.3, 1.25}, {0.7, 0}, 0.25};
    for (int step = 0; step < 140; step++) {
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 1.0, NULL, &res, NULL, 0));
        ENSURE_MSG(res.count == 0, "step %d: %d contacts at x = %.17g", step, res.count, ball.position.x);
        ENSURE(ball.velocity.x == 0.7 && ball.velocity.y == 0);
        ENSURE(ball.position.y == 1.25);
    }
    ENSURE_NEAR(ball.position.x, 0.3 + 140 * 0.7, 1e-9);
    scene_free(&s);
}

TEST(ball_skimming_the_row_never_turns_down_again)
{
    /* Shallow paths landing anywhere on the row, joints included (every tenth lands exactly on one):
     * after the single bounce, the vertical velocity stays up; a snag on a joint would turn it. */
    scene s;
    ENSURE_OK(row_scene(&s));
    long n = c2d_test_iterations(2000);
    for (long it = 0; it < n; it++) {
        double land = it % 10 == 0 ? (double)(1 + c2d_test_rand() % 98) : c2d_test_uniform(1, 99);
        double slope = c2d_test_uniform(0.001, 0.2);
        c2d_ball ball;
        ball.radius = 0.25;
        ball.velocity = V(1, -slope);
        ball.position = V(land - 0.5, 1.25 + 0.5 * slope);
        int bounces = 0;
        for (int step = 0; step < 4; step++) {
            c2d_sweep_contact c[4];
            c2d_move_result res;
            double vy = ball.velocity.y;
            ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 0.25, NULL, &res, c, 4));
            for (int k = 0; k < res.count && k < 4; k++) {
                ENSURE_MSG(c[k].normal.x == 0 && c[k].normal.y == 1, "land %.17g: normal (%g, %g)", land,
                           c[k].normal.x, c[k].normal.y);
                bounces++;
            }
            if (vy > 0)
                ENSURE_MSG(ball.velocity.y > 0, "land %.17g: turned down", land);
        }
        ENSURE(bounces == 1);
        ENSURE_NEAR(ball.velocity.x, 1, 1e-15);
        ENSURE_NEAR(ball.velocity.y, slope, 1e-15);
    }
    scene_free(&s);
}

TEST(ball_starting_inside_is_pushed_out_the_shortest_way)
{
    /* Centre 0.1 below the top of box 50 of the row, near its joint with box 51: out through the top
     * (0.35 up), not through the joint into the next box. The push is a contact with pushed_out = 1,
     * then the ball goes on with its velocity. */
    scene s;
    ENSURE_OK(row_scene(&s));
    c2d_ball ball = {{50.98, 0.9}, {1, 0}, 0.25};
    c2d_sweep_contact c[4];
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 0.5, NULL, &res, c, 4));
    ENSURE(res.count == 1);
    ENSURE(c[0].pushed_out == 1 && c[0].index == 50 && c[0].t == 0);
    ENSURE_NEAR(c[0].normal.y, 1, 0);
    ENSURE_NEAR(ball.position.x, 51.48, 1e-12);
    ENSURE_NEAR(ball.position.y, 1.25, 1e-12);
    ENSURE_NEAR(res.displacement.y, 0.35, 1e-12);
    ENSURE(ball.velocity.x == 1 && ball.velocity.y == 0);
    scene_free(&s);
}

TEST(ball_inside_a_lone_box_leaves_by_the_nearest_face_deterministically)
{
    /* Same start twice, same result: no random nudges. Nearest face of [0,4]x[0,2] from (3.5, 1.2) is
     * the right one (0.5 away), so the centre ends at x = 4 + r, moving right as it was. */
    for (int run = 0; run < 2; run++) {
        scene s;
        memset(&s, 0, sizeof s);
        ENSURE_OK(scene_rect(&s, 2, 1, 4, 2, 0));
        ENSURE_OK(scene_finish(&s));
        c2d_ball ball = {{3.5, 1.2}, {0, 0.5}, 0.3};
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 1, NULL, &res, NULL, 0));
        ENSURE(res.count == 1);
        ENSURE_NEAR(ball.position.x, 4.3, 1e-12);
        ENSURE_NEAR(ball.position.y, 1.7, 1e-12);
        scene_free(&s);
    }
}

TEST(ball_breaking_a_brick_exposes_the_faces_beside_it)
{
    /* In the row, box 50's right edge (edge 1: from its vertex 1 to 2) is a seam; once box 51 is
     * disabled it is surface again, and a ball rolling along the row drops into the gap and hits it. */
    scene s;
    ENSURE_OK(row_scene(&s));
    int seam;
    ENSURE_OK(c2d_static_set_is_seam(s.set, 50, 1, &seam));
    ENSURE(seam == 1);
    ENSURE_OK(c2d_static_set_is_seam(s.set, 50, 2, &seam));
    ENSURE(seam == 0); /* the top */
    ENSURE_OK(c2d_static_set_set_enabled(s.set, 51, 0));
    ENSURE_OK(c2d_static_set_is_seam(s.set, 50, 1, &seam));
    ENSURE(seam == 0);
    ENSURE_OK(c2d_static_set_is_seam(s.set, 52, 3, &seam));
    ENSURE(seam == 0);
    /* A ball falling straight into the gap of width 1 (radius 0.25) lands on nothing for 1 unit. */
    c2d_ball ball = {{51.5, 1.5}, {0, -1}, 0.25};
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_ball(s.set, &ball, 1.0, NULL, &res, NULL, 0));
    ENSURE(res.count == 0);
    ENSURE_NEAR(ball.position.y, 0.5, 1e-15);
    ENSURE_OK(c2d_static_set_set_enabled(s.set, 51, 1));
    ENSURE_OK(c2d_static_set_is_seam(s.set, 50, 1, &seam));
    ENSURE(seam == 1);
    scene_free(&s);
}

/* Runs random trajectories in a scene and checks each step: the centre never ends closer than r - 1e-9
 * to any shape (no tunnel, never inside), never leaves the window, travels its whole path (never stuck)
 * and keeps its speed to 1e-9. */
static void random_trajectories(scene *s, double r, long count, int steps, long *bad, long *contacts, long *pushes)
{
    for (long it = 0; it < count; it++) {
        c2d_ball ball;
        ball.radius = r;
        ball.position = tu_random_vec(r, s->width - r, r, s->height - r);
        double speed = r * exp(c2d_test_uniform(log(0.01), log(50)));
        double a = c2d_test_uniform(-TU_PI, TU_PI);
        ball.velocity = V(speed * cos(a), speed * sin(a));
        c2d_ball start = ball;
        for (int step = 0; step < steps; step++) {
            c2d_move_result res;
            c2d_sweep_contact first;
            if (c2d_static_set_step_ball(s->set, &ball, 1.0, NULL, &res, &first, 1) != C2D_OK) {
                (*bad)++;
                return;
            }
            *contacts += res.count;
            *pushes += res.count > 0 && first.pushed_out;
            int which = -1;
            double clear = scene_clearance(s, ball.position, &which);
            double v = tu_len(ball.velocity);
            /* The seed's walls leave the inside from -1 to the width and height. */
            int ok = clear >= r - 1e-9 && ball.position.x > -1 && ball.position.x < s->width &&
                     ball.position.y > -1 && ball.position.y < s->height && fabs(v - speed) <= 1e-9 * speed &&
                     !res.truncated && res.travelled >= speed * (1 - 1e-9);
            if (!ok) {
                if (*bad < 5)
                    printf("  trajectory %ld step %d: centre (%.17g, %.17g) clearance %.17g (shape %d), speed "
                           "%.17g of %.17g, travelled %.17g, truncated %d\n",
                           it, step, ball.position.x, ball.position.y, clear, which, v, speed, res.travelled,
                           res.truncated);
                if (*bad < 5)
                    printf("    started at (%.17g, %.17g) with velocity (%.17g, %.17g)\n", start.position.x,
                           start.position.y, start.velocity.x, start.velocity.y);
                (*bad)++;
                break;
            }
        }
    }
}

/* A 60x45 window holding 40 random shapes of every kind (circles, rotated rects, polygons, capsules,
 * segments), overlapping each other at times, which makes wedges and odd corners. */
static c2d_status mixed_scene(scene *s)
{
    memset(s, 0, sizeof *s);
    c2d_status st = scene_walls(s, 60, 45);
    for (int k = 0; k < 40 && st == C2D_OK; k++) {
        tu_body b;
        st = tu_random_body(k % TU_KINDS, tu_random_vec(6, 54, 6, 39), 3, &b);
        if (st == C2D_OK) {
            s->shapes[s->n] = b.s;
            s->geom[s->n] = b.g;
            s->n++;
        }
    }
    return st == C2D_OK ? scene_finish(s) : st;
}

TEST(ball_trajectories_among_every_kind_of_shape_never_tunnel_or_stick)
{
    scene s;
    ENSURE_OK(mixed_scene(&s));
    long bad = 0, contacts = 0, pushes = 0, n = c2d_test_iterations(100000);
    random_trajectories(&s, 0.5, n, 3, &bad, &contacts, &pushes);
    ENSURE_MSG(bad == 0, "%ld bad trajectories", bad);
    ENSURE_MSG(contacts > n / 4, "%ld contacts, %ld push-outs", contacts, pushes);
    scene_free(&s);
}

TEST(ball_rolls_over_a_floor_of_segments_and_a_slope_of_turned_tiles)
{
    /* Ten collinear segments end to end: their joints are flat, so a ball rolling on them meets
     * nothing. Then ten 1x1 tiles turned by 0.2 and laid edge to edge along the slope: the ball rolling
     * down their common top face meets no joint either. */
    c2d_shape *shapes[20];
    for (int i = 0; i < 10; i++)
        ENSURE_OK(c2d_segment_new(V(i, 0), V(i + 1, 0), &shapes[i]));
    double a = -0.2;
    c2d_vec2 along = V(cos(a), sin(a)), up = V(-sin(a), cos(a));
    for (int i = 0; i < 10; i++) {
        c2d_vec2 c = tu_add(V(20, 0), tu_add(tu_scale(along, i + 0.5), tu_scale(up, -0.5)));
        ENSURE_OK(c2d_rect_new(c.x, c.y, 1, 1, a, &shapes[10 + i]));
    }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 20, NULL, &set));
    c2d_ball ball = {{0.2, 0.25}, {0.3, 0}, 0.25};
    c2d_move_result res;
    for (int k = 0; k < 30; k++) {
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &res, NULL, 0));
        ENSURE_MSG(res.count == 0, "segment floor step %d: %d contacts", k, res.count);
    }
    ENSURE(ball.velocity.x == 0.3 && ball.velocity.y == 0);
    ball.position = tu_add(tu_add(V(20, 0), tu_scale(along, 0.2)), tu_scale(up, 0.25));
    ball.velocity = tu_scale(along, 0.3);
    for (int k = 0; k < 30; k++) {
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &res, NULL, 0));
        ENSURE_MSG(res.count == 0, "slope step %d: %d contacts", k, res.count);
    }
    ENSURE_NEAR(tu_dot(tu_sub(ball.position, V(20, 0)), up), 0.25, 1e-12);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 20; i++)
        c2d_shape_destroy(shapes[i]);
}

TEST(ball_million_trajectories_in_seed_scene_never_tunnel_or_stick)
{
    /* Half of the million; radius 20 as in the seed, speeds 0.2 to 1000 per step. */
    scene s;
    ENSURE_OK(seed_scene(&s));
    long bad = 0, contacts = 0, pushes = 0, n = c2d_test_iterations(500000);
    random_trajectories(&s, 20, n, 2, &bad, &contacts, &pushes);
    ENSURE_MSG(bad == 0, "%ld bad trajectories", bad);
    /* The scene really exercises bounces and starts inside shapes. */
    ENSURE_MSG(contacts > n / 2 && pushes > n / 50, "%ld contacts, %ld push-outs", contacts, pushes);
    scene_free(&s);
}

TEST(ball_million_trajectories_in_brick_grid_never_tunnel_or_stick)
{
    /* The other half; radius 5, too big for the gaps between bricks. */
    scene s;
    ENSURE_OK(brick_scene(&s));
    long bad = 0, contacts = 0, pushes = 0, n = c2d_test_iterations(500000);
    random_trajectories(&s, 5, n, 2, &bad, &contacts, &pushes);
    ENSURE_MSG(bad == 0, "%ld bad trajectories", bad);
    ENSURE_MSG(contacts > n / 2 && pushes > n / 50, "%ld contacts, %ld push-outs", contacts, pushes);
    scene_free(&s);
}
