/* test_compound.c - chains and concave polygons as shapes: every query answers for the outline
 * itself (containment, nearest boundary points and ray hits checked against the outline's own edges,
 * by brute force, on random star-shaped outlines with holes, turned and moved), contacts whose push
 * really separates, sweeps that stop exactly at the outline; in static sets their inner joints never
 * catch a sliding box or a ball; a chain cut into collinear pieces behaves as one segment; one-sided
 * chains block from one side only; and bad input gets the right status. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A random star-shaped outline of n points around c (radii in [0.4, 1] * r), counter-clockwise or
 * clockwise, and optionally a square hole of half-size h at c (fits inside: every radius >= 0.4 r). */
static void star(c2d_vec2 c, double r, int n, int cw, c2d_vec2 *out)
{
    for (int i = 0; i < n; i++) {
        double a = 2 * TU_PI * (i + c2d_test_uniform(0.1, 0.9)) / n, rr = r * c2d_test_uniform(0.4, 1.0);
        out[cw ? n - 1 - i : i] = V(c.x + rr * cos(a), c.y + rr * sin(a));
    }
}

/* Signed distance from p to the region inside ring[0 .. n) and outside hole[0 .. 4) (if any): by brute
 * force over the edges, with the sign from an even-odd count. */
static double region_distance(const c2d_vec2 *ring, int n, const c2d_vec2 *hole, int hn, c2d_vec2 p)
{
    double best = INFINITY;
    int crossings = 0;
    for (int r = 0; r < 2; r++) {
        const c2d_vec2 *v = r == 0 ? ring : hole;
        int m = r == 0 ? n : hn;
        for (int i = 0; i < m; i++) {
            c2d_vec2 a = v[i], b = v[(i + 1) % m];
            best = fmin(best, tu_point_segment_distance(p, a, b));
            if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
                crossings++;
        }
    }
    return (crossings & 1) ? -best : best;
}

TEST(compound_concave_queries_answer_for_the_outline_itself)
{
    long trials = c2d_test_iterations(120);
    for (long k = 0; k < trials; k++) {
        int n = 5 + (int)(c2d_test_rand() % 20), holed = (int)(c2d_test_rand() % 2);
        double scale = pow(10, c2d_test_uniform(-2, 3));
        c2d_vec2 c = tu_scale(tu_random_vec(-100, 100, -100, 100), scale);
        c2d_vec2 ring[32], hole[4];
        star(c, scale, n, (int)(c2d_test_rand() % 2), ring);
        double h = 0.2 * scale;
        hole[0] = V(c.x - h, c.y - h), hole[1] = V(c.x + h, c.y - h), hole[2] = V(c.x + h, c.y + h);
        hole[3] = V(c.x - h, c.y + h);
        const c2d_vec2 *holes[1] = {hole};
        int counts[1] = {4};
        c2d_shape *s;
        ENSURE_OK(c2d_concave_new(ring, n, holed ? holes : NULL, holed ? counts : NULL, holed, &s));
        int parts = 0;
        ENSURE_OK(c2d_shape_get_part_count(s, &parts));
        ENSURE(parts >= 1 && parts <= 2 * n + 8);
        ENSURE(c2d_shape_get_type(s) == C2D_SHAPE_CONCAVE);
        double tol = 1e-9 * scale * (1 + 100);
        for (int q = 0; q < 60; q++) {
            c2d_vec2 p = tu_add(c, tu_scale(tu_random_vec(-1.2, 1.2, -1.2, 1.2), scale));
            double truth = region_distance(ring, n, hole, holed ? 4 : 0, p);
            int in = -1;
            ENSURE_OK(c2d_contains_point(s, p, &in));
            if (fabs(truth) > tol)
                ENSURE_MSG(in == (truth < 0), "trial %ld: (%.17g, %.17g) at %.3g from the outline, contains %d", k,
                           p.x, p.y, truth, in);
            c2d_vec2 at;
            double d;
            ENSURE_OK(c2d_closest_point(s, p, &at, &d));
            ENSURE_MSG(fabs(d - truth) <= tol, "trial %ld: closest %.17g, brute force %.17g", k, d, truth);
            ENSURE(fabs(region_distance(ring, n, hole, holed ? 4 : 0, at)) <= tol);
            /* A ray from outside towards the centre meets the outline first, on the outline. */
            if (truth > tol) {
                c2d_ray_hit hit;
                c2d_vec2 dir = tu_sub(c, p);
                ENSURE_OK(c2d_raycast(s, p, dir, 1.0, &hit));
                if (hit.hit) {
                    ENSURE_MSG(fabs(region_distance(ring, n, hole, holed ? 4 : 0, hit.point)) <= tol,
                               "trial %ld: ray hit %.3g off the outline", k,
                               region_distance(ring, n, hole, holed ? 4 : 0, hit.point));
                    for (int j = 1; j < 16; j++) {
                        c2d_vec2 before = tu_add(p, tu_scale(dir, hit.t * j / 16.0));
                        ENSURE(region_distance(ring, n, hole, holed ? 4 : 0, before) >= -tol);
                    }
                } else {
                    ENSURE_MSG(holed, "trial %ld: the ray from (%.17g, %.17g) missed", k, p.x, p.y);
                }
            }
        }
        /* Moved and turned: the same answers about the moved points. */
        double angle = c2d_test_uniform(-3, 3);
        c2d_vec2 pos;
        ENSURE_OK(c2d_shape_get_position(s, &pos));
        c2d_vec2 shift = tu_scale(tu_random_vec(-10, 10, -10, 10), scale);
        ENSURE_OK(c2d_shape_set_transform(s, tu_add(pos, shift), angle));
        for (int q = 0; q < 20; q++) {
            c2d_vec2 p = tu_add(c, tu_scale(tu_random_vec(-1.2, 1.2, -1.2, 1.2), scale));
            double truth = region_distance(ring, n, hole, holed ? 4 : 0, p);
            c2d_vec2 moved = tu_add(tu_add(pos, shift), tu_rot(tu_sub(p, pos), angle));
            double d;
            ENSURE_OK(c2d_closest_point(s, moved, NULL, &d));
            ENSURE_MSG(fabs(d - truth) <= 10 * tol, "trial %ld moved: %.17g, not %.17g", k, d, truth);
        }
        c2d_shape *copy;
        ENSURE_OK(c2d_shape_clone(s, &copy));
        c2d_shape_destroy(s);
        int in = 0;
        ENSURE_OK(c2d_contains_point(copy, tu_add(pos, shift), &in)); /* the clone stands on its own */
        c2d_shape_destroy(copy);
    }
}

