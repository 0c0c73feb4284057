/* test_graze.c - a mover sliding along one segment of a chain onto the next, which bends away from its
 * path by a hair: it meets the next segment at a grazing angle, and must stop on it (or slide on
 * along it), never end inside it. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* The deepest overlap of the mover with any of the shapes (0 when apart or touching). */
static double graze_depth(const c2d_shape *mover, c2d_shape *const *shapes, int n)
{
    double deepest = 0.0;
    for (int i = 0; i < n; i++) {
        c2d_contact ct;
        if (c2d_collide(mover, shapes[i], &ct) != C2D_OK)
            return INFINITY;
        if (ct.count > 0 && ct.depth > deepest)
            deepest = ct.depth;
    }
    return deepest;
}

/* The colleague's case: a box 1815.7 x 3512.1 slides along the first segment of a chain by (300, -60)
 * onto the second, 1.7e-5 rad steeper. It ended 6.5e-4 inside the second segment; built as two
 * separate segments, the same move stops at t = 0.886. */
TEST(graze_box_slides_along_a_chain_onto_a_segment_a_hair_steeper)
{
    c2d_vec2 p[3] = {{-52896.478920506357, -23435.490816590067},
                     {-45141.520102665527, -20000.107540383371},
                     {-42943.647465250695, -19026.413292061945}};
    c2d_shape *box, *floors[3];
    ENSURE_OK(c2d_rect_new(-46251.973699644164, -18333.811369906925, 1815.688103578603, 3512.1010809714671, 0,
                           &box));
    ENSURE_OK(c2d_chain_new(p, 3, 0, &floors[0]));
    ENSURE_OK(c2d_segment_new(p[0], p[1], &floors[1]));
    ENSURE_OK(c2d_segment_new(p[1], p[2], &floors[2]));
    c2d_vec2 d = V(300, -60);
    c2d_aabb bb;
    ENSURE_OK(c2d_shape_get_aabb(box, &bb));
    double unit = 1.0 + fmax(fmax(fabs(bb.min.x), fabs(bb.max.x)), fmax(fabs(bb.min.y), fabs(bb.max.y)));
    /* The chain alone, then the two segments: each must end at most touching. */
    for (int how = 0; how < 2; how++) {
        c2d_static_set *set;
        int n = how == 0 ? 1 : 2;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)(how == 0 ? floors : floors + 1), n, NULL, &set));
        c2d_move_result r;
        c2d_sweep_contact c[8];
        c2d_status st = c2d_static_set_move(set, box, d, NULL, &r, c, 8);
        c2d_static_set_destroy(set);
        ENSURE_OK(st);
        c2d_shape *moved;
        ENSURE_OK(c2d_shape_clone(box, &moved));
        ENSURE_OK(c2d_shape_move(moved, r.displacement));
        double depth = graze_depth(moved, floors + (how == 0 ? 0 : 1), n);
        c2d_shape_destroy(moved);
        ENSURE_MSG(depth <= 1e-13 * unit, "%s: the box ends %.3g inside (moved by (%.17g, %.17g), %d contacts)",
                   how == 0 ? "chain" : "two segments", depth, r.displacement.x, r.displacement.y, r.count);
        /* It met the second segment and stopped on it: at most 0.886 of the way along x (less
         * slides less), and not at the start (no snag on the first segment). */
        ENSURE_MSG(r.count >= 1 && r.displacement.x > 200 && r.displacement.x < 300,
                   "%s: moved by (%.17g, %.17g), %d contacts", how == 0 ? "chain" : "two segments",
                   r.displacement.x, r.displacement.y, r.count);
    }
    for (int i = 0; i < 3; i++)
        c2d_shape_destroy(floors[i]);
    c2d_shape_destroy(box);
}

/* Trial 535 of the property below, exactly: a box 0.41 x 0.21 lying on a segment 0.35 long at
 * (59797, -52286), turned with it to within the rounding of its place (their normals 3e-12 rad apart),
 * presses into it at 0.008 rad while sliding on past the joint. Its hull with the segment ordered the
 * box's bottom edge by its placed direction but gave it the box's own normal, 3e-12 outside the seam
 * cone of the segment's back end: the chain let the box through to (0.169, -0.0095), 0.00134 inside. It
 * must meet the segment's face at once and slide on along it. */
