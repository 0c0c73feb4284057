/* test_turnmove.c - a mover that turns during its own move (c2d_static_set_move_turning): a box turning
 * beside a wall stops at the angle where its corner meets the wall (to 1e-9); a door on a hinge turns
 * about it and reports its position there; without turning the call is c2d_static_set_move bit for bit;
 * a crossable shape on the turn's way is reported; bad input changes nothing; and a property run of
 * random movers turning up to a turn and a half among tiles and random shapes: the turn is never inside
 * a shape at any of 200 substeps, it never stops later than the first substep of an oracle (the same
 * motion substepped 2000 times) that overlaps a shape, never stops before the mover touches one, and
 * the mover never ends inside the set. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* Where a shape standing at position p and angle a, turning by m over a move, has its position at
 * fraction t of the move: its pivot (a point of its own frame) moves by m.velocity t, and the position
 * turns about it by m.angular_velocity t. */
static c2d_vec2 turned_position(c2d_vec2 p, double a, const c2d_motion *m, double t)
{
    c2d_vec2 c = tu_add(p, tu_rot(m->pivot, a));
    c2d_vec2 r = tu_rot(tu_sub(p, c), m->angular_velocity * t);
    return tu_add(tu_add(c, tu_scale(m->velocity, t)), r);
}

/* A body of a random kind within spread of the origin, of the given size (kind drawn first). */
static c2d_status random_body(double spread, double size, tu_body *out)
{
    int kind = (int)(c2d_test_rand() % TU_KINDS);
    c2d_vec2 at = tu_random_point(spread);
    return tu_random_body(kind, at, size, out);
}

/* A 2 x 2 box at the origin, moving right by dx while it turns by pi/2 about its centre, beside a wall
 * whose face is at x = face: the move's result, the angle turned and up to 4 contacts; and whether the
 * box, placed where the move ends, is outside the wall (touching it at most). */
static c2d_status box_by_wall(double face, double dx, c2d_move_result *res, double *turned, c2d_sweep_contact *ct,
                              int *outside)
{
    c2d_shape *box, *wall;
    c2d_static_set *set = NULL;
    c2d_status st = c2d_rect_new(0, 0, 2, 2, 0, &box);
    if (st == C2D_OK && (st = c2d_rect_new(face + 0.5, 0, 1, 10, 0, &wall)) == C2D_OK) {
        const c2d_shape *shapes[1] = {wall};
        st = c2d_static_set_new(shapes, 1, NULL, &set);
        c2d_motion m = tu_motion(dx, 0, TU_PI / 2, 0, 0);
        if (st == C2D_OK)
            st = c2d_static_set_move_turning(set, box, &m, NULL, res, turned, ct, 4);
        c2d_vec2 push = tu_v(1, 1);
        if (st == C2D_OK && (st = c2d_shape_set_transform(box, res->displacement, *turned)) == C2D_OK)
            st = c2d_static_set_push_out(set, box, &push);
        *outside = push.x == 0 && push.y == 0;
        c2d_static_set_destroy(set);
        c2d_shape_destroy(wall);
    }
    c2d_shape_destroy(box);
    return st;
}

TEST(turnmove_box_turning_beside_a_wall_stops_where_its_corner_meets_it)
{
    /* The box turning in place, the wall's face at x = 1.2: its corner (1, -1) swings out to
     * x = sqrt(2) cos(theta - pi/4), which reaches 1.2 at theta = pi/4 - acos(1.2 / sqrt(2)). */
    c2d_move_result res;
    c2d_sweep_contact ct[4];
    double turned = -1;
    int outside;
    ENSURE_OK(box_by_wall(1.2, 0, &res, &turned, ct, &outside));
    double want = TU_PI / 4 - acos(1.2 / sqrt(2.0));
    ENSURE_NEAR(turned, want, 1e-9);
    ENSURE_MSG(turned <= want, "turned %.17g past the contact at %.17g", turned, want);
    ENSURE(res.count == 1);
    ENSURE(ct[0].index == 0 && ct[0].response == C2D_RESPONSE_SLIDE && !ct[0].pushed_out);
    ENSURE_NEAR(ct[0].t, want / (TU_PI / 2), 1e-9);
    ENSURE_NEAR(ct[0].normal.x, -1, 1e-9);
    ENSURE_NEAR(ct[0].point.x, 1.2, 1e-9);
    ENSURE_NEAR(ct[0].point.y, -sqrt(2.0) * sin(TU_PI / 4 - want), 1e-9);
    ENSURE(res.displacement.x == 0 && res.displacement.y == 0);
    ENSURE(res.travelled == 0);
    ENSURE(outside); /* turned there, it touches the wall */
}