TEST(compound_contact_push_separates_and_sweeps_stop_at_the_outline)
{
    /* A U: a box pressed into the inside corner of one arm, or across a joint of its parts. Moving the
     * box by depth * normal leaves it touching, not overlapping; a box dropped into the U lands on its
     * floor exactly. */
    c2d_vec2 u[] = {{0, 0}, {6, 0}, {6, 5}, {5, 5}, {5, 1}, {1, 1}, {1, 5}, {0, 5}};
    c2d_shape *s;
    ENSURE_OK(c2d_concave_new(u, 8, NULL, NULL, 0, &s));
    long n = c2d_test_iterations(2000);
    for (long k = 0; k < n; k++) {
        c2d_shape *b;
        double w = c2d_test_uniform(0.2, 1.5), hgt = c2d_test_uniform(0.2, 1.5);
        double turn = c2d_test_uniform(-1, 1), y = c2d_test_uniform(-1, 6), x = c2d_test_uniform(-1, 7);
        ENSURE_OK(c2d_rect_new(x, y, w, hgt, turn, &b));
        c2d_contact c;
        int over = 0;
        ENSURE_OK(c2d_overlap(s, b, &over));
        ENSURE_OK(c2d_collide(s, b, &c));
        ENSURE((c.count > 0) == over);
        c2d_contact flipped;
        ENSURE_OK(c2d_collide(b, s, &flipped));
        ENSURE(flipped.count == c.count && flipped.depth == c.depth);
        if (c.count > 0 && c.depth > 0) {
            ENSURE(fabs(tu_len(c.normal) - 1) < 1e-12);
            c2d_vec2 p;
            ENSURE_OK(c2d_shape_get_position(b, &p));
            ENSURE_OK(c2d_shape_set_position(b, tu_add(p, tu_scale(c.normal, c.depth))));
            c2d_distance_result d;
            ENSURE_OK(c2d_distance(s, b, &d));
            ENSURE_MSG(d.distance >= -1e-9, "box %ld: %.3g deep after the push of %.3g", k, -d.distance, c.depth);
            /* And no push shorter along any of the U's face normals would have done. */
        }
        c2d_shape_destroy(b);
    }
    /* Starting inside, a sweep's overlap is the whole shape's push, as c2d_collide gives it, not the
     * push out of the part it is deepest in (a box pressed into the U's floor across a joint). */
    for (long k = 0; k < c2d_test_iterations(500); k++) {
        c2d_shape *b;
        double turn = c2d_test_uniform(-1, 1), h = c2d_test_uniform(0.2, 1.5), w = c2d_test_uniform(0.2, 1.5);
        double y = c2d_test_uniform(-1, 6), x = c2d_test_uniform(-1, 7);
        ENSURE_OK(c2d_rect_new(x, y, w, h, turn, &b));
        c2d_contact c;
        c2d_toi t, r;
        ENSURE_OK(c2d_collide(s, b, &c));
        ENSURE_OK(c2d_sweep(s, V(0, 0), b, V(0.5, -0.25), &t));
        ENSURE_OK(c2d_sweep(b, V(0.5, -0.25), s, V(0, 0), &r));
        if (t.state == C2D_TOI_OVERLAP) {
            ENSURE(c.count > 0 && t.depth == c.depth && t.normal.x == c.normal.x && t.normal.y == c.normal.y);
            ENSURE(r.state == C2D_TOI_OVERLAP && r.depth == c.depth && r.normal.x == -c.normal.x);
        }
        c2d_shape_destroy(b);
    }
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(3, 8, 2, 1, 0, &box));
    c2d_toi t;
    ENSURE_OK(c2d_sweep(box, V(0, -10), s, V(0, 0), &t));
    ENSURE(t.state == C2D_TOI_HIT);
    ENSURE_NEAR(t.t * 10, 6.5, 1e-12); /* bottom from 7.5 to the floor at 1 */
    ENSURE(t.normal.x == 0 && t.normal.y == -1);
    ENSURE_OK(c2d_sweep(s, V(0, 10), box, V(0, 0), &t)); /* the U rising round the box instead */
    ENSURE(t.state == C2D_TOI_HIT && fabs(t.t * 10 - 6.5) < 1e-12 && t.normal.x == 0 && t.normal.y == 1);
    ENSURE(fabs(t.point.y - 7.5) < 1e-12 && t.point.x >= 2 && t.point.x <= 4); /* on the box, where the floor meets it */
    c2d_shape_destroy(box);
    c2d_shape_destroy(s);
}