TEST(graze_box_lying_on_a_segment_turned_with_it_by_rounding_meets_its_face)
{
    c2d_vec2 p[7] = {{59795.379284647381, -52286.554873198686}, {59795.945426060869, -52286.530853424432},
                     {59796.767509804769, -52286.490645361562}, {59797.16673643345, -52286.471144610652},
                     {59797.513726326302, -52286.487955626406}, {59798.16778021607, -52286.580286480319},
                     {59798.898148668144, -52286.733851051795}};
    c2d_shape *box, *chain, *seg[6];
    ENSURE_OK(c2d_rect_new(0, 0, 0.4134348301488302, 0.21145543265761219, -0.048410289547040977, &box));
    ENSURE_OK(c2d_shape_set_position(box, V(59797.307008863521, -52286.372088822485)));
    ENSURE_OK(c2d_chain_new(p, 7, 0, &chain));
    for (int k = 0; k < 6; k++)
        ENSURE_OK(c2d_segment_new(p[k], p[k + 1], &seg[k]));
    c2d_vec2 d = V(0.16871720097693768, -0.0095158681669653689);
    c2d_vec2 up = V(0.048391383054410604, 0.99882845075922877); /* the segment's face normal */
    double unit = 0.65174111190358508 + 59797.6; /* the scene's scale + the mover's place */
    /* The sweep against the chain meets the face at once, its normal from the box to the floor. */
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(box, d, chain, V(0, 0), &toi));
    ENSURE_MSG(toi.state == C2D_TOI_HIT && toi.t < 1e-6 && -(toi.normal.x * up.x + toi.normal.y * up.y) > 0.999,
               "sweep against the chain: state %d at t %.17g, normal (%.17g, %.17g)", (int)toi.state, toi.t,
               toi.normal.x, toi.normal.y);
    /* The move through a set holding the chain stops on the face and slides on along it, outside. */
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&chain, 1, NULL, &set));
    c2d_move_result r;
    c2d_sweep_contact c[8];
    c2d_status st = c2d_static_set_move(set, box, d, NULL, &r, c, 8);
    c2d_static_set_destroy(set);
    ENSURE_OK(st);
    c2d_shape *moved;
    ENSURE_OK(c2d_shape_clone(box, &moved));
    ENSURE_OK(c2d_shape_move(moved, r.displacement));
    double depth = graze_depth(moved, seg, 6);
    c2d_shape_destroy(moved);
    ENSURE_MSG(depth <= 1e-13 * unit, "the box ends %.3g inside (moved by (%.17g, %.17g), %d contacts)", depth,
               r.displacement.x, r.displacement.y, r.count);
    ENSURE_MSG(r.count >= 1 && c[0].normal.x * up.x + c[0].normal.y * up.y > 0.999 &&
                   r.displacement.x * up.x + r.displacement.y * up.y > -1e-9 && r.displacement.x > 0.16,
               "moved by (%.17g, %.17g), %d contacts, the first with normal (%.17g, %.17g)", r.displacement.x,
               r.displacement.y, r.count, r.count ? c[0].normal.x : 0.0, r.count ? c[0].normal.y : 0.0);
    for (int k = 0; k < 6; k++)
        c2d_shape_destroy(seg[k]);
    c2d_shape_destroy(chain);
    c2d_shape_destroy(box);
}

/* ---- the property: a mover slides along one segment of a random chain onto the next ---- *
 *
 * A chain of 2 to 6 segments, each turning from the last by 1e-6 to 0.3 rad either way, at a scale of
 * 1e-2 to 1e5 and up to 1e5 from the origin. A box (turned with the segment, or any way) or a capsule
 * stands on one segment, on either side of the chain (so the next bend is convex or concave under
 * it), its lowest point a little before the joint, and moves along the segment past the joint while
 * pressing slightly into it. It must never end inside the chain (beyond rounding) and never stop at
 * the joint (it slides on along the next segment, or leaves the chain where the chain falls away). */

#define GRAZE_MAX_SEGS 6

typedef struct graze_case {
    int segs, seg, capsule, concave;
    double s;                        /* the scene's scale */
    c2d_vec2 p[GRAZE_MAX_SEGS + 1];  /* the chain's points */
    c2d_vec2 dir, up;                /* the segment's direction, and its normal towards the mover */
    double bend;                     /* the turn at the joint ahead, towards the mover when concave */
    double before;                   /* how far the mover's lowest point stands before the joint */
    c2d_shape *chain, *mover;
    c2d_vec2 d;
} graze_case;

