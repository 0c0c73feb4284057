/* test_localtol.c - a static set's touching tolerance belongs to the shapes that meet (issue 22, item 4):
 * a member far away, or a set spread over a huge range, must not make the contacts near the origin
 * any less exact than they are in a set holding only the shapes there. The far members are appended
 * after the near ones, so that indices agree, and never come near the movers: with and without them
 * every motion must give the same answers, to the rounding of the local coordinates. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

static double vmag(c2d_vec2 a)
{
    return fmax(fabs(a.x), fabs(a.y));
}

/* The polygon and the ball the Lua random tester met (issue 22): alone, the ball's contact lies one
 * radius from its centre along the normal to 1e-14; with a circle 6e11 away in the set it was 0.006
 * off, the point outside the polygon. */
static const c2d_vec2 lua_poly[7] = {
    {57.5983253335462, 22.729701883812094},   {57.949977296007255, 23.091474776042354},
    {57.980188188355605, 23.435847040101695}, {57.648993021341148, 23.880931336829608},
    {56.915677180905028, 23.775307400310751}, {56.72527386018438, 23.3948553435268},
    {56.933431626922911, 22.842470474600535}};

#define FAR_KINDS 7

/* Far member number k (0 .. FAR_KINDS - 1): the tester's circle 6e11 away, and others from 1e6 to
 * 1e12 away in every direction, of every kind. */
static c2d_status far_member(int k, c2d_shape **out)
{
    switch (k) {
    case 0:
        return c2d_circle_new(4562607274.6527414, 599674454703.77539, 5.7452410474630264, out);
    case 1:
        return c2d_circle_new(-1e6, 3e5, 2.5, out);
    case 2:
        return c2d_rect_new(3.3e9, -1.1e9, 40, 7, 0.3, out);
    case 3:
        return c2d_rect_new(-1e12, -1e12, 1e3, 1e3, 0, out);
    case 4: {
        static const c2d_vec2 p[4] = {{1e12, 5e11}, {1e12 + 5e5, 5e11}, {1e12 + 5e5, 5e11 + 3e5}, {1e12, 5e11 + 2e5}};
        return c2d_polygon_new(p, 4, out);
    }
    case 5:
        return c2d_segment_new(V(-7e10, 2e11), V(-7e10 + 1e4, 2e11 - 3e4), out);
    default:
        return c2d_capsule_new(V(8e7, 8e7), V(8e7 + 30, 8e7 + 10), 12, out);
    }
}

/* A set of the n near shapes followed by far members: none (far_mask 0) or those whose bit is set. */
static c2d_status set_with_far(c2d_shape *const *near, int n, unsigned far_mask, c2d_static_set **out)
{
    const c2d_shape *all[64 + FAR_KINDS];
    c2d_shape *far[FAR_KINDS];
    int m = 0, nf = 0;
    c2d_status st = C2D_OK;
    for (int i = 0; i < n; i++)
        all[m++] = near[i];
    for (int k = 0; k < FAR_KINDS && st == C2D_OK; k++)
        if (far_mask & (1u << k)) {
            st = far_member(k, &far[nf]);
            if (st == C2D_OK)
                all[m++] = far[nf++];
        }
    if (st == C2D_OK)
        st = c2d_static_set_new(all, m, NULL, out);
    for (int k = 0; k < nf; k++)
        c2d_shape_destroy(far[k]);
    return st;
}