TEST(compound_pairs_agree_both_ways_and_their_push_separates_to_touching)
{
    /* Two random star outlines (one with a square hole), overlapping, turned and moved, at several
     * scales: the contact is the same asked either way round (bit for bit, normal reversed), the
     * depth is never below the deepest of the parts' own push-outs (a move that clears the whole shape
     * clears each part), and moving b by depth * normal leaves the two touching: neither overlapping
     * nor apart by more than rounding. A U and a comb whose teeth sit in it make the case where the
     * longest part push alone does not clear the rest. */
    long n = c2d_test_iterations(300);
    int exact = 0;
    for (long k = 0; k < n; k++) {
        double scale = pow(10, c2d_test_uniform(-2, 3));
        c2d_vec2 ra[12], rb[9], hole[4];
        int na = 6 + (int)(c2d_test_rand() % 7), nb = 5 + (int)(c2d_test_rand() % 5);
        star(V(0, 0), scale, na, 0, ra);
        star(V(0, 0), 0.8 * scale, nb, 0, rb);
        double h = 0.15 * scale;
        hole[0] = V(-h, -h);
        hole[1] = V(-h, h);
        hole[2] = V(h, h);
        hole[3] = V(h, -h); /* clockwise, as a hole runs */
        const c2d_vec2 *holes[1] = {hole};
        int hc[1] = {4};
        c2d_shape *a, *b;
        ENSURE_OK(c2d_concave_new(ra, na, holes, hc, 1, &a));
        ENSURE_OK(c2d_concave_new(rb, nb, NULL, NULL, 0, &b));
        double ang = c2d_test_uniform(-3, 3), off = c2d_test_uniform(0.5, 1.6) * scale, dir = c2d_test_uniform(-3, 3);
        ENSURE_OK(c2d_shape_set_transform(a, V(3 * scale, -2 * scale), c2d_test_uniform(-3, 3)));
        ENSURE_OK(c2d_shape_set_transform(b, V(3 * scale + off * cos(dir), -2 * scale + off * sin(dir)), ang));
        c2d_contact c, r;
        ENSURE_OK(c2d_collide(a, b, &c));
        ENSURE_OK(c2d_collide(b, a, &r));
        ENSURE(c.count == r.count);
        if (c.count > 0) {
            ENSURE(memcmp(&c.depth, &r.depth, sizeof c.depth) == 0);
            ENSURE(c.normal.x == -r.normal.x && c.normal.y == -r.normal.y);
            for (int i = 0; i < c.count; i++)
                ENSURE(memcmp(&c.points[i], &r.points[i], sizeof c.points[i]) == 0);
        }
        if (c.count > 0 && c.depth > 0) {
            /* No shorter than any part's own push-out. */
            int parts = 0;
            ENSURE_OK(c2d_shape_get_part_count(b, &parts));
            c2d_vec2 p;
            ENSURE_OK(c2d_shape_get_position(b, &p));
            double tol = 1e-9 * (10 * scale + c.depth);
            ENSURE_OK(c2d_shape_set_position(b, tu_add(p, tu_scale(c.normal, c.depth))));
            c2d_distance_result d;
            ENSURE_OK(c2d_distance(a, b, &d));
            ENSURE_MSG(d.distance >= -tol && d.distance <= tol, "pair %ld: %.3g from touching after a push of %.3g",
                       k, d.distance, c.depth);
            exact++;
        }
        c2d_shape_destroy(a);
        c2d_shape_destroy(b);
    }
    ENSURE(exact > n / 4);

    /* An upside-down T pressed 0.25 down onto a U's two arm tops, its stem in the U's pocket and 0.1
     * into the pocket's left wall. Up 0.25 clears the bar but not the stem, right 0.1 the stem but not
     * the bar; the shortest way out is both at once, (0.1, 0.25): a corner of the two pushes. */
    c2d_vec2 u[] = {{0, 0}, {7, 0}, {7, 3}, {5, 3}, {5, 1}, {2, 1}, {2, 3}, {0, 3}};
    c2d_vec2 comb[] = {{0.5, 2.75}, {1.9, 2.75}, {1.9, 1.5}, {2.9, 1.5}, {2.9, 2.75}, {6.5, 2.75}, {6.5, 4}, {0.5, 4}};
    c2d_shape *us, *cs;
    ENSURE_OK(c2d_concave_new(u, 8, NULL, NULL, 0, &us));
    ENSURE_OK(c2d_concave_new(comb, 8, NULL, NULL, 0, &cs));
    c2d_contact c, r;
    ENSURE_OK(c2d_collide(us, cs, &c));
    ENSURE_OK(c2d_collide(cs, us, &r));
    ENSURE(c.count > 0 && r.count == c.count);
    ENSURE(c.normal.x == -r.normal.x && c.normal.y == -r.normal.y && c.depth == r.depth);
    c2d_vec2 p;
    ENSURE_OK(c2d_shape_get_position(cs, &p));
    ENSURE_OK(c2d_shape_set_position(cs, tu_add(p, tu_scale(c.normal, c.depth))));
    ENSURE_NEAR(c.depth, sqrt(0.1 * 0.1 + 0.25 * 0.25), 1e-9);
    ENSURE_NEAR(c.normal.x * 0.25 - c.normal.y * 0.1, 0, 1e-9);
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(us, cs, &d));
    ENSURE_MSG(fabs(d.distance) <= 1e-9, "comb %.3g from touching after a push of %.3g along (%g, %g)", d.distance,
               c.depth, c.normal.x, c.normal.y);
    c2d_shape_destroy(us);
    c2d_shape_destroy(cs);
}