static void graze_case_free(graze_case *c)
{
    c2d_shape_destroy(c->chain);
    c2d_shape_destroy(c->mover);
    c->chain = c->mover = NULL;
}

static void graze_case_print(const graze_case *c)
{
    printf("  chain of %d segments, scale %.17g, on segment %d, %s bend %.3g ahead, %.17g before it:\n   ",
           c->segs, c->s, c->seg, c->concave ? "concave" : "convex", c->bend, c->before);
    for (int k = 0; k <= c->segs; k++)
        printf(" (%.17g, %.17g)", c->p[k].x, c->p[k].y);
    c2d_vec2 pos, v[4];
    double angle = 0, r = 0;
    int n = 0;
    c2d_shape_get_position(c->mover, &pos);
    c2d_shape_get_angle(c->mover, &angle);
    c2d_shape_get_radius(c->mover, &r);
    c2d_shape_get_vertices(c->mover, v, 4, &n);
    printf("\n  %s at (%.17g, %.17g) angle %.17g radius %.17g, vertices:", c->capsule ? "capsule" : "box", pos.x,
           pos.y, angle, r);
    for (int k = 0; k < n; k++)
        printf(" (%.17g, %.17g)", v[k].x, v[k].y);
    printf("\n  displacement (%.17g, %.17g)\n", c->d.x, c->d.y);
}

/* lowest * 10^k * m, m in [1, 10), k below decades: drawn without libm (pow may differ between
 * platforms by a rounding). */
static double graze_decades(double lowest, int decades)
{
    unsigned long long k = c2d_test_rand() % (unsigned long long)decades;
    double m = c2d_test_uniform(1.0, 10.0);
    double f = lowest;
    for (unsigned long long i = 0; i < k; i++)
        f *= 10.0;
    return f * m;
}

/* Builds a random case. Returns 0 when the mover, so placed, already overlaps the chain (a concave
 * bend behind it cutting into it): the caller draws another. */