TEST(turnmove_box_moving_and_turning_slides_on_along_the_wall_without_turning)
{
    /* The box moving right by 3 while it turns, the wall's face at x = 2.5: its corner meets the wall
     * first; it keeps that angle and slides on: its x stops where the turned box touches the wall, its
     * y is untouched (the motion has none). */
    c2d_move_result res;
    c2d_sweep_contact ct[4];
    double turned;
    int outside;
    ENSURE_OK(box_by_wall(2.5, 3, &res, &turned, ct, &outside));
    ENSURE(turned > 0 && turned < TU_PI / 2);
    ENSURE(res.count >= 1 && ct[0].index == 0);
    /* Where the turned box touches the wall: its rightmost reach is sqrt(2) cos(turned - pi/4). */
    double reach = sqrt(2.0) * cos(turned - TU_PI / 4);
    ENSURE_NEAR(res.displacement.x, 2.5 - reach, 1e-9);
    ENSURE_NEAR(res.displacement.y, 0, 1e-12);
    ENSURE(res.velocity.x == 0);
    ENSURE(outside);
}

TEST(turnmove_door_on_its_hinge_turns_about_it_and_reports_its_position)
{
    /* A 4 x 0.2 door hinged at its left end (the pivot -2, 0 in its own frame), turning by pi/2 with
     * nothing in the way: its centre goes from (2, 0) to (0, 2). With a post at (0, 3.5) of radius 0.5
     * it stops touching the post. */
    c2d_shape *door, *post;
    ENSURE_OK(c2d_rect_new(2, 0, 4, 0.2, 0, &door));
    ENSURE_OK(c2d_circle_new(10, 10, 0.5, &post));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {post};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_motion m = tu_motion(0, 0, TU_PI / 2, -2, 0);
    c2d_move_result res;
    double turned;
    ENSURE_OK(c2d_static_set_move_turning(set, door, &m, NULL, &res, &turned, NULL, 0));
    ENSURE(res.count == 0);
    ENSURE(turned == TU_PI / 2);
    ENSURE_NEAR(res.displacement.x, -2, 1e-12);
    ENSURE_NEAR(res.displacement.y, 2, 1e-12);
    /* The post in the way at (1, 3.5): the door's leading face, 0.1 from its axis through the hinge,
     * touches the post when the axis passes 0.6 from the post's centre. */
    ENSURE_OK(c2d_static_set_set_transform(set, 0, V(1, 3.5), 0));
    c2d_sweep_contact ct[2];
    ENSURE_OK(c2d_static_set_move_turning(set, door, &m, NULL, &res, &turned, ct, 2));
    ENSURE(res.count == 1 && ct[0].index == 0);
    /* The axis at angle a from the hinge passes |sin a - 3.5 cos a| from (1, 3.5). */
    double dist = fabs(sin(turned) - 3.5 * cos(turned));
    ENSURE_NEAR(dist, 0.6, 1e-9);
    c2d_vec2 at = turned_position(V(2, 0), 0, &m, turned / (TU_PI / 2));
    ENSURE_NEAR(res.displacement.x, at.x - 2, 1e-12);
    ENSURE_NEAR(res.displacement.y, at.y, 1e-12);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(post);
    c2d_shape_destroy(door);
}