TEST(compound_terrain_joints_never_catch_a_sliding_box_or_a_ball)
{
    /* A level outline: a flat ground at y = 0 with pits and pillars, as one concave polygon whose parts
     * meet all along the ground. Boxes slide along the ground between two pillars, balls roll: every
     * contact's normal is the ground's, and every box goes the whole way. */
    c2d_vec2 o[] = {{0, -5}, {40, -5}, {40, 6}, {38, 6}, {38, 0}, {24, 0}, {24, 3}, {22, 3}, {22, 0},
                    {6, 0},  {6, 4},   {4, 4},  {4, 0},  {2, 0},  {2, 6},  {0, 6}};
    c2d_shape *s;
    ENSURE_OK(c2d_concave_new(o, 16, NULL, NULL, 0, &s));
    int parts;
    ENSURE_OK(c2d_shape_get_part_count(s, &parts));
    ENSURE(parts >= 4);
    c2d_static_set *set;
    const c2d_shape *arr[1] = {s};
    ENSURE_OK(c2d_static_set_new(arr, 1, NULL, &set));
    long n = c2d_test_iterations(1000);
    for (long k = 0; k < n; k++) {
        double w = c2d_test_uniform(0.1, 2), x = c2d_test_uniform(7 + w, 12);
        c2d_shape *box;
        ENSURE_OK(c2d_rect_new(x, w / 2 + c2d_test_uniform(0, 1e-9), w, w, 0, &box));
        double dy = -c2d_test_uniform(0, 1), dx = c2d_test_uniform(0, 21 - w / 2 - x);
        c2d_vec2 d = V(dx, dy);
        c2d_move_result r;
        c2d_sweep_contact c[8];
        ENSURE_OK(c2d_static_set_move(set, box, d, NULL, &r, c, 8));
        c2d_shape_destroy(box);
        ENSURE_MSG(fabs(r.displacement.x - d.x) <= 1e-12 * (1 + fabs(d.x)), "box %ld stopped after %.17g of %.17g", k,
                   r.displacement.x, d.x);
        for (int i = 0; i < r.count && i < 8; i++)
            ENSURE_MSG(c[i].normal.x == 0 && c[i].normal.y == 1 && c[i].index == 0, "box %ld: normal (%g, %g)", k,
                       c[i].normal.x, c[i].normal.y);
        c2d_ball ball;
        ball.radius = c2d_test_uniform(0.05, 1);
        double py = ball.radius + c2d_test_uniform(0, 2), px = c2d_test_uniform(8, 20);
        ball.position = V(px, py);
        double vy = -c2d_test_uniform(0.1, 3), vx = c2d_test_uniform(-0.9, 0.9);
        ball.velocity = V(vx, vy);
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &r, c, 8));
        for (int i = 0; i < r.count && i < 8; i++)
            ENSURE_MSG(c[i].normal.x == 0 && c[i].normal.y == 1, "ball %ld: normal (%g, %g)", k, c[i].normal.x,
                       c[i].normal.y);
    }
    /* The caller's index names the whole polygon: disabling it disables every part. */
    ENSURE_OK(c2d_static_set_set_enabled(set, 0, 0));
    c2d_ball ball = {{10, 1}, {0, -5}, 0.5};
    c2d_move_result r;
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &r, NULL, 0));
    ENSURE(r.count == 0);
    ENSURE(c2d_static_set_set_enabled(set, 1, 0) == C2D_ERR_RANGE);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s);
}

TEST(compound_chain_cut_into_collinear_pieces_is_one_segment)
{
    /* A floor as one segment and as a chain of 50 collinear pieces: the same moves, the same steps. */
    c2d_vec2 pts[51];
    for (int i = 0; i <= 50; i++)
        pts[i] = V(i * 0.7, 0);
    c2d_shape *seg, *chain;
    ENSURE_OK(c2d_segment_new(pts[0], pts[50], &seg));
    ENSURE_OK(c2d_chain_new(pts, 51, 0, &chain));
    int parts;
    ENSURE_OK(c2d_shape_get_part_count(chain, &parts));
    ENSURE(parts == 50 && c2d_shape_get_type(chain) == C2D_SHAPE_CHAIN);
    c2d_static_set *one, *many;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&seg, 1, NULL, &one));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&chain, 1, NULL, &many));
    long n = c2d_test_iterations(1500);
    for (long k = 0; k < n; k++) {
        c2d_ball b1, b2;
        b1.radius = c2d_test_uniform(0.05, 1);
        b1.position = tu_random_vec(2, 30, -3, 3);
        if (fabs(b1.position.y) < b1.radius)
            b1.position.y = b1.position.y < 0 ? -b1.radius - 0.01 : b1.radius + 0.01;
        b1.velocity = tu_random_vec(-5, 5, -5, 5);
        b2 = b1;
        c2d_move_result r1, r2;
        ENSURE_OK(c2d_static_set_step_ball(one, &b1, 1, NULL, &r1, NULL, 0));
        ENSURE_OK(c2d_static_set_step_ball(many, &b2, 1, NULL, &r2, NULL, 0));
        ENSURE_MSG(r1.count == r2.count && tu_len(tu_sub(b1.position, b2.position)) <= 1e-9 &&
                       tu_len(tu_sub(b1.velocity, b2.velocity)) <= 1e-9,
                   "ball %ld: %d contacts at (%.17g, %.17g) against %d at (%.17g, %.17g)", k, r1.count, b1.position.x,
                   b1.position.y, r2.count, b2.position.x, b2.position.y);
        c2d_shape *box;
        double w = c2d_test_uniform(0.1, 1.5);
        ENSURE_OK(c2d_rect_new(c2d_test_uniform(2, 20), w / 2, w, w, 0, &box));
        double dy = -c2d_test_uniform(0, 2), dx = c2d_test_uniform(-2, 10);
        c2d_vec2 d = V(dx, dy);
        ENSURE_OK(c2d_static_set_move(one, box, d, NULL, &r1, NULL, 0));
        ENSURE_OK(c2d_static_set_move(many, box, d, NULL, &r2, NULL, 0));
        c2d_shape_destroy(box);
        ENSURE(r1.count == r2.count && tu_len(tu_sub(r1.displacement, r2.displacement)) <= 1e-9);
    }
    c2d_static_set_destroy(one);
    c2d_static_set_destroy(many);
    c2d_shape_destroy(seg);
    c2d_shape_destroy(chain);
}