static int graze_case_new(graze_case *c)
{
    memset(c, 0, sizeof *c);
    c->segs = 2 + (int)(c2d_test_rand() % (GRAZE_MAX_SEGS - 1));
    c->seg = (int)(c2d_test_rand() % (unsigned long long)(c->segs - 1));
    c->capsule = (int)(c2d_test_rand() % 3 == 0);
    c->s = graze_decades(0.01, 7);
    double ox = c2d_test_uniform(-1e5, 1e5);
    double oy = c2d_test_uniform(-1e5, 1e5);
    double theta = c2d_test_uniform(-3.14159, 3.14159);
    double turn[GRAZE_MAX_SEGS], len[GRAZE_MAX_SEGS], sn, cs;
    c2d_vec2 dirs[GRAZE_MAX_SEGS];
    c->p[0] = V(ox, oy);
    for (int k = 0; k < c->segs; k++) {
        /* Bends of 1e-6 to 0.3 rad (1e-6 .. 1, what lies above 0.3 folded under it), either way. */
        double b = graze_decades(1e-6, 6);
        if (b > 0.3)
            b *= 0.3;
        unsigned long long sign = c2d_test_rand() % 2;
        turn[k] = sign ? b : -b;
        if (k > 0)
            theta += turn[k];
        double l = c2d_test_uniform(0.5, 1.5);
        len[k] = l * c->s;
        c2d_sincos(theta, &sn, &cs);
        dirs[k] = V(cs, sn);
        c->p[k + 1] = V(c->p[k].x + len[k] * cs, c->p[k].y + len[k] * sn);
    }
    int i = c->seg;
    c->dir = dirs[i];
    c->up = V(-c->dir.y, c->dir.x);
    /* The mover on the right-hand side: the chain turning left at the joint ahead turns away from it. */
    if (c2d_test_rand() % 2)
        c->up = V(-c->up.x, -c->up.y);
    double cross = c->dir.x * dirs[i + 1].y - c->dir.y * dirs[i + 1].x;
    c->concave = (cross * (c->dir.x * c->up.y - c->dir.y * c->up.x)) > 0;
    c->bend = fabs(turn[i + 1]);
    if (c2d_chain_new(c->p, c->segs + 1, 0, &c->chain) != C2D_OK)
        return -1;
    /* The mover at the origin, in world orientation. */
    c2d_vec2 v[4];
    int n = 0;
    double r = 0;
    if (c->capsule) {
        double hl = c2d_test_uniform(0.02, 0.4) * c->s;
        double rr = c2d_test_uniform(0.01, 0.3) * c->s;
        double phi = theta;
        unsigned long long along = c2d_test_rand() % 2;
        if (!along)
            phi = c2d_test_uniform(-3.14159, 3.14159);
        c2d_sincos(phi, &sn, &cs);
        if (c2d_capsule_new(V(-hl * cs, -hl * sn), V(hl * cs, hl * sn), rr, &c->mover) != C2D_OK)
            return -1;
    } else {
        double w = c2d_test_uniform(0.05, 0.8) * c->s;
        double h = c2d_test_uniform(0.05, 0.8) * c->s;
        double angle = c2d_test_uniform(-1.2, 1.2);
        unsigned long long q = c2d_test_rand() % 4;
        if (c2d_test_rand() % 2)
            angle = 0;
        angle += atan2(c->dir.y, c->dir.x) + (double)q * 1.5707963267948966;
        if (c2d_rect_new(0, 0, w, h, angle, &c->mover) != C2D_OK)
            return -1;
    }
    c2d_shape_get_radius(c->mover, &r);
    c2d_shape_get_vertices(c->mover, v, 4, &n);
    /* Its lowest point (towards the chain), the frontmost of those level with it. */
    double low = INFINITY;
    for (int k = 0; k < n; k++)
        low = fmin(low, v[k].x * c->up.x + v[k].y * c->up.y);
    int lk = -1;
    for (int k = 0; k < n; k++) {
        double h = v[k].x * c->up.x + v[k].y * c->up.y;
        double a = v[k].x * c->dir.x + v[k].y * c->dir.y;
        if (h <= low + 1e-9 * c->s &&
            (lk < 0 || a > v[lk].x * c->dir.x + v[lk].y * c->dir.y))
            lk = k;
    }
    c2d_vec2 lowest = V(v[lk].x - r * c->up.x, v[lk].y - r * c->up.y);
    /* That point on the segment, a little before the joint ahead. */
    double frac = c2d_test_uniform(0.01, 0.5);
    c->before = frac * len[i];
    c2d_vec2 at = V(c->p[i + 1].x - c->before * c->dir.x, c->p[i + 1].y - c->before * c->dir.y);
    if (c2d_shape_set_position(c->mover, V(at.x - lowest.x, at.y - lowest.y)) != C2D_OK)
        return -1;
    /* Past the joint by a part of the next segment, pressing into the floor by 1e-7 to 1e-2 of that. */
    double past = c2d_test_uniform(0.05, 0.6) * len[i + 1];
    double go = c->before + past;
    double press = graze_decades(1e-7, 5) * go;
    c->d = V(go * c->dir.x - press * c->up.x, go * c->dir.y - press * c->up.y);
    /* Touching the segment up to the rounding of placing it, and nothing deeper (a concave bend behind
     * may cut into its back). */
    double deepest = 0.0;
    for (int k = 0; k < c->segs; k++) {
        c2d_shape *sg;
        c2d_contact ct;
        if (c2d_segment_new(c->p[k], c->p[k + 1], &sg) != C2D_OK)
            return -1;
        c2d_status st = c2d_collide(c->mover, sg, &ct);
        c2d_shape_destroy(sg);
        if (st != C2D_OK)
            return -1;
        if (ct.count > 0)
            deepest = fmax(deepest, ct.depth);
    }
    return !(deepest > 1e-14 * (c->s + fabs(ox) + fabs(oy)));
}

static double v2len(c2d_vec2 v)
{
    return sqrt(v.x * v.x + v.y * v.y);
}

static double graze_worst_depth;