TEST(localtol_far_members_leave_a_ball_contact_exact)
{
    c2d_shape *poly;
    ENSURE_OK(c2d_polygon_new(lua_poly, 7, &poly));
    tu_geom g;
    memset(&g, 0, sizeof g);
    g.kind = TU_POLYGON;
    g.n = 7;
    memcpy(g.v, lua_poly, sizeof lua_poly);
    c2d_contact_record alone[8];
    c2d_move_result alone_res;
    c2d_ball alone_ball;
    memset(alone, 0, sizeof alone);
    memset(&alone_res, 0, sizeof alone_res);
    memset(&alone_ball, 0, sizeof alone_ball);
    /* Alone (mask 0), the tester's circle (mask 1), each far member by itself, and all of them. */
    static const unsigned masks[] = {0, 1, 2, 4, 8, 16, 32, 64, 127};
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
        c2d_static_set *set;
        ENSURE_OK(set_with_far(&poly, 1, masks[m], &set));
        c2d_ball b;
        b.position = V(72.096756846689047, 30.192322302699239);
        b.velocity = V(-36.852078045183831, -12.875705404614891);
        b.radius = 3.9517195755391006;
        c2d_contact_record rec[8];
        c2d_move_result res;
        c2d_status st = c2d_static_set_step_ball_records(set, &b, 1.872259531110646, NULL, &res, rec, 8);
        c2d_static_set_destroy(set);
        ENSURE_MSG(st == C2D_OK, "far members %#x: status %d", masks[m], (int)st);
        ENSURE_MSG(res.count == 1 && rec[0].contact.index == 0, "far members %#x: %d contacts", masks[m], res.count);
        const c2d_contact_record *r = &rec[0];
        /* The header's promise for a ball, to the rounding of coordinates of 100. */
        c2d_vec2 back = tu_sub(tu_add(r->contact.point, tu_scale(r->contact.normal, b.radius)), r->position);
        ENSURE_MSG(vmag(back) <= 1e-13 * (1 + vmag(r->position)),
                   "far members %#x: point + r * normal - position = (%.3g, %.3g)", masks[m], back.x, back.y);
        /* The point lies on the polygon (its outline), not outside it. */
        double out = tu_point_distance(&g, r->contact.point);
        ENSURE_MSG(out <= 1e-12, "far members %#x: the contact point lies %.3g from the polygon", masks[m], out);
        if (m == 0) {
            memcpy(alone, rec, sizeof alone);
            alone_res = res;
            alone_ball = b;
            continue;
        }
        /* And the whole step is the one without them. */
        ENSURE_MSG(fabs(r->contact.t - alone[0].contact.t) <= 1e-14 &&
                       vmag(tu_sub(r->position, alone[0].position)) <= 1e-12 &&
                       vmag(tu_sub(b.position, alone_ball.position)) <= 1e-12 &&
                       vmag(tu_sub(b.velocity, alone_ball.velocity)) <= 1e-12 &&
                       fabs(res.travelled - alone_res.travelled) <= 1e-12,
                   "far members %#x: t %.17g (alone %.17g), end (%.17g, %.17g) (alone (%.17g, %.17g))", masks[m],
                   r->contact.t, alone[0].contact.t, b.position.x, b.position.y, alone_ball.position.x,
                   alone_ball.position.y);
    }
    c2d_shape_destroy(poly);
}

/* ---- property: a small scene with and without far members ---- */

#define NEAR_MAX 10
#define REC_MAX 48

/* What a motion answered, for comparison. */
typedef struct answer {
    c2d_status st;
    int count;
    c2d_contact_record rec[REC_MAX];
    c2d_vec2 end, vel;
    double travelled;
    int truncated;
    c2d_toi toi;
    int toi_index;
} answer;

/* Whether two answers agree to within tol: the same contacts with the same shapes, features equal to
 * tol (local coordinates) and times equal to 1e-12. */
static int same_answer(const answer *a, const answer *b, double tol, char *why, size_t why_len)
{
    if (a->st != b->st || a->count != b->count || a->truncated != b->truncated) {
        snprintf(why, why_len, "status %d/%d, %d/%d contacts", (int)a->st, (int)b->st, a->count, b->count);
        return 0;
    }
    if (a->st != C2D_OK)
        return 1;
    for (int k = 0; k < a->count && k < REC_MAX; k++) {
        const c2d_contact_record *x = &a->rec[k], *y = &b->rec[k];
        if (x->contact.index != y->contact.index || x->contact.response != y->contact.response ||
            x->contact.pushed_out != y->contact.pushed_out || fabs(x->contact.t - y->contact.t) > 1e-12 ||
            vmag(tu_sub(x->contact.point, y->contact.point)) > tol ||
            vmag(tu_sub(x->contact.normal, y->contact.normal)) > 1e-12 ||
            vmag(tu_sub(x->position, y->position)) > tol || vmag(tu_sub(x->velocity, y->velocity)) > tol) {
            snprintf(why, why_len,
                     "contact %d: shape %d/%d, t %.17g/%.17g, point (%.17g, %.17g)/(%.17g, %.17g), normal "
                     "(%.17g, %.17g)/(%.17g, %.17g)",
                     k, x->contact.index, y->contact.index, x->contact.t, y->contact.t, x->contact.point.x,
                     x->contact.point.y, y->contact.point.x, y->contact.point.y, x->contact.normal.x,
                     x->contact.normal.y, y->contact.normal.x, y->contact.normal.y);
            return 0;
        }
    }
    if (vmag(tu_sub(a->end, b->end)) > tol || vmag(tu_sub(a->vel, b->vel)) > tol ||
        fabs(a->travelled - b->travelled) > tol) {
        snprintf(why, why_len, "end (%.17g, %.17g)/(%.17g, %.17g)", a->end.x, a->end.y, b->end.x, b->end.y);
        return 0;
    }
    if (a->toi.state != b->toi.state || a->toi_index != b->toi_index || fabs(a->toi.t - b->toi.t) > 1e-12 ||
        fabs(a->toi.depth - b->toi.depth) > tol || vmag(tu_sub(a->toi.point, b->toi.point)) > tol ||
        vmag(tu_sub(a->toi.normal, b->toi.normal)) > 1e-12) {
        snprintf(why, why_len, "sweep: state %d/%d, shape %d/%d, t %.17g/%.17g, depth %.17g/%.17g",
                 (int)a->toi.state, (int)b->toi.state, a->toi_index, b->toi_index, a->toi.t, b->toi.t,
                 a->toi.depth, b->toi.depth);
        return 0;
    }
    return 1;
}