TEST(compound_one_sided_chain_blocks_from_its_right_only)
{
    /* A closed counter-clockwise square chain, one-sided: its right is outside. A box outside moving in
     * is stopped at the wall; the same box inside walks out. Two-sided, it is held inside. */
    c2d_vec2 sq[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    c2d_shape *one, *two, *box;
    ENSURE_OK(c2d_chain_new(sq, 4, C2D_CHAIN_CLOSED | C2D_CHAIN_ONE_SIDED, &one));
    ENSURE_OK(c2d_chain_new(sq, 4, C2D_CHAIN_CLOSED, &two));
    c2d_static_set *s1, *s2;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&one, 1, NULL, &s1));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&two, 1, NULL, &s2));
    c2d_vec2 dir;
    ENSURE_OK(c2d_static_set_get_one_way(s1, 0, &dir));
    ENSURE(dir.x == 0 && dir.y == -1); /* the first segment's right: downwards, out of the square */
    ENSURE_OK(c2d_rect_new(-3, 5, 2, 2, 0, &box));
    c2d_move_result r;
    ENSURE_OK(c2d_static_set_move(s1, box, V(8, 0), NULL, &r, NULL, 0));
    ENSURE(r.count == 1 && fabs(r.displacement.x - 2) < 1e-12);
    ENSURE_OK(c2d_shape_set_position(box, V(5, 5)));
    ENSURE_OK(c2d_static_set_move(s1, box, V(10, 1), NULL, &r, NULL, 0));
    ENSURE(r.count == 0 && r.displacement.x == 10);
    ENSURE_OK(c2d_static_set_move(s2, box, V(10, 1), NULL, &r, NULL, 0));
    ENSURE(r.count == 1 && fabs(r.displacement.x - 4) < 1e-12);
    /* Turned by a quarter, the sides it blocks from turn with it. */
    ENSURE_OK(c2d_static_set_set_transform(s1, 0, V(5, 5), TU_PI / 2));
    ENSURE_OK(c2d_static_set_move(s1, box, V(10, 1), NULL, &r, NULL, 0));
    ENSURE(r.count == 0);
    ENSURE_OK(c2d_shape_set_position(box, V(-3, 5)));
    ENSURE_OK(c2d_static_set_move(s1, box, V(8, 0), NULL, &r, NULL, 0));
    ENSURE(r.count == 1 && fabs(r.displacement.x - 2) < 1e-9);
    c2d_static_set_destroy(s1);
    c2d_static_set_destroy(s2);
    c2d_shape_destroy(one);
    c2d_shape_destroy(two);
    c2d_shape_destroy(box);
}

TEST(compound_worlds_hold_concave_shapes_and_chains)
{
    c2d_vec2 l[] = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};
    c2d_vec2 floor[] = {{-10, -1}, {0, -1.5}, {10, -1}};
    c2d_shape *s, *chain, *box;
    ENSURE_OK(c2d_concave_new(l, 6, NULL, NULL, 0, &s));
    ENSURE_OK(c2d_chain_new(floor, 3, 0, &chain));
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    c2d_world_id a, b;
    ENSURE_OK(c2d_world_add(w, s, 1, &a));
    ENSURE_OK(c2d_world_add(w, chain, 2, &b));
    c2d_world_hit hits[4];
    int count;
    ENSURE_OK(c2d_world_query_point(w, V(3, 3), NULL, hits, 4, &count));
    ENSURE(count == 0); /* the L's empty corner */
    ENSURE_OK(c2d_world_query_point(w, V(0.5, 3), NULL, hits, 4, &count));
    ENSURE(count == 1 && hits[0].id == a);
    c2d_world_ray_hit rh;
    ENSURE_OK(c2d_world_raycast(w, V(3, 3), V(0, -1), 100, NULL, &rh));
    ENSURE(rh.ray.hit && rh.id == a && fabs(rh.ray.t - 2) < 1e-12);
    ENSURE_OK(c2d_rect_new(3, 3, 1, 1, 0, &box));
    c2d_move_result r;
    c2d_world_contact c[4];
    ENSURE_OK(c2d_world_move(w, box, V(0, -10), NULL, NULL, NULL, NULL, &r, c, 4));
    ENSURE(r.count == 1 && c[0].id == a && fabs(r.displacement.y + 1.5) < 1e-12);
    ENSURE(c2d_world_move(w, s, V(1, 0), NULL, NULL, NULL, NULL, &r, c, 4) == C2D_ERR_NOT_CONVEX);
    c2d_world_pair pairs[4];
    c2d_contact contacts[4];
    ENSURE_OK(c2d_world_pairs(w, pairs, contacts, 4, &count));
    ENSURE(count == 0);
    c2d_world_destroy(w);
    c2d_shape_destroy(s);
    c2d_shape_destroy(chain);
    c2d_shape_destroy(box);
}

TEST(compound_bad_input_gets_its_status)
{
    c2d_shape *s = NULL;
    c2d_vec2 bow[] = {{0, 0}, {2, 2}, {2, 0}, {0, 2}};
    c2d_vec2 sq[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    c2d_vec2 out_hole[] = {{5, 5}, {6, 5}, {6, 6}};
    c2d_vec2 line[] = {{0, 0}, {1, 1}, {2, 2}};
    c2d_vec2 nan[] = {{0, 0}, {NAN, 0}, {1, 1}};
    const c2d_vec2 *holes[1] = {out_hole};
    int counts[1] = {3};
    ENSURE(c2d_concave_new(bow, 4, NULL, NULL, 0, &s) == C2D_ERR_NOT_SIMPLE && s == NULL);
    ENSURE(c2d_concave_new(sq, 4, holes, counts, 1, &s) == C2D_ERR_NOT_SIMPLE && s == NULL);
    ENSURE(c2d_concave_new(line, 3, NULL, NULL, 0, &s) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_concave_new(nan, 3, NULL, NULL, 0, &s) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_concave_new(sq, 4, NULL, NULL, 0, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_concave_new(sq, -1, NULL, NULL, 0, &s) == C2D_ERR_RANGE);
    ENSURE(c2d_chain_new(sq, 1, 0, &s) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_chain_new(sq, 2, C2D_CHAIN_CLOSED, &s) == C2D_ERR_DEGENERATE);
    ENSURE(c2d_chain_new(sq, 4, 8, &s) == C2D_ERR_RANGE);
    ENSURE(c2d_chain_new(nan, 3, 0, &s) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_chain_new(NULL, 3, 0, &s) == C2D_ERR_NULL && s == NULL);
    ENSURE_OK(c2d_concave_new(sq, 4, NULL, NULL, 0, &s));
    int parts;
    c2d_vec2 v[8];
    ENSURE_OK(c2d_shape_get_part_count(s, &parts));
    ENSURE(parts == 1);
    ENSURE(c2d_shape_get_part_vertices(s, 1, v, 8, &parts) == C2D_ERR_RANGE);
    ENSURE(c2d_shape_get_part_vertices(s, 0, v, 2, &parts) == C2D_ERR_CAPACITY && parts == 4);
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&s, 1, NULL, &set));
    c2d_move_result r;
    ENSURE(c2d_static_set_move(set, s, V(1, 0), NULL, &r, NULL, 0) == C2D_ERR_NOT_CONVEX);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s);
}