TEST(turnmove_without_turning_is_the_move_bit_for_bit)
{
    for (long it = 0; it < c2d_test_iterations(300) && !c2d_test_failed(); it++) {
        c2d_shape *shapes[6];
        for (int k = 0; k < 6; k++) {
            tu_body b;
            ENSURE_OK(random_body(4, 2, &b));
            shapes[k] = b.s;
        }
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 6, NULL, &set));
        tu_body mb;
        ENSURE_OK(random_body(5, 2, &mb));
        c2d_vec2 d = tu_random_point(6);
        c2d_vec2 pivot = tu_random_point(2);
        c2d_motion m = tu_motion(d.x, d.y, 0, pivot.x, pivot.y);
        c2d_move_result r1, r2;
        c2d_sweep_contact c1[16], c2[16];
        memset(c1, 0, sizeof c1);
        memset(c2, 0, sizeof c2);
        double turned = -1;
        ENSURE_OK(c2d_static_set_move(set, mb.s, d, NULL, &r1, c1, 16));
        ENSURE_OK(c2d_static_set_move_turning(set, mb.s, &m, NULL, &r2, &turned, c2, 16));
        ENSURE(turned == 0);
        ENSURE(memcmp(&r1, &r2, sizeof r1) == 0);
        ENSURE(memcmp(c1, c2, sizeof c1) == 0);
        c2d_static_set_destroy(set);
        c2d_shape_destroy(mb.s);
        for (int k = 0; k < 6; k++)
            c2d_shape_destroy(shapes[k]);
    }
}

TEST(turnmove_reports_a_crossable_shape_on_the_way_of_the_turn)
{
    /* A 4 x 0.2 bar turning by pi about its centre; a small sensor at (0.5, 1.5) is swept by one end and
     * crossed (reported once), before the other end meets a post at (0.9, -1.5). */
    c2d_shape *bar, *sensor, *wall;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 0.2, 0, &bar));
    ENSURE_OK(c2d_circle_new(0.5, 1.5, 0.2, &sensor));
    ENSURE_OK(c2d_circle_new(0.9, -1.5, 0.2, &wall));
    c2d_static_set *set;
    const c2d_shape *shapes[2] = {sensor, wall};
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    c2d_response rs[2] = {C2D_RESPONSE_CROSS, C2D_RESPONSE_TOUCH};
    c2d_move_options opt = c2d_move_options_default();
    opt.responses = rs;
    c2d_motion m = tu_motion(0, 0, TU_PI, 0, 0);
    c2d_move_result res;
    c2d_sweep_contact ct[4];
    double turned;
    ENSURE_OK(c2d_static_set_move_turning(set, bar, &m, &opt, &res, &turned, ct, 4));
    ENSURE_MSG(res.count == 2, "%d contacts", res.count);
    ENSURE(ct[0].index == 0 && ct[0].response == C2D_RESPONSE_CROSS);
    ENSURE(ct[1].index == 1 && ct[1].response == C2D_RESPONSE_TOUCH);
    ENSURE(ct[0].t < ct[1].t);
    ENSURE(turned > 0 && turned < TU_PI);
    ENSURE_NEAR(ct[1].t, turned / TU_PI, 1e-12);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(wall);
    c2d_shape_destroy(sensor);
    c2d_shape_destroy(bar);
}