/* A ball step through the set. */
static void ball_answer(const c2d_static_set *set, c2d_ball ball, double dt, const c2d_move_options *o, answer *out)
{
    memset(out, 0, sizeof *out);
    c2d_move_result res;
    memset(&res, 0, sizeof res);
    out->st = c2d_static_set_step_ball_records(set, &ball, dt, o, &res, out->rec, REC_MAX);
    out->count = res.count;
    out->truncated = res.truncated;
    out->end = ball.position;
    out->vel = ball.velocity;
    out->travelled = res.travelled;
}

/* A move of shape s through the set by d, and its sweep by d. */
static void move_answer(const c2d_static_set *set, const c2d_shape *s, c2d_vec2 d, const c2d_move_options *o,
                        answer *out)
{
    memset(out, 0, sizeof *out);
    c2d_move_result res;
    memset(&res, 0, sizeof res);
    out->st = c2d_static_set_move_records(set, s, d, o, &res, out->rec, REC_MAX);
    out->count = res.count;
    out->truncated = res.truncated;
    out->end = res.displacement;
    out->vel = res.velocity;
    out->travelled = res.travelled;
    if (out->st == C2D_OK)
        out->st = c2d_static_set_sweep(set, s, d, &out->toi, &out->toi_index);
}

TEST(localtol_far_members_change_no_answer_near_the_origin)
{
    long scenes = c2d_test_iterations(300);
    int motions = 0, contacts = 0;
    for (long it = 0; it < scenes && !c2d_test_failed(); it++) {
        /* A small scene: random shapes, or shapes on a half-unit grid that touch exactly (flush faces,
         * corners on faces: where touching is decided). */
        int grid = c2d_test_rand() % 2, n = 3 + (int)(c2d_test_rand() % (NEAR_MAX - 2));
        tu_body near[NEAR_MAX];
        c2d_shape *shapes[NEAR_MAX];
        int made = 0;
        c2d_status st = C2D_OK;
        for (; made < n && st == C2D_OK; made++) {
            int kind = (int)(c2d_test_rand() % TU_KINDS);
            st = grid ? tu_grid_body(kind, &near[made]) : tu_random_body(kind, V(0, 0), 4.0, &near[made]);
            shapes[made] = near[made].s;
        }
        if (st != C2D_OK)
            made--;
        c2d_static_set *alone = NULL, *with = NULL;
        /* Far members: one to all seven, appended after the scene's. */
        unsigned mask = 1u + (unsigned)(c2d_test_rand() % 127);
        if (st == C2D_OK)
            st = set_with_far(shapes, n, 0, &alone);
        if (st == C2D_OK)
            st = set_with_far(shapes, n, mask, &with);
        for (int k = 0; k < 8 && st == C2D_OK && !c2d_test_failed(); k++) {
            answer a, b;
            c2d_move_options o = c2d_move_options_default();
            int which = (int)(c2d_test_rand() % 3);
            o.response = which == 0 ? C2D_RESPONSE_SLIDE : which == 1 ? C2D_RESPONSE_BOUNCE : C2D_RESPONSE_TOUCH;
            if (c2d_test_rand() % 2)
                o.restitution = c2d_test_uniform(0, 1);
            char why[512];
            double scale = 20;
            if (k % 2 == 0) {
                c2d_ball ball;
                ball.position = grid ? tu_grid_point(5) : tu_random_point(6);
                ball.velocity = tu_random_point(10);
                if (grid && c2d_test_rand() % 2)
                    ball.velocity = tu_grid_point(5);
                ball.radius = grid ? 0.5 * (double)(1 + c2d_test_rand() % 2) : c2d_test_uniform(0.05, 1.5);
                double dt = c2d_test_uniform(0.2, 2);
                if (k == 0)
                    o.response = C2D_RESPONSE_NONE; /* the ball's default: bounce */
                ball_answer(alone, ball, dt, &o, &a);
                ball_answer(with, ball, dt, &o, &b);
                if (!same_answer(&a, &b, 1e-12 * scale, why, sizeof why)) {
                    c2d_test_fail(__FILE__, __LINE__,
                                  "scene %ld (grid %d, far members %#x): ball at (%.17g, %.17g) r %.17g, velocity "
                                  "(%.17g, %.17g), dt %.17g, response %d: %s",
                                  it, grid, mask, ball.position.x, ball.position.y, ball.radius, ball.velocity.x,
                                  ball.velocity.y, dt, (int)o.response, why);
                    for (int j = 0; j < n; j++)
                        tu_print_geom("shape", &near[j].g);
                }
            } else {
                tu_body mover;
                int kind = (int)(c2d_test_rand() % TU_KINDS);
                st = grid ? tu_grid_body(kind, &mover) : tu_random_body(kind, V(0, 0), 6.0, &mover);
                if (st != C2D_OK)
                    break;
                c2d_vec2 d = grid ? tu_grid_point(5) : tu_random_point(8);
                move_answer(alone, mover.s, d, &o, &a);
                move_answer(with, mover.s, d, &o, &b);
                if (!same_answer(&a, &b, 1e-12 * scale, why, sizeof why)) {
                    c2d_test_fail(__FILE__, __LINE__,
                                  "scene %ld (grid %d, far members %#x): move by (%.17g, %.17g), response %d: %s", it,
                                  grid, mask, d.x, d.y, (int)o.response, why);
                    tu_print_geom("mover", &mover.g);
                    for (int j = 0; j < n; j++)
                        tu_print_geom("shape", &near[j].g);
                }
                tu_body_destroy(&mover);
            }
            motions++;
            contacts += a.count;
        }
        c2d_static_set_destroy(alone);
        c2d_static_set_destroy(with);
        for (int j = 0; j < made; j++)
            tu_body_destroy(&near[j]);
        ENSURE_OK(st);
    }
    /* The scenes are dense enough that most motions meet something. */
    ENSURE_MSG(c2d_test_failed() || contacts > motions / 2, "%d contacts in %d motions", contacts, motions);
}

