/* test_turnsweep.c - the sweep of shapes that turn as they move (c2d_sweep_motion): exact worked cases
 * (a bar turning about its end into a ball, a flipper hinge), the translation case bit for bit, bad
 * input, and a property test against an oracle that substeps each motion finely and sweeps each
 * substep's translation with c2d_sweep: the rotating sweep's time is never after the oracle's first
 * contact, and the shapes are touching at it. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

TEST(turnsweep_bar_turning_about_its_end_meets_ball)
{
    /* A segment from the origin to (10, 0) turns counter-clockwise at 1 rad per unit about the origin
     * (its start point; the segment's position is its midpoint (5, 0), so the pivot is (-5, 0)). A
     * ball of radius 1 at (6, 3): the bar's line at angle a is sqrt(45) |sin(phi - a)| from the
     * centre, phi = atan2(3, 6); it touches when that is 1: a = phi - asin(1 / sqrt 45) = t. */
    c2d_shape *bar, *ball;
    ENSURE_OK(c2d_segment_new(V(0, 0), V(10, 0), &bar));
    ENSURE_OK(c2d_circle_new(6, 3, 1, &ball));
    c2d_motion turn = tu_motion(0, 0, 1, -5, 0);
    c2d_toi toi;
    ENSURE_OK(c2d_sweep_motion(bar, &turn, ball, NULL, &toi));
    double want = atan2(3, 6) - asin(1 / sqrt(45.0));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, want, 1e-9);
    /* The normal at contact is the bar's left normal, from the bar to the ball. */
    ENSURE_NEAR(toi.normal.x, -sin(want), 1e-9);
    ENSURE_NEAR(toi.normal.y, cos(want), 1e-9);
    /* The point lies on the bar's line, 1 from the centre. */
    double along = 6 * cos(want) + 3 * sin(want);
    ENSURE_NEAR(toi.point.x, along * cos(want) - 0 * sin(want) - 0, 1e-8);
    ENSURE_NEAR(toi.point.y, along * sin(want), 1e-8);
    /* The same seen from the ball: the normal flips. */
    ENSURE_OK(c2d_sweep_motion(ball, NULL, bar, &turn, &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, want, 1e-9);
    ENSURE_NEAR(toi.normal.x, sin(want), 1e-9);
    ENSURE_NEAR(toi.normal.y, -cos(want), 1e-9);
    /* Turning the other way, it swings away and never meets the ball within the unit of time. */
    turn.angular_velocity = -1;
    ENSURE_OK(c2d_sweep_motion(bar, &turn, ball, NULL, &toi));
    ENSURE(toi.state == C2D_TOI_NONE);
    ENSURE(toi.t == 1);
    c2d_shape_destroy(bar);
    c2d_shape_destroy(ball);
}

TEST(turnsweep_fast_thin_flipper_cannot_step_over_a_ball)
{
    /* A flipper 110 long, 0.01 thick, hinged at its left end, swings 3 radians in one unit of time:
     * its tip moves 330 per unit, 66 times a small ball's diameter. The ball (radius 2.5) sits across
     * its path at 45 degrees, 80 from the hinge. Contact when the flipper's upper face (its centre line
     * + 0.005) is 2.5 from the centre: a = pi/4 - asin(2.505 / 80), t = a / 3. */
    c2d_shape *flip, *ball;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 0.01, 0, &flip));
    double c = 80 / sqrt(2.0);
    ENSURE_OK(c2d_circle_new(c, c, 2.5, &ball));
    c2d_motion swing = tu_motion(0, 0, 3, -55, 0);
    c2d_toi toi;
    ENSURE_OK(c2d_sweep_motion(flip, &swing, ball, NULL, &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, (TU_PI / 4 - asin(2.505 / 80)) / 3, 1e-9);
    c2d_shape_destroy(flip);
    c2d_shape_destroy(ball);
}

/* Two shapes touching corner to corner to the last bit (2e-16 apart: a box a turning platform had
 * carried), the platform turning its face into the box as it falls. The direction from one corner to
 * the other was rounding's, outside the corner's cone of normals; the gap measured along it stepped the
 * sweep past the contact, to the end, and the box ended 0.08 deep. The contact is met at once. */