TEST(compound_a_hole_narrower_than_the_seam_tolerance_stays_a_hole)
{
    /* A slit 2e-9 high in a 10-wide square: the parts above and below it are 2e-9 apart, closer than
     * the set's seam tolerance (1.1e-8), but they do not meet along a joint, so the slit's edges stay
     * surface; the joints between parts are seams. */
    c2d_vec2 sq[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    c2d_vec2 slit[] = {{4, 5}, {6, 5}, {6, 5 + 2e-9}, {4, 5 + 2e-9}};
    const c2d_vec2 *holes[1] = {slit};
    int counts[1] = {4};
    c2d_shape *s;
    ENSURE_OK(c2d_concave_new(sq, 4, holes, counts, 1, &s));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&s, 1, NULL, &set));
    int parts, e = 0, slit_edges = 0, joints = 0;
    ENSURE_OK(c2d_shape_get_part_count(s, &parts));
    for (int k = 0; k < parts; k++) {
        c2d_vec2 v[16];
        int n;
        ENSURE_OK(c2d_shape_get_part_vertices(s, k, v, 16, &n));
        for (int i = 0; i < n; i++, e++) {
            c2d_vec2 a = v[i], b = v[(i + 1) % n];
            int seam = -1;
            ENSURE_OK(c2d_static_set_is_seam(set, 0, e, &seam));
            /* Both ends on the slit's rectangle, and the edge along one of its sides. */
            int on_slit = a.x >= 4 - 1e-12 && b.x >= 4 - 1e-12 && a.x <= 6 + 1e-12 && b.x <= 6 + 1e-12 &&
                          a.y >= 5 - 1e-12 && b.y >= 5 - 1e-12 && a.y <= 5 + 3e-9 && b.y <= 5 + 3e-9 &&
                          (fabs(a.y - b.y) < 1e-12 || fabs(a.x - b.x) < 1e-12);
            int on_outline = (fabs(a.x - b.x) < 1e-12 && (fabs(a.x) < 1e-12 || fabs(a.x - 10) < 1e-12)) ||
                             (fabs(a.y - b.y) < 1e-12 && (fabs(a.y) < 1e-12 || fabs(a.y - 10) < 1e-12));
            if (on_slit || on_outline) {
                slit_edges += on_slit;
                ENSURE_MSG(seam == 0, "part %d edge (%g, %g)-(%g, %g) hidden", k, a.x, a.y, b.x, b.y);
            } else {
                joints++;
                ENSURE_MSG(seam == 1, "joint (%g, %g)-(%g, %g) not a seam", a.x, a.y, b.x, b.y);
            }
        }
    }
    ENSURE(slit_edges >= 2 && joints >= 2);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(s);
}

/* A random ring of grid points (integer coordinates, distances from (cx, cy) within [rmin, rmax]) at
 * distinct angles around that centre, in the order of their angles: star-shaped about it, so simple
 * unless two points lie on one line through the centre (dropped) or an angular gap passes pi (the
 * constructor then refuses it, and the caller tries again). Returns the number of points. */
static int grid_star(int cx, int cy, int rmin, int rmax, int want, int *ix, int *iy)
{
    int m = 0;
    for (int tries = 0; m < want && tries < 50 * want; tries++) {
        int x = (int)(c2d_test_rand() % (unsigned)(2 * rmax + 1)) - rmax;
        int y = (int)(c2d_test_rand() % (unsigned)(2 * rmax + 1)) - rmax;
        int r2 = x * x + y * y, same = 0;
        if (r2 < rmin * rmin || r2 > rmax * rmax)
            continue;
        for (int j = 0; j < m && !same; j++)
            same = (long)x * (iy[j] - cy) == (long)y * (ix[j] - cx) && x * (ix[j] - cx) + y * (iy[j] - cy) > 0;
        if (same)
            continue;
        /* Insertion by angle (atan2 of integers is monotonic enough for distinct directions). */
        double a = atan2(y, x);
        int at = m;
        while (at > 0 && atan2(iy[at - 1] - cy, ix[at - 1] - cx) > a) {
            ix[at] = ix[at - 1], iy[at] = iy[at - 1];
            at--;
        }
        ix[at] = cx + x, iy[at] = cy + y;
        m++;
    }
    return m;
}

/* Signed distance from p to the region inside ring 0 of rings[0 .. nr) and outside the others, by brute
 * force over every edge (the sign from an even-odd count), and the nearest point of the edges. */
static double rings_distance(const c2d_vec2 *const *rings, const int *counts, int nr, c2d_vec2 p, c2d_vec2 *at)
{
    double best = INFINITY;
    int crossings = 0;
    for (int r = 0; r < nr; r++)
        for (int i = 0; i < counts[r]; i++) {
            c2d_vec2 a = rings[r][i], b = rings[r][(i + 1) % counts[r]];
            double d = tu_point_segment_distance(p, a, b);
            if (d < best) {
                best = d;
                if (at)
                    *at = tu_closest_on_segment(p, a, b);
            }
            if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
                crossings++;
        }
    return (crossings & 1) ? -best : best;
}