/* The other side of the same rule: a member whose own coordinates are huge keeps the coarse tolerance
 * they need, wherever it meets the mover. A floor two trillion long, through the origin, and balls
 * bouncing on it near the origin (its far ends round its edge lines by about 1e-4 there): none goes
 * through or ends below it, and every contact lies on it and faces up. Beside it, a small brick is met
 * as exactly as in a set of its own. */
TEST(localtol_a_floor_a_trillion_long_still_holds_balls_near_the_origin)
{
    c2d_shape *floor_shape, *brick;
    ENSURE_OK(c2d_rect_new(0, -5, 2e12, 10, 0, &floor_shape));
    ENSURE_OK(c2d_rect_new(3, 4, 2, 1, 0.3, &brick));
    const c2d_shape *shapes[2] = {floor_shape, brick};
    c2d_static_set *set, *alone;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    ENSURE_OK(c2d_static_set_new(&shapes[1], 1, NULL, &alone));
    c2d_shape_destroy(floor_shape);
    tu_geom g;
    memset(&g, 0, sizeof g);
    g.kind = TU_RECT;
    g.n = 4;
    tu_rect_corners(V(3, 4), 2, 1, 0.3, g.v);
    c2d_shape_destroy(brick);
    long n = c2d_test_iterations(2000);
    int floor_hits = 0, brick_hits = 0;
    for (long it = 0; it < n && !c2d_test_failed(); it++) {
        c2d_ball b;
        b.radius = c2d_test_uniform(0.1, 1.5);
        double py = b.radius + c2d_test_uniform(0, 6), px = c2d_test_uniform(-10, 10);
        b.position = V(px, py);
        if (it % 4 == 0)
            b.position.y = b.radius; /* resting on the floor */
        b.velocity = tu_random_point(12);
        c2d_ball start = b;
        c2d_contact_record rec[REC_MAX];
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_ball_records(set, &b, 1.0, NULL, &res, rec, REC_MAX));
        ENSURE_MSG(b.position.y >= b.radius - 1e-3,
                   "ball r %.17g from (%.17g, %.17g) with velocity (%.17g, %.17g) ended at y = %.17g", b.radius,
                   start.position.x, start.position.y, start.velocity.x, start.velocity.y, b.position.y);
        for (int k = 0; k < res.count && k < REC_MAX; k++) {
            const c2d_contact_record *r = &rec[k];
            if (r->contact.index == 0) {
                floor_hits++;
                ENSURE_MSG(fabs(r->contact.point.y) <= 1e-3 && r->contact.normal.y > 1 - 1e-9 &&
                               r->position.y >= b.radius - 1e-3,
                           "floor contact at (%.17g, %.17g), normal (%.17g, %.17g)", r->contact.point.x,
                           r->contact.point.y, r->contact.normal.x, r->contact.normal.y);
                continue;
            }
            brick_hits++;
            /* The brick is met as exactly as its own coordinates allow. */
            c2d_vec2 back = tu_sub(tu_add(r->contact.point, tu_scale(r->contact.normal, b.radius)), r->position);
            ENSURE_MSG(vmag(back) <= 1e-13 * 20 && tu_point_distance(&g, r->contact.point) <= 1e-12,
                       "brick contact %d: point + r * normal - position = (%.3g, %.3g)", k, back.x, back.y);
        }
        /* Until the floor is met, the step is the one without the floor. */
        if (res.count > 0 && rec[0].contact.index == 1) {
            c2d_ball b2 = start;
            c2d_contact_record rec2[REC_MAX];
            c2d_move_result res2;
            ENSURE_OK(c2d_static_set_step_ball_records(alone, &b2, 1.0, NULL, &res2, rec2, REC_MAX));
            ENSURE_MSG(res2.count > 0 && rec2[0].contact.index == 0 && rec2[0].contact.t == rec[0].contact.t &&
                           rec2[0].contact.point.x == rec[0].contact.point.x &&
                           rec2[0].contact.point.y == rec[0].contact.point.y,
                       "the brick's first contact differs beside the floor: t %.17g and %.17g",
                       res2.count > 0 ? rec2[0].contact.t : -1.0, rec[0].contact.t);
        }
    }
    c2d_static_set_destroy(set);
    c2d_static_set_destroy(alone);
    /* Enough of each to have tested something, at any iteration scale (the valgrind run takes 3%). */
    ENSURE_MSG(floor_hits > n / 4 && brick_hits > n / 200, "%d floor and %d brick contacts in %ld steps", floor_hits,
               brick_hits, n);
}