TEST(turnsweep_corners_touching_to_the_last_bit_are_met_at_once)
{
    c2d_shape *plat, *box;
    ENSURE_OK(c2d_rect_new(0, 0, 2 * 1.9075908612277694, 0.5, 0, &plat));
    ENSURE_OK(c2d_shape_set_transform(plat, V(0.77724109104818107, 0.74531623949637804), -1.6127260111775599));
    ENSURE_OK(c2d_rect_new(1.5069826089176552, 1.840751130288683, 0.8, 1.6, 0, &box));
    c2d_motion fall = tu_motion(0, -0.38, 0, 0, 0);
    c2d_motion turn = tu_motion(0, 0, -0.042440158188883192, 0.74597188943456549, 0);
    c2d_toi toi;
    ENSURE_OK(c2d_sweep_motion(box, &fall, plat, &turn, &toi));
    ENSURE_MSG(toi.state == C2D_TOI_HIT && toi.t == 0, "state %d at t %.17g", (int)toi.state, toi.t);
    /* Along the platform's long face, which leans onto the box: from the box to the platform. */
    ENSURE(toi.normal.x < -0.99);
    c2d_shape_destroy(plat);
    c2d_shape_destroy(box);
}

TEST(turnsweep_without_turning_is_the_translation_sweep_bit_for_bit)
{
    for (long it = 0; it < c2d_test_iterations(500); it++) {
        int ka = (int)(c2d_test_rand() % TU_KINDS);
        int kb = (int)(c2d_test_rand() % TU_KINDS);
        tu_body a, b;
        ENSURE_OK(tu_random_body(ka, V(0, 0), 3, &a));
        ENSURE_OK(tu_random_body(kb, V(4, 0), 3, &b));
        double vx = c2d_test_uniform(-8, 8);
        double vy = c2d_test_uniform(-8, 8);
        double px = c2d_test_uniform(-3, 3);
        double py = c2d_test_uniform(-3, 3);
        c2d_motion ma = tu_motion(vx, vy, 0, px, py), mb = tu_motion(0, 0, 0, 0, 0);
        c2d_toi x, y;
        ENSURE_OK(c2d_sweep_motion(a.s, &ma, b.s, &mb, &x));
        ENSURE_OK(c2d_sweep(a.s, V(vx, vy), b.s, V(0, 0), &y));
        ENSURE_MSG(memcmp(&x, &y, sizeof x) == 0, "case %ld: not the translation sweep's answer", it);
        tu_body_destroy(&a);
        tu_body_destroy(&b);
    }
}