/* Runs one case: 1 when the mover ended outside the chain, having gone on past the joint. */
static int graze_case_check(graze_case *c, long trial)
{
    c2d_static_set *set;
    c2d_move_result res;
    c2d_sweep_contact ct[8];
    c2d_status st = c2d_static_set_new((const c2d_shape *const *)&c->chain, 1, NULL, &set);
    if (st != C2D_OK) {
        c2d_test_fail(__FILE__, __LINE__, "trial %ld: c2d_static_set_new failed with %d", trial, (int)st);
        return 0;
    }
    st = c2d_static_set_move(set, c->mover, c->d, NULL, &res, ct, 8);
    c2d_static_set_destroy(set);
    c2d_aabb box;
    c2d_shape_get_aabb(c->mover, &box);
    double mag = fmax(fmax(fabs(box.min.x), fabs(box.max.x)), fmax(fabs(box.min.y), fabs(box.max.y)));
    double unit = c->s + mag;
    double depth = INFINITY;
    c2d_shape *moved = NULL;
    /* Measured against each segment on its own: the chain's own contact comes from its push-out, which
     * is another question (it answers a push of 0.085 along a chain of scale 0.5 at 1e5 for a box
     * touching a convex joint of 2e-6 rad within rounding). */
    c2d_shape *seg[GRAZE_MAX_SEGS];
    int nseg = 0;
    while (nseg < c->segs && c2d_segment_new(c->p[nseg], c->p[nseg + 1], &seg[nseg]) == C2D_OK)
        nseg++;
    if (st == C2D_OK && nseg == c->segs && c2d_shape_clone(c->mover, &moved) == C2D_OK &&
        c2d_shape_move(moved, res.displacement) == C2D_OK)
        depth = graze_depth(moved, seg, nseg);
    c2d_shape_destroy(moved);
    for (int k = 0; k < nseg; k++)
        c2d_shape_destroy(seg[k]);
    /* No snag: every contact is the floor's (a normal within the chain's turn over the next few
     * segments, 0.9 rad at most, of the segment's), the slide keeps its motion (each concave bend of
     * up to 0.3 rad it slides up keeps cos 0.3 = 0.955 of it, and the mover, travelling 0.6 of the
     * next segment past the joint, meets at most three), and it goes most of its way. */
    double dl = v2len(c->d);
    int floor_only = 1;
    for (int k = 0; k < res.count && k < 8; k++)
        floor_only &= ct[k].normal.x * c->up.x + ct[k].normal.y * c->up.y > 0.6;
    double e_depth = depth / unit;
    graze_worst_depth = fmax(graze_worst_depth, e_depth);
    if (st != C2D_OK || res.truncated || !(e_depth <= 1e-13) || !floor_only || !(v2len(res.velocity) >= 0.8 * dl) ||
        !(v2len(res.displacement) >= 0.8 * dl)) {
        c2d_test_fail(__FILE__, __LINE__,
                      "trial %ld: status %d, moved by (%.17g, %.17g), going on at (%.17g, %.17g), ends %.3g "
                      "inside (%.3g of scale + place), %d contacts",
                      trial, (int)st, res.displacement.x, res.displacement.y, res.velocity.x, res.velocity.y, depth,
                      e_depth, res.count);
        graze_case_print(c);
        for (int k = 0; k < res.count && k < 8; k++)
            printf("  contact %d at t %.17g: normal (%.17g, %.17g) at (%.17g, %.17g)\n", k, ct[k].t, ct[k].normal.x,
                   ct[k].normal.y, ct[k].point.x, ct[k].point.y);
        return 0;
    }
    return 1;
}

TEST(graze_property_sliding_onto_the_next_segment_of_a_chain_never_ends_inside)
{
    long n = c2d_test_iterations(20000);
    long skipped = 0, kinds[2][2] = {{0, 0}, {0, 0}};
    graze_worst_depth = 0.0;
    for (long trial = 0; trial < n; trial++) {
        graze_case c;
        int made = graze_case_new(&c);
        if (made < 0) {
            graze_case_free(&c);
            ENSURE_MSG(0, "trial %ld: building the case failed", trial);
        }
        if (made == 0) {
            graze_case_free(&c);
            skipped++;
            continue;
        }
        kinds[c.capsule][c.concave]++;
        int ok = graze_case_check(&c, trial);
        graze_case_free(&c);
        if (!ok)
            return;
    }
    printf("# boxes %ld convex, %ld concave; capsules %ld convex, %ld concave; %ld skipped; worst depth %.3g "
           "(of scale + place)\n",
           kinds[0][0], kinds[0][1], kinds[1][0], kinds[1][1], skipped, graze_worst_depth);
}