TEST(concave_closest_point_is_the_nearest_point_of_its_rings)
{
    /* Random polygons, most with a hole, their points on an integer grid turned by a random angle,
     * scaled and moved: points of the grid on one line (a hole's edge and an outline point beyond it,
     * as in the fuzz find) are then within rounding of one line, and a part's edge made of a piece of
     * the outline or the hole and a joint may lose the point between them to rounding. From any
     * point, inside, in the hole or outside, c2d_closest_point answers the nearest point of the
     * outline and the hole (brute force over their edges) to 1e-12 of the scene's size, negative
     * inside. */
    long trials = c2d_test_iterations(400), made = 0;
    for (long k = 0; k < trials; k++) {
        int ox[16], oy[16], hx[8], hy[8];
        int n = grid_star(0, 0, 8, 20, 5 + (int)(c2d_test_rand() % 10), ox, oy);
        int hcx = (int)(c2d_test_rand() % 7) - 3, hcy = (int)(c2d_test_rand() % 7) - 3;
        int hn = grid_star(hcx, hcy, 1, 4, 3 + (int)(c2d_test_rand() % 4), hx, hy);
        int nr = c2d_test_rand() % 4 != 0 ? 2 : 1; /* rings: the outline, and the hole or none */
        double scale = pow(10, c2d_test_uniform(-2, 3)), angle = c2d_test_uniform(-3.1, 3.1);
        double step = 0.2 * scale, ca = cos(angle), sa = sin(angle);
        c2d_vec2 c = tu_scale(tu_random_vec(-100, 100, -100, 100), scale);
        c2d_vec2 ring[16], hole[8];
        for (int i = 0; i < n; i++)
            ring[i] = V(c.x + step * (ca * ox[i] - sa * oy[i]), c.y + step * (sa * ox[i] + ca * oy[i]));
        for (int i = 0; i < hn; i++)
            hole[i] = V(c.x + step * (ca * hx[i] - sa * hy[i]), c.y + step * (sa * hx[i] + ca * hy[i]));
        const c2d_vec2 *rings[2] = {ring, hole}, *holes[1] = {hole};
        int counts[2] = {n, hn};
        c2d_shape *s;
        if (n < 3 || (nr == 2 && hn < 3) || c2d_concave_new(ring, n, holes, counts + 1, nr - 1, &s) != C2D_OK)
            continue;
        made++;
        double size = 0;
        for (int r = 0; r < nr; r++)
            for (int i = 0; i < counts[r]; i++)
                size = fmax(size, fmax(fabs(rings[r][i].x), fabs(rings[r][i].y)));
        double tol = 1e-12 * size;
        for (int q = 0; q < 200; q++) {
            /* Anywhere around the polygon, or near one of its points (where joints leave the hole). */
            c2d_vec2 p;
            if (q % 2 == 0) {
                p = tu_add(c, tu_scale(tu_random_vec(-22, 22, -22, 22), step));
            } else {
                int r = (int)(c2d_test_rand() % (unsigned)nr), i = (int)(c2d_test_rand() % (unsigned)counts[r]);
                p = tu_add(rings[r][i], tu_scale(tu_random_vec(-3, 3, -3, 3), step));
            }
            c2d_vec2 near, at;
            double truth = rings_distance(rings, counts, nr, p, &near), d;
            ENSURE_OK(c2d_closest_point(s, p, &at, &d));
            ENSURE_MSG(fabs(d - truth) <= tol,
                       "trial %ld: from (%.17g, %.17g) distance %.17g at (%.17g, %.17g), the rings' %.17g at "
                       "(%.17g, %.17g)",
                       k, p.x, p.y, d, at.x, at.y, truth, near.x, near.y);
            double off = fabs(rings_distance(rings, counts, nr, at, NULL));
            ENSURE_MSG(off <= tol, "trial %ld: the point is %.3g off the rings", k, off);
            ENSURE_MSG(fabs(tu_len(tu_sub(at, p)) - fabs(d)) <= tol, "trial %ld: the point is not |distance| away", k);
        }
        /* Turned and moved: the same answers about the moved points. */
        c2d_vec2 pos, shift = tu_scale(tu_random_vec(-10, 10, -10, 10), scale);
        double turn = c2d_test_uniform(-3, 3);
        ENSURE_OK(c2d_shape_get_position(s, &pos));
        c2d_vec2 to = tu_add(pos, shift);
        ENSURE_OK(c2d_shape_set_transform(s, to, turn));
        for (int q = 0; q < 50; q++) {
            int r = (int)(c2d_test_rand() % (unsigned)nr), i = (int)(c2d_test_rand() % (unsigned)counts[r]);
            c2d_vec2 p = tu_add(rings[r][i], tu_scale(tu_random_vec(-3, 3, -3, 3), step));
            double truth = rings_distance(rings, counts, nr, p, NULL), d;
            ENSURE_OK(c2d_closest_point(s, tu_add(to, tu_rot(tu_sub(p, pos), turn)), NULL, &d));
            ENSURE_MSG(fabs(d - truth) <= 10 * tol + 1e-12 * tu_len(to), "trial %ld turned: %.17g, not %.17g", k, d,
                       truth);
        }
        c2d_shape_destroy(s);
    }
    ENSURE_MSG(made >= trials / 4, "only %ld of %ld polygons were made", made, trials);
}

/* Twice the signed area of a ring (shoelace, about its first point). */
static double ring_area2(const c2d_vec2 *p, int n)
{
    double a = 0;
    for (int i = 1; i + 1 < n; i++)
        a += (p[i].x - p[0].x) * (p[i + 1].y - p[0].y) - (p[i].y - p[0].y) * (p[i + 1].x - p[0].x);
    return a;
}

/* A concave polygon made from a valid ring: its parts' areas add up to the ring's, its outline has the
 * ring's points, and its position is inside it. */