TEST(turnmove_bad_input_changes_nothing)
{
    c2d_shape *box, *wall, *chain;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0, &box));
    ENSURE_OK(c2d_rect_new(3.5, 0, 1, 10, 0, &wall));
    c2d_vec2 pts[3] = {{0, 0}, {1, 0}, {1, 1}};
    ENSURE_OK(c2d_chain_new(pts, 3, 0, &chain));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {wall};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_move_result res, before;
    memset(&res, 0x5a, sizeof res);
    before = res;
    double turned = 7;
    c2d_motion m = tu_motion(1, 0, 1, 0, 0);
    ENSURE(c2d_static_set_move_turning(NULL, box, &m, NULL, &res, &turned, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_turning(set, NULL, &m, NULL, &res, &turned, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_turning(set, box, NULL, NULL, &res, &turned, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_turning(set, box, &m, NULL, NULL, &turned, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_turning(set, box, &m, NULL, &res, &turned, NULL, 2) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move_turning(set, chain, &m, NULL, &res, &turned, NULL, 0) == C2D_ERR_NOT_CONVEX);
    c2d_motion bad = m;
    bad.angular_velocity = NAN;
    ENSURE(c2d_static_set_move_turning(set, box, &bad, NULL, &res, &turned, NULL, 0) == C2D_ERR_NOT_FINITE);
    bad = m;
    bad.pivot = V(INFINITY, 0);
    ENSURE(c2d_static_set_move_turning(set, box, &bad, NULL, &res, &turned, NULL, 0) == C2D_ERR_NOT_FINITE);
    bad = m;
    bad.pivot = V(2 * C2D_MAX_COORDINATE, 0);
    ENSURE(c2d_static_set_move_turning(set, box, &bad, NULL, &res, &turned, NULL, 0) == C2D_ERR_RANGE);
    bad = m;
    bad.pivot = V(0.6 * C2D_MAX_COORDINATE, 0); /* the box would reach beyond the coordinates */
    ENSURE(c2d_static_set_move_turning(set, box, &bad, NULL, &res, &turned, NULL, 0) == C2D_ERR_RANGE);
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = 2;
    ENSURE(c2d_static_set_move_turning(set, box, &m, &opt, &res, &turned, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(memcmp(&res, &before, sizeof res) == 0);
    ENSURE(turned == 7);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(chain);
    c2d_shape_destroy(wall);
    c2d_shape_destroy(box);
}

/* The least distance from the probe to the set's shapes (negative when overlapping, as c2d_distance
 * says), by brute force over the shapes. */
static double set_distance(c2d_shape *const *shapes, int n, const c2d_shape *probe)
{
    double best = INFINITY;
    for (int k = 0; k < n; k++) {
        c2d_distance_result d;
        if (c2d_distance(probe, shapes[k], &d) == C2D_OK && d.distance < best)
            best = d.distance;
    }
    return best;
}

/* Frees a property run's scene: the set, the mover and the n shapes. */
static void free_scene(c2d_static_set *set, c2d_shape *mover, c2d_shape **shapes, int n)
{
    c2d_static_set_destroy(set);
    c2d_shape_destroy(mover);
    for (int k = 0; k < n; k++)
        c2d_shape_destroy(shapes[k]);
}

/* Whether the mover starts clear of the set, not even touching it (a turn that starts touching may
 * stop at once, as it should, which says nothing). */
static int starts_clear(const c2d_static_set *set, c2d_shape *const *shapes, int n, const c2d_shape *mover)
{
    c2d_vec2 push;
    return c2d_static_set_push_out(set, mover, &push) == C2D_OK && push.x == 0 && push.y == 0 &&
           set_distance(shapes, n, mover) >= 1e-9;
}

/* A random motion for a mover: moving up to 3 along each axis and turning up to a turn and a half
 * about a pivot within 1.5 of its position. */
static c2d_motion random_turn(void)
{
    c2d_vec2 d = tu_random_point(3);
    double w = c2d_test_uniform(-3 * TU_PI, 3 * TU_PI);
    c2d_vec2 pivot = tu_random_point(1.5);
    return tu_motion(d.x, d.y, w, pivot.x, pivot.y);
}

TEST(turnmove_property_never_turns_into_a_shape_nor_ends_inside)
{
    /* A floor of tiles (seams), two walls and random shapes; a random mover (box, polygon, capsule,
     * segment, circle about an outside pivot) starting clear, moving up to 6 and turning up to 1.5
     * turns about a random pivot. */
    long runs = c2d_test_iterations(1500);
    int stopped = 0;
    for (long it = 0; it < runs && !c2d_test_failed(); it++) {
        enum { TILES = 8, EXTRA = 4, N = TILES + 2 + EXTRA };
        c2d_shape *shapes[N];
        int n = 0;
        for (int k = 0; k < TILES; k++)
            ENSURE_OK(c2d_rect_new(-7 + 2 * k, -6, 2, 1, 0, &shapes[n++]));
        ENSURE_OK(c2d_rect_new(-8.5, 0, 1, 12, 0, &shapes[n++]));
        ENSURE_OK(c2d_rect_new(8.5, 0, 1, 12, 0, &shapes[n++]));
        for (int k = 0; k < EXTRA; k++) {
            tu_body b;
            ENSURE_OK(random_body(5, 1.5, &b));
            shapes[n++] = b.s;
        }
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, n, NULL, &set));
        tu_body mb;
        ENSURE_OK(random_body(4, 1, &mb));
        if (!starts_clear(set, shapes, n, mb.s)) {
            free_scene(set, mb.s, shapes, n);
            continue;
        }
        c2d_motion m = random_turn();
        double w = m.angular_velocity;
        c2d_vec2 p0;
        double a0;
        ENSURE_OK(c2d_shape_get_position(mb.s, &p0));
        ENSURE_OK(c2d_shape_get_angle(mb.s, &a0));
        c2d_move_result res;
        c2d_sweep_contact ct[64];
        double turned;
        ENSURE_OK(c2d_static_set_move_turning(set, mb.s, &m, NULL, &res, &turned, ct, 64));
        double ts = turned / w;
        ENSURE_MSG(ts >= 0 && ts <= 1, "turned %.17g of %.17g", turned, w);
        c2d_shape *probe;
        ENSURE_OK(c2d_shape_clone(mb.s, &probe));
        /* The turn, substepped: never inside a shape. */
        for (int s = 1; s <= 200; s++) {
            double t = ts * s / 200;
            ENSURE_OK(c2d_shape_set_transform(probe, turned_position(p0, a0, &m, t), a0 + w * t));
            double dist = set_distance(shapes, n, probe);
            ENSURE_MSG(dist > -1e-9, "run %ld: inside by %.3g at %.6g of the turn (stopped at %.6g)", it, -dist, t,
                       ts);
        }
        /* The oracle: the first of 2000 substeps of the whole turn where it overlaps a shape; the turn
         * never stops later. And where it stopped short, it touches a shape. */
        double first = 2;
        for (int s = 1; s <= 2000 && first > 1; s++) {
            double t = (double)s / 2000;
            ENSURE_OK(c2d_shape_set_transform(probe, turned_position(p0, a0, &m, t), a0 + w * t));
            if (set_distance(shapes, n, probe) < -1e-9)
                first = t;
        }
        ENSURE_MSG(ts <= first, "run %ld: the turn stopped at %.9g, after the oracle's contact at %.9g", it, ts, first);
        if (ts < 1) {
            stopped++;
            ENSURE_OK(c2d_shape_set_transform(probe, turned_position(p0, a0, &m, ts), a0 + turned));
            double dist = set_distance(shapes, n, probe);
            ENSURE_MSG(dist < 1e-7, "run %ld: stopped at %.9g clear of every shape by %.3g", it, ts, dist);
            ENSURE(res.count >= 1);
        }
        /* Where it ends: not inside the set. */
        c2d_vec2 push;
        ENSURE_OK(c2d_shape_set_transform(probe, tu_add(p0, res.displacement), a0 + turned));
        ENSURE_OK(c2d_static_set_push_out(set, probe, &push));
        ENSURE_MSG(push.x == 0 && push.y == 0, "run %ld: ends inside (push %.3g, %.3g)", it, push.x, push.y);
        c2d_shape_destroy(probe);
        free_scene(set, mb.s, shapes, n);
    }
    ENSURE_MSG(stopped > runs / 10, "only %d of %ld turns met a shape", stopped, runs);
}

/* A set of the n shapes with motions[k] for shape k (NULL: still). */
static c2d_static_set *set_with_motions(c2d_shape *const *shapes, int n, const c2d_motion *motions)
{
    c2d_static_set *set = NULL;
    if (c2d_static_set_new((const c2d_shape *const *)shapes, n, NULL, &set) != C2D_OK)
        return NULL;
    for (int k = 0; k < n; k++)
        if (c2d_static_set_set_motion(set, k, &motions[k]) != C2D_OK) {
            c2d_static_set_destroy(set);
            return NULL;
        }
    return set;
}

TEST(turnmove_property_among_moving_and_turning_shapes)
{
    /* Four random shapes, two of them moving and turning (up to 6 rad per move); a random mover turning
     * up to a turn and a half. The set is advanced beside the turn in 200 substeps: the mover is never
     * inside it; nor, where it ends, inside a shape that stands still. */
    long runs = c2d_test_iterations(400);
    int stopped = 0;
    for (long it = 0; it < runs && !c2d_test_failed(); it++) {
        enum { N = 4 };
        c2d_shape *shapes[N];
        c2d_motion motions[N];
        memset(motions, 0, sizeof motions);
        for (int k = 0; k < N; k++) {
            tu_body b;
            ENSURE_OK(random_body(3, 1.5, &b));
            shapes[k] = b.s;
            if (k < 2) {
                c2d_vec2 v = tu_random_point(2);
                double w = c2d_test_uniform(-6, 6);
                c2d_vec2 pivot = tu_random_point(1);
                motions[k] = tu_motion(v.x, v.y, w, pivot.x, pivot.y);
            }
        }
        c2d_static_set *set = set_with_motions(shapes, N, motions);
        ENSURE(set != NULL);
        tu_body mb;
        ENSURE_OK(random_body(3, 1, &mb));
        if (!starts_clear(set, shapes, N, mb.s)) {
            free_scene(set, mb.s, shapes, N);
            continue;
        }
        c2d_motion m = random_turn();
        double w = m.angular_velocity;
        c2d_vec2 p0;
        double a0;
        ENSURE_OK(c2d_shape_get_position(mb.s, &p0));
        ENSURE_OK(c2d_shape_get_angle(mb.s, &a0));
        c2d_move_result res;
        double turned;
        c2d_sweep_contact ct[64];
        ENSURE_OK(c2d_static_set_move_turning(set, mb.s, &m, NULL, &res, &turned, ct, 64));
        /* The turn lasts until the first contact, turned / w. After 8 contacts with a turning shape the
         * mover rides it and turns with it: then turned says more, and the first contact's record (the
         * leg's that meets the shape again, a hair after the turn stopped) says when the turn stopped. */
        int carried = res.count >= 8;
        double ts = carried ? ct[0].t : turned / w;
        ENSURE(ts >= 0 && ts <= 1);
        if (res.count > 0)
            ENSURE_NEAR(ct[0].t, ts, 1e-9);
        if (ts < 1)
            stopped++;
        c2d_static_set *moving = set_with_motions(shapes, N, motions);
        ENSURE(moving != NULL);
        c2d_shape *probe;
        ENSURE_OK(c2d_shape_clone(mb.s, &probe));
        for (int s = 1; s <= (carried ? 199 : 200); s++) {
            double t = ts * s / 200;
            ENSURE_OK(c2d_static_set_advance(moving, ts / 200));
            ENSURE_OK(c2d_shape_set_transform(probe, turned_position(p0, a0, &m, t), a0 + w * t));
            c2d_vec2 push;
            ENSURE_OK(c2d_static_set_push_out(moving, probe, &push));
            ENSURE_MSG(push.x == 0 && push.y == 0, "run %ld: inside at %.6g of the turn (stopped at %.6g)", it, t, ts);
        }
        c2d_static_set_destroy(moving);
        /* Where it ends: not inside a shape that stands still. (Moving shapes can crush it against
         * each other or a wall: they are not pushed back, and a mover pinned between them stops where
         * it meets the second, as a ball a flipper carries stops at a post.) */
        ENSURE_OK(c2d_shape_set_transform(probe, tu_add(p0, res.displacement), a0 + turned));
        ENSURE_MSG(set_distance(shapes + 2, N - 2, probe) > -1e-9, "run %ld: ends inside a still shape", it);
        c2d_shape_destroy(probe);
        free_scene(set, mb.s, shapes, N);
    }
    ENSURE_MSG(stopped > runs / 10, "only %d of %ld turns met a shape", stopped, runs);
}

TEST(turnmove_crate_on_a_turning_platform_turns_with_it)
{
    /* A 6 x 0.5 platform turning at 0.2 rad per move about its centre; a 1 x 1 crate resting on it 1.5
     * from the centre, falling by 0.05 per move (gravity). Step by step (the set advanced after each
     * move, the crate placed where the move left it, as a game does): the crate is never inside the
     * platform, and rides it turning with it, so its angle stays the platform's. A plain move cannot
     * turn the crate; this one turns it with the platform. */
    c2d_shape *plat, *crate;
    ENSURE_OK(c2d_rect_new(0, 0, 6, 0.5, 0, &plat));
    ENSURE_OK(c2d_rect_new(1.5, 0.75, 1, 1, 0, &crate));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {plat};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_motion spin = tu_motion(0, 0, 0.2, 0, 0);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &spin));
    c2d_motion fall = tu_motion(0, -0.05, 0, 0, 0);
    double plat_angle = 0;
    int carried = 0;
    for (int step = 0; step < 5; step++) {
        c2d_move_result res;
        double turned;
        c2d_vec2 p;
        double a;
        ENSURE_OK(c2d_static_set_move_turning(set, crate, &fall, NULL, &res, &turned, NULL, 0));
        ENSURE_OK(c2d_shape_get_position(crate, &p));
        ENSURE_OK(c2d_shape_get_angle(crate, &a));
        ENSURE_OK(c2d_shape_set_transform(crate, tu_add(p, res.displacement), a + turned));
        ENSURE_OK(c2d_static_set_advance(set, 1));
        plat_angle += 0.2;
        carried += turned != 0;
        /* Not inside it but for a hair: the crate starts turning when the ride starts, after the
         * bounces that lead to it, during which the platform turned by 0.2 times their time (3.5e-10
         * of the move at the first step: the crate ends 7e-11 into it). */
        c2d_shape *now;
        ENSURE_OK(c2d_rect_new(0, 0, 6, 0.5, plat_angle, &now));
        c2d_distance_result d;
        ENSURE_OK(c2d_distance(crate, now, &d));
        c2d_shape_destroy(now);
        ENSURE_MSG(d.distance > -1e-9, "step %d: %.3g inside the platform", step, -d.distance);
    }
    ENSURE_MSG(carried > 0, "never carried");
    double a;
    ENSURE_OK(c2d_shape_get_angle(crate, &a));
    ENSURE_NEAR(a, plat_angle, 1e-4); /* each move's bounces before its ride lag a hair */
    c2d_static_set_destroy(set);
    c2d_shape_destroy(crate);
    c2d_shape_destroy(plat);
}

TEST(turnmove_plain_move_carried_by_a_turning_flipper_never_ends_inside_a_post)
{
    /* A plain move cannot turn its mover, so a box a turning flipper carries rides the arc keeping its
     * angle; the ride is swept as the disc about the box's position that holds it at every angle, so
     * it stops before any corner reaches a post (it stops a little early). Boxes at rest on the face of
     * a 110 x 18 flipper hinged at the origin, swinging up by 0.8 rad over the move, posts on their arcs
     * at random angles: no box ends inside a post. */
    long runs = c2d_test_iterations(200);
    int rode = 0;
    for (long it = 0; it < runs && !c2d_test_failed(); it++) {
        double d = c2d_test_uniform(20, 100);
        double side = c2d_test_uniform(4, 14);
        double post_angle = c2d_test_uniform(0.15, 0.7);
        double post_r = c2d_test_uniform(2, 8);
        double post_at = d + c2d_test_uniform(-side, side);
        c2d_shape *flip, *post, *box;
        ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
        ENSURE_OK(c2d_circle_new(post_at * cos(post_angle), post_at * sin(post_angle) + 9 + side / 2, post_r, &post));
        ENSURE_OK(c2d_rect_new(d, 9 + side / 2, side, side, 0, &box));
        const c2d_shape *shapes[2] = {flip, post};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
        c2d_motion swing = tu_motion(0, 0, 0.8, -55, 0);
        ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
        c2d_vec2 push;
        ENSURE_OK(c2d_static_set_push_out(set, box, &push));
        c2d_distance_result dr;
        ENSURE_OK(c2d_distance(box, post, &dr));
        if (push.x != 0 || push.y != 0 || dr.distance < 1e-6) {
            c2d_static_set_destroy(set);
            c2d_shape_destroy(box);
            c2d_shape_destroy(post);
            c2d_shape_destroy(flip);
            continue;
        }
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_move(set, box, tu_v(0, 0), NULL, &res, NULL, 0));
        rode += res.count >= 8;
        ENSURE_OK(c2d_shape_move(box, res.displacement));
        ENSURE_OK(c2d_distance(box, post, &dr));
        ENSURE_MSG(dr.distance > -1e-9, "run %ld: the box ends %.3g inside the post", it, -dr.distance);
        c2d_static_set_destroy(set);
        c2d_shape_destroy(box);
        c2d_shape_destroy(post);
        c2d_shape_destroy(flip);
    }
    ENSURE_MSG(rode > runs / 4, "only %d of %ld boxes rode the flipper", rode, runs);
}