TEST(turnsweep_bad_input_changes_nothing)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &a));
    ENSURE_OK(c2d_circle_new(5, 0, 1, &b));
    c2d_toi toi;
    memset(&toi, 0x5a, sizeof toi);
    c2d_toi before = toi;
    c2d_motion m = tu_motion(1, 0, NAN, 0, 0);
    ENSURE(c2d_sweep_motion(a, &m, b, NULL, &toi) == C2D_ERR_NOT_FINITE);
    m = tu_motion(1, 0, 1, 2e15, 0);
    ENSURE(c2d_sweep_motion(a, &m, b, NULL, &toi) == C2D_ERR_RANGE);
    m = tu_motion(INFINITY, 0, 1, 0, 0);
    ENSURE(c2d_sweep_motion(a, NULL, b, &m, &toi) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_sweep_motion(NULL, NULL, b, NULL, &toi) == C2D_ERR_NULL);
    ENSURE(c2d_sweep_motion(a, NULL, b, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(memcmp(&toi, &before, sizeof toi) == 0);
    /* Standing still and apart: none. Overlapping at the start: the overlap, as c2d_sweep reports it. */
    ENSURE_OK(c2d_sweep_motion(a, NULL, b, NULL, &toi));
    ENSURE(toi.state == C2D_TOI_NONE);
    c2d_shape *c;
    ENSURE_OK(c2d_circle_new(1.5, 0, 1, &c));
    m = tu_motion(0, 0, 2, 1, 0);
    c2d_toi want;
    ENSURE_OK(c2d_sweep_motion(a, &m, c, NULL, &toi));
    ENSURE_OK(c2d_sweep(a, V(0, 0), c, V(0, 0), &want));
    ENSURE(toi.state == C2D_TOI_OVERLAP);
    ENSURE(memcmp(&toi, &want, sizeof toi) == 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    c2d_shape_destroy(c);
}

/* ---- the oracle ---- */

typedef struct pose {
    c2d_vec2 p;
    double angle;
} pose;

/* The pose at time t of a shape standing at p0, angle a0, under motion m (libm's trigonometry: the
 * oracle shares nothing with the library's own). */
static pose pose_at(c2d_vec2 p0, double a0, const c2d_motion *m, double t)
{
    c2d_vec2 c = tu_add(p0, tu_rot(m->pivot, a0));
    c2d_vec2 r = tu_rot(tu_sub(p0, c), m->angular_velocity * t);
    pose q;
    q.p = tu_add(tu_add(c, tu_scale(m->velocity, t)), r);
    q.angle = a0 + m->angular_velocity * t;
    return q;
}

static double distance_at(c2d_shape *a, c2d_vec2 pa, double aa, const c2d_motion *ma, c2d_shape *b, c2d_vec2 pb,
                          double ab, const c2d_motion *mb, double t)
{
    pose qa = pose_at(pa, aa, ma, t), qb = pose_at(pb, ab, mb, t);
    c2d_distance_result d;
    if (c2d_shape_set_transform(a, qa.p, qa.angle) != C2D_OK || c2d_shape_set_transform(b, qb.p, qb.angle) != C2D_OK ||
        c2d_distance(a, b, &d) != C2D_OK)
        return NAN;
    if (d.distance > 0)
        return d.distance;
    c2d_contact k;
    if (c2d_collide(a, b, &k) != C2D_OK)
        return NAN;
    return k.count > 0 ? -k.depth : 0;
}

/* The oracle's first contact in [t0, t1], cut into n substeps: in each, both shapes are turned to their
 * angle at the substep's middle and c2d_sweep sweeps the translation between its two ends. Turned
 * points then stray from their arcs by up to their lever times the angle of half a substep, so a
 * substep that meets is cut again (three times, 100 ways), down to 5e-11 of time, before it counts.
 * Returns the end time of the first substep that meets, or 2 for none. */
static double oracle_first(c2d_shape *a, c2d_vec2 pa, double aa, const c2d_motion *ma, c2d_shape *b, c2d_vec2 pb,
                           double ab, const c2d_motion *mb, double t0, double t1, int n, int depth)
{
    for (int k = 0; k < n; k++) {
        double s0 = t0 + (t1 - t0) * k / n, s1 = t0 + (t1 - t0) * (k + 1) / n, sm = 0.5 * (s0 + s1);
        pose a0 = pose_at(pa, aa, ma, s0), a1 = pose_at(pa, aa, ma, s1), am = pose_at(pa, aa, ma, sm);
        pose b0 = pose_at(pb, ab, mb, s0), b1 = pose_at(pb, ab, mb, s1), bm = pose_at(pb, ab, mb, sm);
        c2d_toi toi;
        if (c2d_shape_set_transform(a, a0.p, am.angle) != C2D_OK ||
            c2d_shape_set_transform(b, b0.p, bm.angle) != C2D_OK ||
            c2d_sweep(a, tu_sub(a1.p, a0.p), b, tu_sub(b1.p, b0.p), &toi) != C2D_OK)
            return NAN;
        if (toi.state == C2D_TOI_NONE)
            continue;
        if (depth == 0)
            return s1;
        double r = oracle_first(a, pa, aa, ma, b, pb, ab, mb, s0, s1, 100, depth - 1);
        if (r != 2)
            return r;
    }
    return 2;
}

static c2d_status random_shape(int kind, c2d_vec2 around, double *angle, c2d_shape **out)
{
    if (kind < TU_KINDS) {
        tu_body b;
        c2d_status st = tu_random_body(kind, around, 1.5, &b);
        if (st != C2D_OK)
            return st;
        *out = b.s;
        return c2d_shape_get_angle(b.s, angle);
    }
    /* A chain: a zigzag of four segments. */
    c2d_vec2 pts[5];
    for (int i = 0; i < 5; i++) {
        double dy = c2d_test_uniform(-1, 1);
        pts[i] = V(around.x + i - 2, around.y + dy);
    }
    *angle = 0;
    return c2d_chain_new(pts, 5, 0, out);
}

TEST(turnsweep_never_after_the_oracle_and_touching_at_its_time)
{
    long n = c2d_test_iterations(400);
    int hits = 0, misses = 0;
    for (long it = 0; it < n; it++) {
        int ka = (int)(c2d_test_rand() % (TU_KINDS + 1));
        int kb = (int)(c2d_test_rand() % (TU_KINDS + 1));
        c2d_shape *a, *b;
        double aa, ab;
        ENSURE_OK(random_shape(ka, V(0, 0), &aa, &a));
        ENSURE_OK(random_shape(kb, V(5, 0), &ab, &b));
        c2d_vec2 pa, pb;
        ENSURE_OK(c2d_shape_get_position(a, &pa));
        ENSURE_OK(c2d_shape_get_position(b, &pb));
        /* Up to a radian per unit of time (60 rad/s over a 1/60 s step) about a pivot up to 4 away,
         * and one case in four up to 6 (a blade spinning at 360 rad/s). */
        double fast = c2d_test_rand() % 4 == 0 ? 6 : 1;
        double w = c2d_test_uniform(-fast, fast);
        double px = c2d_test_uniform(-4, 4);
        double py = c2d_test_uniform(-4, 4);
        double vx = c2d_test_uniform(-2, 6);
        double vy = c2d_test_uniform(-2, 2);
        c2d_motion ma = tu_motion(vx, vy, w, px, py);
        double wb = c2d_test_rand() % 2 ? 0.0 : c2d_test_uniform(-1, 1);
        c2d_motion mb = tu_motion(0, 0, wb, 0, 0);
        c2d_toi toi;
        ENSURE_OK(c2d_sweep_motion(a, &ma, b, &mb, &toi));
        if (toi.state == C2D_TOI_OVERLAP) {
            c2d_shape_destroy(a);
            c2d_shape_destroy(b);
            continue;
        }
        double first = oracle_first(a, pa, aa, &ma, b, pb, ab, &mb, 0, 1, 2000, 3);
        ENSURE(!isnan(first));
        if (toi.state == C2D_TOI_HIT) {
            hits++;
            /* Never after the oracle's first contact: by the end of its substep (the oracle's turned
             * points stray from their arcs by up to some 1e-10, so where the surfaces approach slowly
             * its substep may end a little before they touch; then they are not yet inside there).
             * And touching at its time: the gap there is no wider than the tolerance. */
            double at_first = toi.t <= first + 1e-9 ? 0 : distance_at(a, pa, aa, &ma, b, pb, ab, &mb, first);
            ENSURE_MSG(toi.t <= first + 1e-9 || at_first >= -1e-9,
                       "case %ld (%d,%d): t %.17g after the oracle's %.17g (%.3g apart there)", it, ka, kb, toi.t,
                       first, at_first);
            double d = distance_at(a, pa, aa, &ma, b, pb, ab, &mb, toi.t);
            ENSURE_MSG(fabs(d) <= 1e-9, "case %ld (%d,%d): %.3g apart at t %.17g", it, ka, kb, d, toi.t);
        } else {
            misses++;
            ENSURE_MSG(first == 2, "case %ld (%d,%d): no contact, the oracle meets by %.17g", it, ka, kb, first);
        }
        c2d_shape_destroy(a);
        c2d_shape_destroy(b);
    }
    /* The draw must test both answers. */
    ENSURE_MSG(hits > n / 10 && misses > n / 10, "%d hits, %d misses", hits, misses);
}