/* One touching tolerance for all of a motion's tests: the overlap test of push-out and of a sweep, and
 * push-out's test of whether an exit is free, at the same tolerance of the shapes that meet. A box
 * sunk delta into one member (its floor) while touching another exactly (a wall at its side): where
 * delta is within touching, nothing to do; beyond, the push lifts it out of the floor by delta and the
 * sweep reports that overlap. The freedom test was 4 tolerances wide: an exit where the box stood
 * already, on the wall's face, counted as free though the box was deeper in the floor than touching,
 * so for delta from 1 to 4 tolerances push-out answered (0, 0), and the set's sweep an overlap of the
 * wall it only touched (or of depth 2e-15). At 1e12 a tolerance is about 1; near the origin the floor, 100 deep, makes it 1e-10. */
TEST(localtol_push_out_and_sweep_agree_on_an_overlap_beside_a_touching_wall)
{
    static const double places[] = {0, 1e6, 1e9, 1e12};
    static const double factors[] = {0.5, 1.5, 2, 3, 3.9, 5, 8};
    for (size_t pi = 0; pi < sizeof places / sizeof places[0]; pi++)
        for (size_t fi = 0; fi < sizeof factors / sizeof factors[0]; fi++) {
            double x = places[pi], tol = 1e-12 * (1 + x + 100), delta = factors[fi] * tol;
            c2d_shape *floor_shape, *wall, *box;
            ENSURE_OK(c2d_rect_new(x, -50, 10, 100, 0, &floor_shape)); /* top at y = 0 */
            ENSURE_OK(c2d_rect_new(x + 10, 0, 10, 20, 0, &wall));    /* left side at x + 5 */
            ENSURE_OK(c2d_rect_new(x + 1, 2.5 - delta, 8, 5, 0, &box)); /* from x - 3 to x + 5 */
            const c2d_shape *shapes[2] = {floor_shape, wall};
            c2d_static_set *set;
            ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
            c2d_vec2 push;
            c2d_toi t;
            int index;
            ENSURE_OK(c2d_static_set_push_out(set, box, &push));
            ENSURE_OK(c2d_static_set_sweep(set, box, V(0, 0), &t, &index));
            c2d_aabb bb;
            ENSURE_OK(c2d_shape_get_aabb(box, &bb));
            c2d_static_set_destroy(set);
            c2d_shape_destroy(floor_shape);
            c2d_shape_destroy(wall);
            c2d_shape_destroy(box);
            double sunk = -bb.min.y; /* as rounding at x left it */
            if (t.state != C2D_TOI_OVERLAP) {
                ENSURE_MSG(push.x == 0 && push.y == 0 && factors[fi] < 1,
                           "at %g, %g tolerances deep: push (%.17g, %.17g), sweep state %d", x, factors[fi], push.x,
                           push.y, (int)t.state);
                continue;
            }
            ENSURE_MSG(factors[fi] > 1 && push.x == 0 && fabs(push.y - sunk) <= 1e-3 * tol && index == 0 &&
                           t.normal.x == 0 && t.normal.y == -1 && fabs(t.depth - sunk) <= 1e-3 * tol,
                       "at %g, %g tolerances deep (%.3g): push (%.17g, %.17g), sweep: member %d, normal (%g, %g), "
                       "depth %.17g",
                       x, factors[fi], sunk, push.x, push.y, index, t.normal.x, t.normal.y, t.depth);
        }
}