static int concave_is_ring(const c2d_vec2 *ring, int n, const char *what)
{
    c2d_shape *s = NULL;
    c2d_status st = c2d_concave_new(ring, n, NULL, NULL, 0, &s);
    if (st != C2D_OK) {
        c2d_test_fail(__FILE__, __LINE__, "%s: c2d_concave_new gave %d (%s)", what, (int)st, c2d_status_string(st));
        return 0;
    }
    int parts = 0, count = 0, in = 0;
    double area2 = 0, want = fabs(ring_area2(ring, n)), size = 0;
    c2d_vec2 pos, v[64];
    c2d_shape_get_part_count(s, &parts);
    c2d_shape_get_vertices(s, NULL, 0, &count);
    c2d_shape_get_position(s, &pos);
    c2d_contains_point(s, pos, &in);
    for (int k = 0; k < parts; k++) {
        int m = 0;
        c2d_shape_get_part_vertices(s, k, v, 64, &m);
        area2 += ring_area2(v, m);
    }
    for (int i = 0; i < n; i++)
        size = fmax(size, fmax(fabs(ring[i].x), fabs(ring[i].y)));
    c2d_shape_destroy(s);
    /* Parts measured from the position are rounded by 1e-16 of the size at each vertex. */
    int ok = parts >= 1 && count == n && in && fabs(area2 - want) <= 1e-15 * size * size * n + 1e-9 * want;
    if (!ok)
        c2d_test_fail(__FILE__, __LINE__, "%s: %d parts of area2 %.17g (ring %.17g), %d outline points of %d, position "
                      "(%.17g, %.17g) inside %d", what, parts, area2, want, count, n, pos.x, pos.y, in);
    return ok;
}

/* Issue 22 (and fuzz/known's concave-new-degenerate-for-a-valid-ring): valid rings that reach the
 * coordinate limit were called degenerate. Their parts were built by c2d_hull_new from points measured
 * from the ring's centroid, which lie up to 2e15 away when the ring spans the range: the constructor
 * refused them as out of range, and c2d_concave_new reported that as C2D_ERR_DEGENERATE. */
TEST(concave_rings_reaching_the_coordinate_limit_are_accepted)
{
    c2d_vec2 tri[3] = {{1e15, 10}, {-5e14, 8.66e14}, {-5e14, -8.66e14}}, p[3];
    for (int r = 0; r < 3; r++)
        for (int rev = 0; rev < 2; rev++) {
            for (int i = 0; i < 3; i++)
                p[i] = tri[(rev ? 3 - i + r : i + r) % 3];
            char what[64];
            snprintf(what, sizeof what, "triangle turned by %d, %s", r, rev ? "clockwise" : "counter-clockwise");
            if (!concave_is_ring(p, 3, what))
                return;
        }
    /* The fuzz find: a 12-point star out to 9.7e14. */
    c2d_vec2 points[12] = {{950000000000100.12, 3.1415926535897931},
                         {388908729652701.25, 388908729652604.25},
                         {275000000000100.19, 476313972081444.44},
                         {-81447736697194.266, 493321666042442.62},
                         {-132016962662491.91, 212300545381647.88},
                         {-899518128728629, 29447174539601.547},
                         {-973876979277233.5, -227076263034369.88},
                         {-216506350946009.62, -124999999999996.8},
                         {-117054193209577.11, -588471168241935.12},
                         {99.965162086089535, -699999999999996.88},
                         {125000000000100.12, -216506350946106.5},
                         {606217782649207, -349999999999997.19}};
    concave_is_ring(points, 12, "the fuzz input's star");
}

/* Issue 22: a valid ring every part of which is thin (here a dented sliver 2e6 long and 1e-6 high)
 * was called degenerate, its parts refused by c2d_hull_new's unstated 1e-12 area tolerance and left
 * out until none was left. Only a ring on one line is degenerate. */
TEST(concave_rings_thinner_than_the_old_tolerance_are_accepted)
{
    c2d_vec2 dent[5] = {{0, 0}, {2e6, 0}, {2e6, 1e-6}, {1e6, 5e-7}, {0, 1e-6}};
    if (!concave_is_ring(dent, 5, "dented sliver"))
        return;
    c2d_vec2 line[4] = {{0, 0}, {2e6, 1e-6}, {4e6, 2e-6}, {1e6, 5e-7}};
    c2d_shape *s = NULL;
    ENSURE(c2d_concave_new(line, 4, NULL, NULL, 0, &s) == C2D_ERR_DEGENERATE && s == NULL);
}

/* A concave polygon's position is the centroid of its area. For a thin ring (a chevron 3.9e4 long and
 * about 1e-11 thick, turned: its points round across much of its thickness) the parts' areas, summed
 * in doubles, were rounding of rounding, and the position landed 5000 units along the strip from the
 * exact centroid of the points given (computed here in rationals: (9539.706593510859,
 * 16442.636424815635)). The areas now come from exact expansions wherever the sum is not far above
 * its rounding. */
TEST(a_thin_concave_ring_is_placed_at_the_centroid_of_its_area)
{
    c2d_vec2 ring[5] = {{0x1.edd2f1a9fbe77p+6, -0x1.36ccccccccccdp+6},
                        {0x1.2f979e026d85bp+14, 0x1.0804fa71d9044p+15},
                        {0x1.2f979e026d859p+14, 0x1.0804fa71d9044p+15},
                        {0x1.318570f417818p+13, 0x1.0769940b729ddp+14},
                        {0x1.edd2f1a9fbcd1p+6, -0x1.36ccccccccbddp+6}};
    c2d_shape *s = NULL;
    c2d_vec2 pos;
    ENSURE_OK(c2d_concave_new(ring, 5, NULL, NULL, 0, &s));
    ENSURE_OK(c2d_shape_get_position(s, &pos));
    c2d_shape_destroy(s);
    ENSURE_NEAR(pos.x, 9539.706593510859, 1e-9 * 4e4);
    ENSURE_NEAR(pos.y, 16442.636424815635, 1e-9 * 4e4);
}