static c2d_status keep_records(void *ctx, const c2d_contact_record *r, int n)
{
    c2d_contact_record *out = (c2d_contact_record *)ctx;
    for (int k = 0; k < n && k < 4; k++)
        out[k] = r[k];
    return C2D_OK;
}

TEST(turnmove_crossing_records_say_where_the_mover_was_after_a_push_out)
{
    /* The bar of the crossing test starts 0.05 under a post over its right end and is pushed out first
     * (down); then it turns clockwise about its own position, which the turn does not move, its left end
     * crossing a sensor: the crossing's record says the mover was where the push-out left it (the
     * record once added the push-out twice). */
    c2d_shape *bar, *sensor, *wall;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 0.2, 0, &bar));
    ENSURE_OK(c2d_circle_new(-0.5, 1.5, 0.2, &sensor));
    ENSURE_OK(c2d_circle_new(1.8, 0.25, 0.2, &wall));
    c2d_static_set *set;
    const c2d_shape *shapes[2] = {sensor, wall};
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    c2d_response rs[2] = {C2D_RESPONSE_CROSS, C2D_RESPONSE_TOUCH};
    c2d_move_options opt = c2d_move_options_default();
    opt.responses = rs;
    c2d_motion m = tu_motion(0, 0, -1.3, 0, 0);
    c2d_move_result res;
    c2d_contact_record rec[4];
    double turned;
    ENSURE_OK(c2d_static_set_move_turning_report(set, bar, &m, &opt, &res, &turned, keep_records, rec));
    ENSURE_MSG(res.count >= 2 && rec[0].contact.pushed_out, "%d contacts", res.count);
    int k = 1;
    while (k < res.count && k < 4 && rec[k].contact.index != 0)
        k++;
    ENSURE_MSG(k < res.count && k < 4, "the sensor was not crossed");
    ENSURE_NEAR(rec[k].position.x, rec[0].position.x, 1e-12);
    ENSURE_NEAR(rec[k].position.y, rec[0].position.y, 1e-12);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(wall);
    c2d_shape_destroy(sensor);
    c2d_shape_destroy(bar);
}