/* Where the set engine's one touching tolerance does not reach: a pair of concave shapes has tests
 * of its own. Their contact (compound_pair_contact) accepts a move when no pair of parts
 * is deeper than 1e-10 of the pair's scale by c2d_collide, and shortens it by sweeping the parts back
 * from far along it, at the tolerance of that long lead-in; their sweep starts with the parts' set
 * sweeps, at the parts' own tolerance. In this pair, 1e10 across and found by a random search, the
 * parts overlap by 0.027 (deeper than touching) and the lead-in's sweeps called every part clear
 * where it stood: the contact had depth 0 and the sweep OVERLAP with depth 0, which the compound
 * sweep had covered by keeping the parts' answer. The contact is now no shorter than the deepest
 * pair of parts needs. */
TEST(localtol_compound_pair_sweep_starting_within_the_pair_slack_keeps_a_depth)
{
    static const c2d_vec2 sa[9] = {
        {6516825440.601284, 1346654101.5133309},    {2824787046.7271714, 6790499732.9935074},
        {-1328282756.8793635, 5632706687.1587181},  {-4786684797.1613092, 2357130238.4556799},
        {-5877483573.6195068, 422342135.58374113},  {-7420208057.9238062, -4875375532.5227442},
        {49221170.326174021, -5108894249.3149252},  {5216780897.6497002, -7159679475.4340687},
        {8656890857.0415993, -1248950702.4015403}};
    static const c2d_vec2 sb[7] = {
        {-11173117102.553411, -11382968406.059055}, {-10766296940.136803, -8808625245.1609039},
        {-14039782479.600506, -10793401637.784992}, {-16978853259.019407, -11687315882.689339},
        {-14995696610.046198, -16898037299.541742}, {-13761564620.368977, -17664688108.083469},
        {-10970691885.481682, -14660559812.27706}};
    c2d_shape *a, *b;
    ENSURE_OK(c2d_concave_new(sa, 9, NULL, NULL, 0, &a));
    ENSURE_OK(c2d_concave_new(sb, 7, NULL, NULL, 0, &b));
    ENSURE_OK(c2d_shape_set_position(b, V(-10176108661.04966, -9389601452.6348324)));
    c2d_vec2 d = V(7014578.3077515187, -2514221.4756032289);
    c2d_toi t, r;
    ENSURE_OK(c2d_sweep(a, V(0, 0), b, d, &t));
    ENSURE_OK(c2d_sweep(b, d, a, V(0, 0), &r));
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    ENSURE_MSG(t.state != C2D_TOI_OVERLAP || t.depth > 0, "OVERLAP with depth %g", t.depth);
    ENSURE_MSG(r.state != C2D_TOI_OVERLAP || r.depth > 0, "OVERLAP with depth %g (swapped)", r.depth);
}
