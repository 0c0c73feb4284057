/* test_degenerate.c - geometric truth where rounding decides. Random pairs and rays (test_properties.c,
 * test_queries.c) almost never pass exactly through a vertex, share an end point or lie along an edge,
 * and their checks step aside within a tolerance of touching; that is where a ray was reported hitting
 * a segment 0.19 away from it and two segments sharing an end were given a negative depth. Here every
 * case is built on such a feature of a shape as the library placed it, at scales from 1e-3 to 1e4 and
 * offsets up to 1e6, and checked by properties that hold for ANY input, with no case skipped:
 *   - a ray's hit point lies on the shape's boundary (within a tight bound of the scene's size), the
 *     part of the ray before it does not enter the shape, and a reported miss really misses;
 *   - against segments the answer is the one exact rational arithmetic gives for the placed geometry
 *     (exact.h): hit or miss, and a ray through an end point hits exactly at that end;
 *   - every contact has depth >= 0 (exactly, no tolerance), a unit normal, point depths in [0, depth],
 *     points within depth of both surfaces, the same depth in either argument order, and moving B by
 *     depth along the normal leaves the shapes touching, not overlapping;
 *   - a point on a segment is contained exactly when exact arithmetic says it is on it.
 * A failure prints the case as C initialisers, ready for a regression test.
 */
#include "exact.h"
#include "test.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

/* The tight bound: 1e-12 of the scene's largest coordinate (no floor at 1, so a scene 1e-3 across is
 * held to 1e-15). Double rounding is ~1e-16 of it per operation. */
#define TIGHT 1e-12

/* ---- shapes as the library placed them ---------------------------------------------------------- */

/* Whether c lies strictly left of a -> b: by the double cross product where it is far above its
 * rounding, else exactly. */
static int left_of(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c)
{
    c2d_vec2 e1 = tu_sub(b, a), e2 = tu_sub(c, a);
    double cr = tu_cross(e1, e2);
    if (fabs(cr) > 1e-10 * tu_len(e1) * tu_len(e2))
        return cr > 0;
    return ex_orient(a, b, c) > 0;
}

/* The convex hull of the points (monotone chain, exact turns), counter-clockwise, into g->v: at least
 * 1 point, 2 when they are all on one line. */
static void hull_in_place(tu_geom *g)
{
    c2d_vec2 p[TU_MAXV], h[2 * TU_MAXV];
    int n = g->n, k = 0;
    memcpy(p, g->v, (size_t)n * sizeof p[0]);
    for (int i = 1; i < n; i++) /* insertion sort by x, then y */
        for (int j = i; j > 0 && (p[j].x < p[j - 1].x || (p[j].x == p[j - 1].x && p[j].y < p[j - 1].y)); j--) {
            c2d_vec2 t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        while (k >= 2 && !left_of(h[k - 2], h[k - 1], p[i]))
            k--;
        h[k++] = p[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && !left_of(h[k - 2], h[k - 1], p[i]))
            k--;
        h[k++] = p[i];
    }
    k = k > 1 ? k - 1 : k;
    if (k == 2 && h[0].x == h[1].x && h[0].y == h[1].y)
        k = 1;
    memcpy(g->v, h, (size_t)k * sizeof h[0]);
    g->n = k;
}

/* The placed geometry of a library shape, for the oracles: its vertices as the library holds them. A
 * polygon is the hull of its placed vertices: placing a sliver thinner than the spacing of doubles at
 * its position rounds its vertices off convex or onto one line, where the oracle's convex tests would
 * be meaningless; the hull is within that rounding of the library's own core. Ordinary polygons are
 * convex as placed and keep their vertices. */
static tu_geom geom_of(const c2d_shape *s)
{
    tu_geom g;
    memset(&g, 0, sizeof g);
    static const int kinds[] = {-1, TU_CIRCLE, TU_RECT, TU_POLYGON, TU_CAPSULE, TU_SEGMENT};
    g.kind = kinds[c2d_shape_get_type(s)];
    c2d_shape_get_vertices(s, g.v, TU_MAXV, &g.n);
    c2d_shape_get_radius(s, &g.r);
    if (g.kind == TU_POLYGON) {
        int convex = 1;
        for (int i = 0; i < g.n && convex; i++)
            convex = left_of(g.v[i], g.v[(i + 1) % g.n], g.v[(i + 2) % g.n]);
        if (!convex)
            hull_in_place(&g);
    }
    return g;
}

static double geom_mag(const tu_geom *g)
{
    double m = 0;
    for (int i = 0; i < g->n; i++)
        m = fmax(m, fmax(fabs(g->v[i].x), fabs(g->v[i].y)) + g->r);
    return m;
}

/* The oracle's signed distance of two shapes, with whether the cores meet decided exactly (exact.h):
 * testutil's double-precision test may miss an edge crossing right at a shared vertex and then
 * report two meeting cores as a hair apart. The depth and distances themselves are testutil's. */
static double oracle_sd(const tu_geom *a, const tu_geom *b)
{
    if (ex_cores_meet(a->v, a->n, b->v, b->n))
        return -(tu_core_depth(a, b, NULL) + a->r + b->r);
    double m = INFINITY;
    for (int k = 0; k < 2; k++) {
        const tu_geom *p = k ? b : a, *q = k ? a : b;
        for (int i = 0; i < p->n; i++)
            for (int j = 0; j < tu_edge_count(q); j++) {
                c2d_vec2 e0, e1;
                tu_edge(q, j, &e0, &e1);
                m = fmin(m, tu_point_segment_distance(p->v[i], e0, e1));
            }
    }
    return m - a->r - b->r;
}

static void print_shape(const char *label, const c2d_shape *s)
{
    tu_geom g = geom_of(s);
    printf("  %s: %s r=%.17g, %d placed vertices:", label, tu_kind_name(g.kind), g.r, g.n);
    for (int i = 0; i < g.n; i++)
        printf(" {%.17g, %.17g}", g.v[i].x, g.v[i].y);
    printf("\n");
    if (g.kind == TU_POLYGON) {
        /* Enough to rebuild it bit for bit: its vertices in its own frame (placed at the origin,
         * unturned), then its position and angle. */
        c2d_shape *t = NULL;
        c2d_vec2 pos, v[TU_MAXV];
        double angle = 0;
        int n = 0;
        c2d_shape_get_position(s, &pos);
        c2d_shape_get_angle(s, &angle);
        if (c2d_shape_clone(s, &t) == C2D_OK && c2d_shape_set_transform(t, tu_v(0, 0), 0) == C2D_OK &&
            c2d_shape_get_vertices(t, v, TU_MAXV, &n) == C2D_OK) {
            printf("     own frame:");
            for (int i = 0; i < n; i++)
                printf(" {%a, %a}", v[i].x, v[i].y);
            printf("; at {%a, %a} angle %a\n", pos.x, pos.y, angle);
        }
        c2d_shape_destroy(t);
    }
}

static c2d_vec2 tu_neg(c2d_vec2 a)
{
    return tu_v(-a.x, -a.y);
}

/* A random direction, sometimes exactly along an axis. */
static c2d_vec2 random_dir(void)
{
    unsigned long r = c2d_test_rand() % 8;
    if (r == 0)
        return tu_v(c2d_test_rand() % 2 ? 1 : -1, 0);
    if (r == 1)
        return tu_v(0, c2d_test_rand() % 2 ? 1 : -1);
    double a = c2d_test_uniform(-TU_PI, TU_PI);
    return tu_v(cos(a), sin(a));
}

/* The scene's scale and offset: sizes 1e-3 to 1e4, placed at the origin or up to 1e3 sizes away
 * (1e6 at the largest scale). */
typedef struct scene {
    double k;
    c2d_vec2 off;
} scene;

static scene random_scene(void)
{
    scene sc;
    sc.k = pow(10.0, c2d_test_uniform(-3, 4));
    unsigned long r = c2d_test_rand() % 3;
    sc.off = r == 0 ? tu_v(0, 0) : tu_scale(tu_random_point(r == 1 ? 5 : 1000), sc.k);
    return sc;
}

static c2d_vec2 place(const scene *sc, c2d_vec2 p)
{
    return tu_add(tu_scale(p, sc->k), sc->off);
}

/* A shape of the kind near c (in scene units), sized about 1. */
static c2d_status make_shape(int kind, const scene *sc, c2d_vec2 c, c2d_shape **out)
{
    c2d_vec2 pc = place(sc, c);
    switch (kind) {
    case TU_CIRCLE:
        return c2d_circle_new(pc.x, pc.y, sc->k * c2d_test_uniform(0.1, 1.5), out);
    case TU_RECT: {
        double angle = c2d_test_rand() % 3 == 0 ? 0.0 : c2d_test_uniform(-TU_PI, TU_PI);
        double w = sc->k * c2d_test_uniform(0.1, 3), h = sc->k * c2d_test_uniform(0.1, 3);
        if (c2d_test_rand() % 8 == 0)
            h = w * 1e-7; /* a sliver */
        return c2d_rect_new(pc.x, pc.y, w, h, angle, out);
    }
    case TU_POLYGON: {
        c2d_vec2 p[TU_MAXV];
        int n = tu_random_convex_points(3 + (int)(c2d_test_rand() % 6), tu_v(0, 0), p);
        if (c2d_test_rand() % 8 == 0) { /* a sliver: squashed across a random axis */
            c2d_vec2 ax = random_dir();
            for (int i = 0; i < n; i++)
                p[i] = tu_add(p[i], tu_scale(ax, -tu_dot(p[i], ax) * (1 - 1e-7)));
        }
        for (int i = 0; i < n; i++)
            p[i] = place(sc, tu_add(c, p[i]));
        return c2d_polygon_new(p, n, out);
    }
    default: {
        double half = c2d_test_uniform(0.05, 1.5);
        c2d_vec2 h = tu_scale(random_dir(), half);
        double r = sc->k * c2d_test_uniform(0.05, 1.2);
        if (c2d_test_rand() % 16 == 0) {
            /* So short that, made at the origin and then moved into place, its ends coincide. */
            h = tu_scale(h, 1e-20 * sc->k);
            c2d_status st = kind == TU_SEGMENT ? c2d_segment_new(tu_neg(h), h, out) : c2d_capsule_new(tu_neg(h), h, r, out);
            return st != C2D_OK ? st : c2d_shape_set_position(*out, pc);
        }
        c2d_vec2 a = place(sc, tu_sub(c, h)), b = place(sc, tu_add(c, h));
        if (kind == TU_SEGMENT)
            return c2d_segment_new(a, b, out);
        return c2d_capsule_new(a, b, r, out);
    }
    }
}

/* A point on or at a feature of the shape's core, as placed: a vertex, a point along an edge, a
 * vertex moved by one ulp, or (rounded kinds) a point of the rounded surface. *edge_dir gets the
 * direction of an edge through it (zero for a circle). */
static c2d_vec2 feature_point(const c2d_shape *s, c2d_vec2 *edge_dir)
{
    tu_geom g = geom_of(s);
    int i = (int)(c2d_test_rand() % (unsigned long)g.n), j = (i + 1) % g.n;
    c2d_vec2 v = g.v[i];
    *edge_dir = g.n >= 2 ? tu_sub(g.v[j], v) : tu_v(0, 0);
    switch (c2d_test_rand() % 5) {
    case 0:
    case 1:
        return v;
    case 2:
        return g.n >= 2 ? tu_add(v, tu_scale(*edge_dir, c2d_test_uniform(0, 1))) : v;
    case 3: {
        int keep_y = c2d_test_rand() % 2 != 0, up_x = c2d_test_rand() % 2 != 0;
        return tu_v(nextafter(v.x, up_x ? INFINITY : -INFINITY), keep_y ? v.y : nextafter(v.y, -INFINITY));
    }
    default:
        return tu_add(v, tu_scale(random_dir(), g.r));
    }
}

/* ---- contacts on shared features ------------------------------------------------------------------ */

/* B of the kind with a vertex (end point, corner) exactly at f, or a circle centred on f or touching it,
 * reaching in direction dir (sometimes along the edge through f, so that edges lie on one line). */
static c2d_status make_sharing(int kind, const scene *sc, c2d_vec2 f, c2d_vec2 edge, c2d_shape **out)
{
    c2d_vec2 dir = random_dir();
    double len = sc->k * c2d_test_uniform(0.05, 2);
    unsigned long r = c2d_test_rand() % 4;
    if (r == 0 && (edge.x != 0 || edge.y != 0))
        dir = tu_scale(edge, (c2d_test_rand() % 2 ? 1 : -1) / tu_len(edge));
    switch (kind) {
    case TU_CIRCLE: {
        double rad = sc->k * c2d_test_uniform(0.05, 1.5);
        c2d_vec2 c = r == 1 ? f : tu_add(f, tu_scale(dir, rad));
        return c2d_circle_new(c.x, c.y, rad, out);
    }
    case TU_RECT: {
        double w = len, h = r == 2 ? len * 1e-7 : sc->k * c2d_test_uniform(0.05, 2);
        if (c2d_test_rand() % 2) {
            /* Unturned, a corner exactly at f when the half sizes add without rounding. */
            double sx = c2d_test_rand() % 2 ? 1 : -1, sy = c2d_test_rand() % 2 ? 1 : -1;
            return c2d_rect_new(f.x + sx * w / 2, f.y + sy * h / 2, w, h, 0.0, out);
        }
        double angle = atan2(dir.y, dir.x);
        c2d_vec2 c = tu_add(f, tu_rot(tu_v(w / 2, h / 2), angle));
        return c2d_rect_new(c.x, c.y, w, h, angle, out);
    }
    case TU_POLYGON: {
        c2d_vec2 p[3];
        p[0] = f;
        p[1] = tu_add(f, tu_scale(dir, len));
        c2d_vec2 side = tu_rot(dir, c2d_test_uniform(0.2, 2.9));
        double wid = r == 2 ? len * 1e-7 : sc->k * c2d_test_uniform(0.05, 2);
        p[2] = tu_add(f, tu_scale(side, wid));
        return c2d_polygon_new(p, 3, out);
    }
    default: {
        c2d_vec2 e = tu_add(f, tu_scale(dir, len));
        if (kind == TU_SEGMENT)
            return c2d_segment_new(f, e, out);
        return c2d_capsule_new(f, e, sc->k * c2d_test_uniform(0.02, 1), out);
    }
    }
}

#define FAIL_PAIR(...)                                                                                     \
    do {                                                                                               \
        c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                                                \
        print_shape("A", a);                                                                           \
        print_shape("B", b);                                                                           \
        return 0;                                                                                      \
    } while (0)
#define CHECK_PAIR(cond, ...)                                                                              \
    do {                                                                                               \
        if (!(cond))                                                                                   \
            FAIL_PAIR(__VA_ARGS__);                                                                    \
    } while (0)

/* The properties of one contact of a and b (in that order); sd is the oracle's signed distance. */
static int check_one_contact(const c2d_shape *a, const c2d_shape *b, const tu_geom *ga, const tu_geom *gb,
                             const c2d_contact *c, double sd, double tol)
{
    CHECK_PAIR(c->count >= 0 && c->count <= 2, "count %d", c->count);
    if (c->count == 0) {
        CHECK_PAIR(c->depth == 0 && c->normal.x == 0 && c->normal.y == 0, "no contact must be all zero");
        CHECK_PAIR(sd >= -tol, "no contact, but the oracle has them overlapping by %.17g (tol %.3g)", -sd, tol);
        return 1;
    }
    CHECK_PAIR(c->depth >= 0 && isfinite(c->depth), "depth %.17g is negative", c->depth);
    CHECK_PAIR(fabs(tu_len(c->normal) - 1) <= 1e-12, "normal (%.17g, %.17g) is not a unit vector", c->normal.x,
               c->normal.y);
    CHECK_PAIR(sd <= tol, "contact of depth %.17g, but the oracle has them %.17g apart (tol %.3g)", c->depth, sd, tol);
    CHECK_PAIR(fabs(c->depth + fmin(sd, 0)) <= tol, "depth %.17g, oracle penetration %.17g (tol %.3g)", c->depth,
               -fmin(sd, 0), tol);
    for (int i = 0; i < c->count; i++) {
        double pd = c->point_depths[i];
        CHECK_PAIR(pd >= 0 && pd <= c->depth, "point depth %d is %.17g, depth %.17g", i, pd, c->depth);
        double da = tu_point_distance(ga, c->points[i]), db = tu_point_distance(gb, c->points[i]);
        CHECK_PAIR(fabs(da) <= c->depth + tol && fabs(db) <= c->depth + tol,
                   "contact point %d (%.17g, %.17g) is %.3g from A and %.3g from B, depth %.17g (tol %.3g)", i,
                   c->points[i].x, c->points[i].y, da, db, c->depth, tol);
    }
    /* The minimum translation really separates: B moved by depth along the normal touches A. */
    tu_geom moved = *gb;
    tu_geom_translate(&moved, tu_scale(c->normal, c->depth));
    double after = oracle_sd(ga, &moved);
    CHECK_PAIR(fabs(after) <= tol, "B moved by depth %.17g along (%.17g, %.17g) is %.17g from A (tol %.3g)", c->depth,
               c->normal.x, c->normal.y, after, tol);
    return 1;
}

/* Every pair query on (a, b) and (b, a), against the oracle on the placed geometry. */
static int check_contact_truth(const c2d_shape *a, const c2d_shape *b)
{
    tu_geom ga = geom_of(a), gb = geom_of(b);
    double tol = TIGHT * fmax(geom_mag(&ga), geom_mag(&gb));
    double sd = oracle_sd(&ga, &gb);
    int o1 = -1, o2 = -1;
    c2d_contact c1, c2;
    c2d_distance_result d1, d2;
    CHECK_PAIR(c2d_overlap(a, b, &o1) == C2D_OK && c2d_overlap(b, a, &o2) == C2D_OK, "overlap failed");
    CHECK_PAIR(c2d_collide(a, b, &c1) == C2D_OK && c2d_collide(b, a, &c2) == C2D_OK, "collide failed");
    CHECK_PAIR(c2d_distance(a, b, &d1) == C2D_OK && c2d_distance(b, a, &d2) == C2D_OK, "distance failed");
    CHECK_PAIR(o1 == o2, "overlap %d one way, %d the other", o1, o2);
    CHECK_PAIR(o1 == (c1.count > 0) && o2 == (c2.count > 0), "overlap %d but contact counts %d and %d", o1, c1.count,
               c2.count);
    if (!check_one_contact(a, b, &ga, &gb, &c1, sd, tol) || !check_one_contact(b, a, &gb, &ga, &c2, sd, tol))
        return 0;
    if (c1.count > 0)
        CHECK_PAIR(fabs(c1.depth - c2.depth) <= tol, "depth %.17g one way, %.17g the other", c1.depth, c2.depth);
    CHECK_PAIR(fabs(d1.distance - sd) <= tol && fabs(d2.distance - sd) <= tol,
               "distance %.17g and %.17g, oracle %.17g (tol %.3g)", d1.distance, d2.distance, sd, tol);
    return 1;
}

/* Issue 15's case: two segments sharing an end point touch at depth 0, not -5.6e-17. */
TEST(segments_sharing_an_end_point_touch_at_depth_zero)
{
    c2d_vec2 p = tu_v(-0.26261770970309983, 0.70244647455515641), q = tu_v(-0.48912649484776261, -0.38333934982462758),
             r = tu_v(0.91810472771437124, -0.85569409553692399);
    c2d_shape *a, *b;
    ENSURE_OK(c2d_segment_new(p, q, &a));
    ENSURE_OK(c2d_segment_new(q, r, &b));
    c2d_contact c;
    ENSURE_OK(c2d_collide(a, b, &c));
    int ok = c.count == 1 && c.depth == 0;
    double depth = c.depth;
    ENSURE_OK(c2d_collide(b, a, &c));
    ok = ok && c.count == 1 && c.depth == 0;
    int truth = check_contact_truth(a, b);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    ENSURE_MSG(ok, "depth %.17g and %.17g, want exactly 0 both ways", depth, c.depth);
    ENSURE(truth);
}

/* The incident edge of a contact is the one whose normal opposes the reference face's most. This
 * polygon's left side is three edges turning by a few 1e-12 rad (kept: above the nearly-straight
 * sine of 1e-12), whose normals' products with the capsule's closest-feature direction agree to the
 * last bit: the tie went to the first, at the bottom, which misses the capsule's face, and its end
 * became the contact point, 99 units off the capsule (depth 56). Present before issue 22. */
TEST(a_capsule_beside_a_side_of_nearly_parallel_edges_gets_its_contact_on_both_surfaces)
{
    c2d_vec2 p[6] = {{-1.6558778668865434e-11, -83.68039060004125}, {5.5185530266056818e-12, -89.692376790463399},
                     {50, -89.692376790463399},                      {50, 86.322216827617581},
                     {1.1394818930760327e-11, 86.322216827617581},   {-3.0093635686822765e-11, 79.668230644115155}};
    c2d_shape *cap = NULL, *poly = NULL;
    ENSURE_OK(c2d_capsule_new(tu_v(-15.297745704758956, 170.22759187399285), tu_v(-15.297745704758956, 81.248216729098502),
                              71.354346194307738, &cap));
    ENSURE_OK(c2d_polygon_new(p, 6, &poly));
    int ok = check_contact_truth(cap, poly);
    c2d_shape_destroy(cap);
    c2d_shape_destroy(poly);
    ENSURE(ok);
}

static void run_shared_features(int ka, int kb)
{
    long iters = c2d_test_iterations(40000), touching = 0;
    for (long i = 0; i < iters; i++) {
        scene sc = random_scene();
        c2d_shape *a = NULL, *b = NULL;
        ENSURE_OK(make_shape(ka, &sc, tu_v(0, 0), &a));
        c2d_vec2 edge, f = feature_point(a, &edge);
        c2d_status st = make_sharing(kb, &sc, f, edge, &b);
        int ok = 1;
        if (st == C2D_OK) {
            ok = check_contact_truth(a, b);
            tu_geom ga = geom_of(a), gb = geom_of(b);
            touching += fabs(oracle_sd(&ga, &gb)) <= TIGHT * geom_mag(&ga);
        } else {
            /* Only a degenerate B (a sliver that rounded flat) may be refused. */
            ok = st == C2D_ERR_DEGENERATE;
            if (!ok)
                c2d_test_fail(__FILE__, __LINE__, "a %s sharing (%.17g, %.17g) was refused: %s", tu_kind_name(kb),
                              f.x, f.y, c2d_status_string(st));
        }
        c2d_shape_destroy(a);
        c2d_shape_destroy(b);
        if (!ok)
            return;
    }
    /* Shapes of radius 0 sharing a vertex touch or cross there: the families must really produce
     * touching pairs, or they test nothing degenerate. (A rounded shape only shares a point.) */
    if (ka != TU_CIRCLE && ka != TU_CAPSULE && kb != TU_CIRCLE && kb != TU_CAPSULE)
        ENSURE_MSG(touching > iters / 20, "only %ld of %ld pairs touch", touching, iters);
}

#define SHARED_TEST(ka, kb, name)                                                                          \
    TEST(name##_sharing_a_feature_obey_the_contact_properties) { run_shared_features(ka, kb); }

SHARED_TEST(TU_CIRCLE, TU_CIRCLE, circle_circle)
SHARED_TEST(TU_CIRCLE, TU_RECT, circle_rect)
SHARED_TEST(TU_CIRCLE, TU_POLYGON, circle_polygon)
SHARED_TEST(TU_CIRCLE, TU_CAPSULE, circle_capsule)
SHARED_TEST(TU_CIRCLE, TU_SEGMENT, circle_segment)
SHARED_TEST(TU_RECT, TU_CIRCLE, rect_circle)
SHARED_TEST(TU_RECT, TU_RECT, rect_rect)
SHARED_TEST(TU_RECT, TU_POLYGON, rect_polygon)
SHARED_TEST(TU_RECT, TU_CAPSULE, rect_capsule)
SHARED_TEST(TU_RECT, TU_SEGMENT, rect_segment)
SHARED_TEST(TU_POLYGON, TU_CIRCLE, polygon_circle)
SHARED_TEST(TU_POLYGON, TU_RECT, polygon_rect)
SHARED_TEST(TU_POLYGON, TU_POLYGON, polygon_polygon)
SHARED_TEST(TU_POLYGON, TU_CAPSULE, polygon_capsule)
SHARED_TEST(TU_POLYGON, TU_SEGMENT, polygon_segment)
SHARED_TEST(TU_CAPSULE, TU_CIRCLE, capsule_circle)
SHARED_TEST(TU_CAPSULE, TU_RECT, capsule_rect)
SHARED_TEST(TU_CAPSULE, TU_POLYGON, capsule_polygon)
SHARED_TEST(TU_CAPSULE, TU_CAPSULE, capsule_capsule)
SHARED_TEST(TU_CAPSULE, TU_SEGMENT, capsule_segment)
SHARED_TEST(TU_SEGMENT, TU_CIRCLE, segment_circle)
SHARED_TEST(TU_SEGMENT, TU_RECT, segment_rect)
SHARED_TEST(TU_SEGMENT, TU_POLYGON, segment_polygon)
SHARED_TEST(TU_SEGMENT, TU_CAPSULE, segment_capsule)
SHARED_TEST(TU_SEGMENT, TU_SEGMENT, segment_segment)

/* ---- rays through vertices, along edges, from edges --------------------------------------------- */

#define FAIL_RAY(...)                                                                                      \
    do {                                                                                               \
        c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                                                \
        printf("  ray: origin {%.17g, %.17g}, direction {%.17g, %.17g}, max_t %.17g\n", o.x, o.y, d.x, d.y,   \
               max_t);                                                                                 \
        printf("  answer: hit %d, t %.17g, point {%.17g, %.17g}, normal {%.17g, %.17g}\n", h.hit, h.t,      \
               h.point.x, h.point.y, h.normal.x, h.normal.y);                                          \
        print_shape("shape", s);                                                                       \
        mpq_clear(te);                                                                                 \
        return 0;                                                                                      \
    } while (0)
#define CHECK_RAY(cond, ...)                                                                               \
    do {                                                                                               \
        if (!(cond))                                                                                   \
            FAIL_RAY(__VA_ARGS__);                                                                     \
    } while (0)

/* Oracle signed distance from the stretch of the ray between parameters 0 and t to the shape:
 * negative when that stretch enters it. */
static double stretch_distance(const tu_geom *g, c2d_vec2 o, c2d_vec2 d, double t)
{
    tu_geom seg;
    memset(&seg, 0, sizeof seg);
    seg.kind = TU_SEGMENT;
    seg.n = 2;
    seg.v[0] = o;
    seg.v[1] = tu_add(o, tu_scale(d, t));
    if (seg.v[1].x == o.x && seg.v[1].y == o.y)
        seg.n = 1;
    return oracle_sd(&seg, g);
}

/* All ray properties for one ray, and for a segment the exact answer. */
static int check_ray_truth(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t)
{
    c2d_ray_hit h;
    memset(&h, 0, sizeof h);
    mpq_t te;
    mpq_init(te);
    tu_geom g = geom_of(s);
    double dl = hypot(d.x, d.y); /* not tu_len: the square of a tiny direction underflows */
    /* The far end of the stretch checked for a miss: beyond the shape whatever the direction. */
    double reach = (tu_len(o) + geom_mag(&g)) * 4 / dl;
    /* t past DBL_MAX is no t to report: the check stops there (a tiny direction reaches only so far). */
    double t_end = fmin(fmin(max_t, reach), DBL_MAX);
    double mag = fmax(geom_mag(&g), fmax(fabs(o.x), fabs(o.y)));
    double tol = TIGHT * fmax(mag, fmax(fabs(o.x + t_end * d.x), fabs(o.y + t_end * d.y)));
    CHECK_RAY(c2d_raycast(s, o, d, max_t, &h) == C2D_OK, "raycast failed");
    CHECK_RAY(h.hit == 0 || h.hit == 1, "hit %d", h.hit);
    if (!h.hit) {
        CHECK_RAY(h.t == 0 && h.point.x == 0 && h.point.y == 0 && h.normal.x == 0 && h.normal.y == 0,
                  "a miss must zero the other fields");
        double sdr = stretch_distance(&g, o, d, t_end);
        CHECK_RAY(sdr >= -tol, "a miss, but the ray passes %.3g inside the shape (tol %.3g)", -sdr, tol);
    } else {
        CHECK_RAY(h.t >= 0 && h.t <= max_t && isfinite(h.t), "t %.17g outside [0, max_t]", h.t);
        c2d_vec2 on_ray = tu_add(o, tu_scale(d, h.t));
        CHECK_RAY(fabs(on_ray.x - h.point.x) <= tol && fabs(on_ray.y - h.point.y) <= tol,
                  "hit point is not origin + t * direction (%.17g, %.17g)", on_ray.x, on_ray.y);
        CHECK_RAY(fabs(tu_len(h.normal) - 1) <= 1e-12, "normal not unit");
        CHECK_RAY(tu_dot(h.normal, d) <= 1e-12 * dl, "normal does not face the ray");
        double sdp = tu_point_distance(&g, h.point), lib_sd = 0;
        CHECK_RAY(c2d_closest_point(s, h.point, NULL, &lib_sd) == C2D_OK, "closest_point failed");
        if (h.t > 0) {
            CHECK_RAY(fabs(sdp) <= tol && fabs(lib_sd) <= tol,
                      "hit point is off the boundary: %.3g by the oracle, %.3g by c2d_closest_point (tol %.3g)", sdp,
                      lib_sd, tol);
            double sdr = stretch_distance(&g, o, d, h.t);
            CHECK_RAY(sdr >= -tol, "the ray enters the shape (by %.3g) before the hit it reports (tol %.3g)", -sdr,
                      tol);
        } else {
            CHECK_RAY(sdp <= tol, "hit at t = 0, but the origin is %.3g outside (tol %.3g)", sdp, tol);
        }
    }
    /* The exact answers. */
    int end = -1;
    if (g.kind == TU_SEGMENT) {
        int how = ex_ray_segment(o, d, g.v[0], g.v[1], te, &end);
        /* With a finite max_t, a crossing within rounding of it may go either way. */
        int at_end = how != EX_MISS && isfinite(max_t) && ex_abs_diff(max_t, te) * dl <= tol;
        int want = how != EX_MISS && (!isfinite(max_t) || ex_cmp_d(te, max_t) <= 0);
        if (!at_end)
            CHECK_RAY(h.hit == want, "hit %d, exact answer %d (case %d, exact t %.17g)", h.hit, want, how,
                      mpq_get_d(te));
        if (h.hit && want) {
            double et = mpq_get_d(te);
            if (how == EX_END_A || how == EX_END_B || how == EX_COLLINEAR) {
                c2d_vec2 e = g.v[how == EX_END_A || (how == EX_COLLINEAR && end == 0) ? 0 : 1];
                CHECK_RAY(tu_same_vec(h.point, e), "the ray passes exactly through the end (%.17g, %.17g)", e.x, e.y);
                CHECK_RAY(fabs(h.t - et) <= 8 * DBL_EPSILON * et, "t %.17g, exact %.17g", h.t, et);
            } else if (how == EX_ORIGIN) {
                CHECK_RAY(h.t == 0 && tu_same_vec(h.point, o), "the origin is on the segment: t must be 0");
            } else {
                /* Through the inside: the crossing is rounded along the segment by up to ulp / sin. */
                c2d_vec2 e = tu_sub(g.v[1], g.v[0]);
                double el = hypot(e.x, e.y);
                double sine = fabs(tu_cross(tu_v(d.x / dl, d.y / dl), tu_v(e.x / el, e.y / el)));
                CHECK_RAY(ex_abs_diff(h.t, te) * dl <= tol / sine, "t %.17g, exact %.17g (sine %.3g)", h.t, et, sine);
            }
        }
    }
    mpq_clear(te);
    return 1;
}

/* The rays of issue 15: the first two pass exactly through a segment's end, the third misses it. */
TEST(rays_through_a_segment_end_hit_it_exactly_and_near_misses_miss)
{
    static const double cases[3][9] = {
        {-4, -3, 14, -8, -16, 0, 30, -8, INFINITY},
        {10, 10, -9, -12, 4, 3, -13, -15, INFINITY},
        {-5048.7618922975817, -937.98770683009343, -7954.958508350388, -226.79231842813647, -6324.0788762795719,
         -629.06220246931969, -65474.871280521038, 16149.915885688688, 0.0087975202470321513},
    };
    for (int i = 0; i < 3; i++) {
        const double *k = cases[i];
        c2d_shape *s;
        c2d_ray_hit h;
        ENSURE_OK(c2d_segment_new(tu_v(k[0], k[1]), tu_v(k[2], k[3]), &s));
        c2d_status st = c2d_raycast(s, tu_v(k[4], k[5]), tu_v(k[6], k[7]), k[8], &h);
        int truth = check_ray_truth(s, tu_v(k[4], k[5]), tu_v(k[6], k[7]), k[8]);
        c2d_shape_destroy(s);
        ENSURE(st == C2D_OK && truth);
        if (i < 2)
            ENSURE_MSG(h.hit && h.t == 1 && h.point.x == k[2] && h.point.y == k[3],
                       "case %d: hit %d at t %.17g (%.17g, %.17g), want t = 1 at the end", i, h.hit, h.t, h.point.x,
                       h.point.y);
        else
            ENSURE_MSG(!h.hit, "case 2: hit at t %.17g", h.t);
    }
}

/* A ray at a feature of the shape: through a vertex (or within an ulp of it), along an edge's line,
 * out of or into the shape from a point on its boundary, or grazing it; bounded at the feature now
 * and then, so that the hit falls at the very end of the ray. */
static void random_feature_ray(const c2d_shape *s, double k, c2d_vec2 *o, c2d_vec2 *d, double *max_t)
{
    c2d_vec2 edge, f = feature_point(s, &edge);
    *max_t = INFINITY;
    switch (c2d_test_rand() % 5) {
    case 0:
    case 1: { /* from afar through the feature */
        double far = k * c2d_test_uniform(0.1, 5);
        *o = tu_add(f, tu_scale(random_dir(), far));
        *d = tu_scale(tu_sub(f, *o), c2d_test_uniform(0.2, 4));
        if (c2d_test_rand() % 4 == 0)
            *d = tu_sub(f, *o), *max_t = 1;
        break;
    }
    case 2: /* along the edge's line */
        if (edge.x != 0 || edge.y != 0) {
            *o = tu_sub(f, tu_scale(edge, c2d_test_uniform(-1, 3)));
            *d = tu_scale(edge, c2d_test_rand() % 2 ? 1 : -1);
            break;
        }
        /* fall through */
    case 3: /* starting on the feature */
        *o = f;
        *d = random_dir();
        break;
    default: { /* grazing: parallel to the edge, an ulp or so beside it */
        c2d_vec2 e = edge.x != 0 || edge.y != 0 ? edge : random_dir();
        double sign = c2d_test_rand() % 2 ? 1 : -1;
        c2d_vec2 side = tu_scale(tu_v(-e.y, e.x),
                                 sign * c2d_test_uniform(0, 4) * DBL_EPSILON * fmax(fabs(f.x), fabs(f.y)) / tu_len(e));
        *o = tu_add(tu_sub(f, tu_scale(e, 2)), side);
        *d = e;
        break;
    }
    }
    if (d->x == 0 && d->y == 0)
        *d = tu_v(1, 0);
    if (c2d_test_rand() % 16 == 0) {
        /* The same ray with a subnormal or a huge direction vector: only t's scale may change. */
        /* 2^-990: a direction whose squared length underflows, while t stays in double range for
         * every distance in these scenes (a hit farther than DBL_MAX * |d| is no hit to report). */
        int e = c2d_test_rand() % 2 ? -990 : 20;
        *d = tu_v(ldexp(d->x, e), ldexp(d->y, e));
        if (d->x == 0 && d->y == 0)
            *d = tu_v(ldexp(1.0, e), 0);
        *max_t = isfinite(*max_t) ? ldexp(*max_t, -e) : *max_t;
    }
}

static void run_feature_rays(int kind)
{
    long iters = c2d_test_iterations(200000), hits = 0;
    for (long i = 0; i < iters; i++) {
        scene sc = random_scene();
        c2d_shape *s = NULL;
        ENSURE_OK(make_shape(kind, &sc, tu_v(0, 0), &s));
        c2d_vec2 o, d;
        double max_t;
        random_feature_ray(s, sc.k, &o, &d, &max_t);
        c2d_ray_hit h;
        c2d_raycast(s, o, d, max_t, &h);
        hits += h.hit;
        int ok = check_ray_truth(s, o, d, max_t);
        c2d_shape_destroy(s);
        if (!ok)
            return;
    }
    ENSURE_MSG(hits > iters / 100 && hits < iters - iters / 100, "%ld of %ld rays hit: retune the draw", hits, iters);
}

TEST(rays_at_features_of_circles_obey_the_ray_properties) { run_feature_rays(TU_CIRCLE); }
TEST(rays_at_features_of_rects_obey_the_ray_properties) { run_feature_rays(TU_RECT); }
TEST(rays_at_features_of_polygons_obey_the_ray_properties) { run_feature_rays(TU_POLYGON); }
TEST(rays_at_features_of_capsules_obey_the_ray_properties) { run_feature_rays(TU_CAPSULE); }
TEST(rays_at_features_of_segments_give_the_exact_answer) { run_feature_rays(TU_SEGMENT); }

/* Random rays too (every kind), through the same checks: properties that hold for any input. */
TEST(random_rays_of_every_kind_obey_the_ray_properties)
{
    long iters = c2d_test_iterations(40000);
    for (int kind = 0; kind < TU_KINDS; kind++)
        for (long i = 0; i < iters; i++) {
            scene sc = random_scene();
            c2d_shape *s = NULL;
            ENSURE_OK(make_shape(kind, &sc, tu_v(0, 0), &s));
            c2d_vec2 o = place(&sc, tu_random_point(6));
            double len = sc.k * c2d_test_uniform(0.1, 3);
            c2d_vec2 d = tu_scale(random_dir(), len);
            double max_t = c2d_test_rand() % 2 ? INFINITY : c2d_test_uniform(0, 8) / sc.k;
            int ok = check_ray_truth(s, o, d, max_t);
            c2d_shape_destroy(s);
            if (!ok)
                return;
        }
}

/* ---- points on segments ------------------------------------------------------------------------- */

/* A segment contains exactly the points exact arithmetic puts on it: its ends, points an ulp off them
 * or off its line, grid points on integer segments. */
TEST(segment_contains_exactly_the_points_on_it)
{
    long iters = c2d_test_iterations(200000), on = 0;
    for (long i = 0; i < iters; i++) {
        c2d_vec2 a, b, p;
        if (c2d_test_rand() % 2) {
            /* Integer segment and a point of it at a whole step, or next to it. */
            long dx = (long)(c2d_test_rand() % 7) - 3, dy = (long)(c2d_test_rand() % 7) - 3, m = 1 + (long)(c2d_test_rand() % 4);
            if (dx == 0 && dy == 0)
                dx = 1;
            long ay = (long)(c2d_test_rand() % 2001) - 1000, ax = (long)(c2d_test_rand() % 2001) - 1000;
            a = tu_v((double)ax, (double)ay);
            b = tu_add(a, tu_v((double)(dx * m), (double)(dy * m)));
            long j = (long)(c2d_test_rand() % (unsigned long)(m + 3)) - 1;
            p = tu_add(a, tu_v((double)(dx * j), (double)(dy * j)));
            if (c2d_test_rand() % 3 == 0)
                p.x = nextafter(p.x, c2d_test_rand() % 2 ? INFINITY : -INFINITY);
        } else {
            scene sc = random_scene();
            a = place(&sc, tu_random_point(2));
            b = place(&sc, tu_random_point(2));
            if (a.x == b.x && a.y == b.y)
                continue;
            p = tu_add(a, tu_scale(tu_sub(b, a), c2d_test_uniform(-0.2, 1.2)));
            if (c2d_test_rand() % 3 == 0)
                p = c2d_test_rand() % 2 ? a : b;
        }
        c2d_shape *s;
        ENSURE_OK(c2d_segment_new(a, b, &s));
        tu_geom g = geom_of(s);
        int in = -1;
        c2d_status st = c2d_contains_point(s, p, &in);
        c2d_shape_destroy(s);
        int want = ex_on_segment(p, g.v[0], g.v[1]);
        on += want;
        ENSURE_MSG(st == C2D_OK && in == want, "segment (%.17g, %.17g)-(%.17g, %.17g), point (%.17g, %.17g): %d, exact %d",
                   g.v[0].x, g.v[0].y, g.v[1].x, g.v[1].y, p.x, p.y, in, want);
    }
    ENSURE_MSG(on > iters / 10, "only %ld points on their segments", on);
}

/* ---- points at features ------------------------------------------------------------------------- */

/* Points on vertices, edges and rounded surfaces (or an ulp off them): containment agrees with the
 * oracle wherever the point is clear of the boundary by more than rounding (and with the exact answer
 * for a segment, always), and the closest point lies on the boundary at the oracle's distance. */
static void run_feature_points(int kind)
{
    long iters = c2d_test_iterations(200000);
    for (long i = 0; i < iters; i++) {
        scene sc = random_scene();
        c2d_shape *s = NULL;
        ENSURE_OK(make_shape(kind, &sc, tu_v(0, 0), &s));
        c2d_vec2 edge, p = feature_point(s, &edge);
        if (c2d_test_rand() % 4 == 0) {
            double off = sc.k * pow(10.0, c2d_test_uniform(-16, -6));
            p = tu_add(p, tu_scale(random_dir(), off));
        }
        tu_geom g = geom_of(s);
        double tol = TIGHT * fmax(geom_mag(&g), fmax(fabs(p.x), fabs(p.y)));
        double sd = tu_point_distance(&g, p), d = NAN;
        int in = -1;
        c2d_vec2 q = tu_v(NAN, NAN);
        c2d_status st1 = c2d_contains_point(s, p, &in), st2 = c2d_closest_point(s, p, &q, &d);
        int want = kind == TU_SEGMENT ? ex_on_segment(p, g.v[0], g.v[1]) : sd < 0;
        int ok = st1 == C2D_OK && st2 == C2D_OK && (in == want || (kind != TU_SEGMENT && fabs(sd) <= tol)) &&
                 fabs(d - sd) <= tol && fabs(tu_point_distance(&g, q)) <= tol && fabs(tu_len(tu_sub(q, p)) - fabs(sd)) <= tol;
        if (!ok) {
            c2d_test_fail(__FILE__, __LINE__,
                          "point (%.17g, %.17g): contains %d (want %d), closest (%.17g, %.17g) at %.17g, oracle %.17g "
                          "(tol %.3g)",
                          p.x, p.y, in, want, q.x, q.y, d, sd, tol);
            print_shape("shape", s);
        }
        c2d_shape_destroy(s);
        if (!ok)
            return;
    }
}

TEST(points_at_features_of_circles_answer_contains_and_closest_point_truly) { run_feature_points(TU_CIRCLE); }
TEST(points_at_features_of_rects_answer_contains_and_closest_point_truly) { run_feature_points(TU_RECT); }
TEST(points_at_features_of_polygons_answer_contains_and_closest_point_truly) { run_feature_points(TU_POLYGON); }
TEST(points_at_features_of_capsules_answer_contains_and_closest_point_truly) { run_feature_points(TU_CAPSULE); }
TEST(points_at_features_of_segments_answer_contains_exactly) { run_feature_points(TU_SEGMENT); }

/* ---- slivers (issue 22) ------------------------------------------------------------------------------- */

/* A convex polygon 10^-u as thick as it is long, u from 12 to 15.5: thinner than the 1e-12 area
 * tolerance that c2d_polygon_new applied until issue 22 (it accepts every polygon whose points are not
 * all on one line now). Sizes and places as make_shape's. Two families:
 *  - built exactly along the x axis and then turned and placed by c2d_shape_set_transform: a triangle
 *    or trapezoid of length L and height L 10^-u, convex as given (c2d_polygon_new);
 *  - convex points squashed across a random axis and placed in the scene, which rounds them: their
 *    hull (c2d_hull_new), refused only for points exactly on one line.
 * *thickness gets the squash's relative thickness. */
static c2d_status make_sliver(const scene *sc, c2d_vec2 c, c2d_shape **out, int *collinear)
{
    double u = c2d_test_uniform(12, 15.5), t = pow(10.0, -u);
    c2d_vec2 p[TU_MAXV];
    int n;
    *collinear = 0;
    if (c2d_test_rand() % 2) {
        double len = sc->k * c2d_test_uniform(0.5, 3), h = len * t;
        double a = c2d_test_uniform(0, 1), b = c2d_test_uniform(0, 1);
        n = c2d_test_rand() % 2 ? 3 : 4;
        p[0] = tu_v(0, 0), p[1] = tu_v(len, 0);
        if (n == 3)
            p[2] = tu_v(len * a, h);
        else
            p[2] = tu_v(len * fmax(a, b), h), p[3] = tu_v(len * fmin(a, b), h);
        if (n == 4 && p[2].x == p[3].x)
            n = 3;
        c2d_status st = c2d_polygon_new(p, n, out);
        if (st != C2D_OK)
            return st;
        double angle = c2d_test_rand() % 4 == 0 ? 0.0 : c2d_test_uniform(-TU_PI, TU_PI);
        return c2d_shape_set_transform(*out, place(sc, c), angle);
    }
    n = tu_random_convex_points(3 + (int)(c2d_test_rand() % 6), tu_v(0, 0), p);
    c2d_vec2 ax = random_dir();
    for (int i = 0; i < n; i++) {
        p[i] = tu_add(p[i], tu_scale(ax, -tu_dot(p[i], ax) * (1 - t)));
        p[i] = place(sc, tu_add(c, p[i]));
    }
    *collinear = 1;
    for (int i = 2; i < n && *collinear; i++)
        *collinear = ex_orient(p[0], p[1], p[i]) == 0 && !(p[0].x == p[1].x && p[0].y == p[1].y);
    return c2d_hull_new(p, n, out);
}

/* make_shape's scenes, and one in four far larger (sizes up to 1e12, up to 1e14 from the origin), where
 * the slivers live. */
static scene sliver_scene(void)
{
    if (c2d_test_rand() % 4)
        return random_scene();
    scene sc;
    sc.k = pow(10.0, c2d_test_uniform(4, 12));
    sc.off = c2d_test_rand() % 2 ? tu_v(0, 0) : tu_scale(tu_random_point(100), sc.k);
    return sc;
}

/* A sliver, or the test fails: refused only for points exactly on one line (then *out is NULL). */
#define MAKE_SLIVER(sc, c, s)                                                                            \
    do {                                                                                               \
        int collinear_;                                                                                \
        c2d_status st_ = make_sliver(sc, c, &(s), &collinear_);                                        \
        ENSURE_MSG(st_ == C2D_OK || (st_ == C2D_ERR_DEGENERATE && collinear_), "a sliver was refused: %s", \
                   c2d_status_string(st_));                                                            \
        if (st_ != C2D_OK)                                                                             \
            s = NULL;                                                                                  \
    } while (0)

/* Every pair query between a sliver and a shape of each kind nearby (and another sliver), both ways:
 * overlap, contact and distance agree with each other and with the oracle on the placed geometry,
 * depths are >= 0 and the push leaves the shapes touching (check_contact_truth). */
TEST(slivers_against_every_kind_obey_the_contact_properties)
{
    long iters = c2d_test_iterations(6000), made = 0, overlapping = 0;
    for (long i = 0; i < iters; i++)
        for (int kind = 0; kind <= TU_KINDS; kind++) {
            scene sc = sliver_scene();
            c2d_shape *a = NULL, *b = NULL;
            MAKE_SLIVER(&sc, tu_v(0, 0), a);
            if (!a)
                continue;
            c2d_vec2 c = tu_random_point(2);
            if (kind == TU_KINDS) {
                MAKE_SLIVER(&sc, c, b);
                if (!b) {
                    c2d_shape_destroy(a);
                    continue;
                }
            } else {
                c2d_status st = make_shape(kind, &sc, c, &b);
                if (st != C2D_OK) {
                    c2d_shape_destroy(a);
                    ENSURE_MSG(st == C2D_ERR_DEGENERATE, "%s refused: %s", tu_kind_name(kind), c2d_status_string(st));
                    continue;
                }
            }
            made++;
            int o = 0;
            c2d_overlap(a, b, &o);
            overlapping += o;
            int ok = check_contact_truth(a, b);
            c2d_shape_destroy(a);
            c2d_shape_destroy(b);
            if (!ok)
                return;
        }
    ENSURE_MSG(made > iters * TU_KINDS, "only %ld slivers made", made);
    ENSURE_MSG(overlapping > made / 20 && overlapping < made - made / 20, "%ld of %ld pairs overlap: retune the draw",
               overlapping, made);
}

/* Rays at a sliver's features and from anywhere: the hit is on its boundary, the ray does not enter it
 * before, and a miss misses (check_ray_truth). */
TEST(rays_at_slivers_obey_the_ray_properties)
{
    long iters = c2d_test_iterations(40000), hits = 0;
    for (long i = 0; i < iters; i++) {
        scene sc = sliver_scene();
        c2d_shape *s = NULL;
        MAKE_SLIVER(&sc, tu_v(0, 0), s);
        if (!s)
            continue;
        c2d_vec2 o, d;
        double max_t;
        if (i % 2) {
            random_feature_ray(s, sc.k, &o, &d, &max_t);
        } else {
            o = place(&sc, tu_random_point(6));
            double len = sc.k * c2d_test_uniform(0.1, 3);
            d = tu_scale(random_dir(), len);
            max_t = c2d_test_rand() % 2 ? INFINITY : c2d_test_uniform(0, 8) / sc.k;
        }
        if (fmax(fabs(d.x), fabs(d.y)) > C2D_MAX_COORDINATE) {
            /* The feature rays scale a direction up by 2^20 now and then: past the range in the far
             * scenes, which c2d_raycast rightly refuses. */
            c2d_shape_destroy(s);
            continue;
        }
        c2d_ray_hit h;
        c2d_raycast(s, o, d, max_t, &h);
        hits += h.hit;
        int ok = check_ray_truth(s, o, d, max_t);
        c2d_shape_destroy(s);
        if (!ok)
            return;
    }
    ENSURE_MSG(hits > iters / 100, "%ld of %ld rays hit: retune the draw", hits, iters);
}

/* Points at a sliver's features: contains agrees with the oracle away from the boundary, and the
 * closest point lies on the boundary at the oracle's distance. */
TEST(points_at_slivers_answer_contains_and_closest_point_truly)
{
    long iters = c2d_test_iterations(40000);
    for (long i = 0; i < iters; i++) {
        scene sc = sliver_scene();
        c2d_shape *s = NULL;
        MAKE_SLIVER(&sc, tu_v(0, 0), s);
        if (!s)
            continue;
        c2d_vec2 edge, p = feature_point(s, &edge);
        if (c2d_test_rand() % 4 == 0) {
            double off = sc.k * pow(10.0, c2d_test_uniform(-16, -6));
            p = tu_add(p, tu_scale(random_dir(), off));
        }
        tu_geom g = geom_of(s);
        double tol = TIGHT * fmax(geom_mag(&g), fmax(fabs(p.x), fabs(p.y)));
        double sd = tu_point_distance(&g, p), d = NAN;
        int in = -1;
        c2d_vec2 q = tu_v(NAN, NAN), pos;
        c2d_status st1 = c2d_contains_point(s, p, &in), st2 = c2d_closest_point(s, p, &q, &d);
        c2d_shape_get_position(s, &pos);
        int ok = st1 == C2D_OK && st2 == C2D_OK && (in == (sd < 0) || fabs(sd) <= tol) && fabs(d - sd) <= tol &&
                 fabs(tu_point_distance(&g, q)) <= tol && fabs(tu_len(tu_sub(q, p)) - fabs(sd)) <= tol &&
                 tu_point_distance(&g, pos) <= tol;
        if (!ok) {
            c2d_test_fail(__FILE__, __LINE__,
                          "point (%.17g, %.17g): contains %d, closest (%.17g, %.17g) at %.17g, oracle %.17g (tol %.3g); "
                          "position (%.17g, %.17g) %.3g from the sliver",
                          p.x, p.y, in, q.x, q.y, d, sd, tol, pos.x, pos.y, tu_point_distance(&g, pos));
            print_shape("sliver", s);
        }
        c2d_shape_destroy(s);
        if (!ok)
            return;
    }
}

/* The oracle's signed distance of a and b with b's geometry moved by d. */
static double sd_moved(const tu_geom *a, const tu_geom *b, c2d_vec2 d)
{
    tu_geom m = *b;
    tu_geom_translate(&m, d);
    return oracle_sd(a, &m);
}

/* c2d_sweep of a shape of each kind (and of another sliver) against a sliver, either moving, in both
 * argument orders: a hit touches at t and overlaps at none of 8 earlier times, none overlaps at none
 * of 9 times, an overlap overlaps at t = 0 with its depth; the swapped call agrees on the state. The
 * sliver moving through a static set that holds the other shape (c2d_static_set_sweep) obeys the same
 * hit and miss properties. */
TEST(sweeps_against_slivers_obey_the_sweep_properties)
{
    long iters = c2d_test_iterations(4000), hits = 0;
    for (long i = 0; i < iters; i++)
        for (int kind = 0; kind <= TU_KINDS; kind++) {
            scene sc = sliver_scene();
            c2d_shape *a = NULL, *b = NULL;
            MAKE_SLIVER(&sc, tu_v(0, 0), a);
            if (!a)
                continue;
            c2d_vec2 c = tu_add(tu_random_point(2), tu_v(-4, 0));
            if (kind == TU_KINDS) {
                MAKE_SLIVER(&sc, c, b);
            } else if (make_shape(kind, &sc, c, &b) != C2D_OK) {
                b = NULL;
            }
            if (!b) {
                c2d_shape_destroy(a);
                continue;
            }
            /* B moves towards A and past it (A moves too, now and then). */
            c2d_vec2 db = tu_scale(tu_random_vec(2, 10, -3, 3), sc.k);
            c2d_vec2 da = c2d_test_rand() % 3 ? tu_v(0, 0) : tu_scale(tu_random_point(3), sc.k);
            c2d_vec2 rel = tu_sub(db, da);
            tu_geom ga = geom_of(a), gb = geom_of(b);
            double tol = TIGHT * fmax(fmax(geom_mag(&ga), geom_mag(&gb)) + tu_len(da) + tu_len(db), 1e-300);
            c2d_toi t1, t2;
            int ok = c2d_sweep(a, da, b, db, &t1) == C2D_OK && c2d_sweep(b, db, a, da, &t2) == C2D_OK;
            const char *why = ok ? NULL : "sweep failed";
            if (ok && t1.state == C2D_TOI_HIT) {
                hits++;
                if (fabs(sd_moved(&ga, &gb, tu_scale(rel, t1.t))) > tol)
                    why = "a hit where the shapes do not touch";
                for (int s = 0; s < 8 && !why; s++)
                    if (sd_moved(&ga, &gb, tu_scale(rel, t1.t * s / 8)) < -tol)
                        why = "the shapes overlap before the hit";
            } else if (ok && t1.state == C2D_TOI_NONE) {
                for (int s = 0; s <= 8 && !why; s++)
                    if (sd_moved(&ga, &gb, tu_scale(rel, s / 8.0)) < -tol)
                        why = "no hit, but the shapes overlap on the way";
            } else if (ok) {
                double sd0 = oracle_sd(&ga, &gb);
                if (sd0 > tol || fabs(t1.depth + fmin(sd0, 0)) > tol)
                    why = "an overlap at t = 0 of the wrong depth";
            }
            if (!why && t1.state != t2.state && !(t1.state == C2D_TOI_HIT && t1.t == 0) &&
                !(t2.state == C2D_TOI_HIT && t2.t == 0))
                why = "the swapped sweep disagrees";
            /* The sliver as the mover of a static set's sweep, against B in the set, by the same
             * relative motion: a hit touches and nothing overlaps before it; none meets nothing. */
            c2d_static_set *set = NULL;
            c2d_toi t3;
            int index = -2;
            memset(&t3, 0, sizeof t3);
            if (!why && (c2d_static_set_new((const c2d_shape *const *)&b, 1, NULL, &set) != C2D_OK ||
                         c2d_static_set_sweep(set, a, tu_scale(rel, -1), &t3, &index) != C2D_OK))
                why = "the set sweep failed";
            if (!why && t3.state == C2D_TOI_HIT) {
                if (fabs(sd_moved(&ga, &gb, tu_scale(rel, t3.t))) > tol)
                    why = "a set sweep's hit where the shapes do not touch";
                for (int s = 0; s < 8 && !why; s++)
                    if (sd_moved(&ga, &gb, tu_scale(rel, t3.t * s / 8)) < -tol)
                        why = "the shapes overlap before the set sweep's hit";
            } else if (!why && t3.state == C2D_TOI_NONE) {
                for (int s = 0; s <= 8 && !why; s++)
                    if (sd_moved(&ga, &gb, tu_scale(rel, s / 8.0)) < -tol)
                        why = "no set sweep hit, but the shapes overlap on the way";
            }
            c2d_static_set_destroy(set);
            if (why) {
                c2d_test_fail(__FILE__, __LINE__,
                              "%s: state %d at t %.17g (swapped: %d at %.17g), depth %.17g; da (%.17g, %.17g) "
                              "db (%.17g, %.17g) (tol %.3g)",
                              why, (int)t1.state, t1.t, (int)t2.state, t2.t, t1.depth, da.x, da.y, db.x, db.y, tol);
                print_shape("A", a);
                print_shape("B", b);
            }
            c2d_shape_destroy(a);
            c2d_shape_destroy(b);
            if (why)
                return;
        }
    ENSURE_MSG(hits > iters, "only %ld hits: retune the draw", hits);
}

/* c2d_static_set_push_out of a shape of each kind out of a set holding a sliver (and an ordinary shape
 * beside it): zero when clear, else the pushed mover overlaps neither. */
TEST(push_out_of_slivers_leaves_the_mover_outside)
{
    long iters = c2d_test_iterations(3000), pushed = 0;
    for (long i = 0; i < iters; i++)
        for (int kind = 0; kind < TU_KINDS; kind++) {
            scene sc = sliver_scene();
            c2d_shape *set_shapes[2] = {NULL, NULL}, *m = NULL;
            MAKE_SLIVER(&sc, tu_v(0, 0), set_shapes[0]);
            if (!set_shapes[0])
                continue;
            double y = c2d_test_uniform(-2, 2);
            if (make_shape((int)(c2d_test_rand() % TU_KINDS), &sc, tu_v(3, y), &set_shapes[1]) != C2D_OK)
                set_shapes[1] = NULL;
            int n = set_shapes[1] ? 2 : 1;
            if (make_shape(kind, &sc, tu_random_point(1.5), &m) != C2D_OK) {
                c2d_shape_destroy(set_shapes[0]);
                c2d_shape_destroy(set_shapes[1]);
                continue;
            }
            c2d_static_set *set = NULL;
            c2d_vec2 out = tu_v(NAN, NAN);
            int ok = c2d_static_set_new((const c2d_shape *const *)set_shapes, n, NULL, &set) == C2D_OK &&
                     c2d_static_set_push_out(set, m, &out) == C2D_OK && isfinite(out.x) && isfinite(out.y);
            tu_geom gm = geom_of(m);
            double mag = geom_mag(&gm), worst = INFINITY, before = INFINITY;
            for (int k = 0; k < n; k++) {
                tu_geom gs = geom_of(set_shapes[k]);
                mag = fmax(mag, geom_mag(&gs));
                before = fmin(before, oracle_sd(&gs, &gm));
                if (ok)
                    worst = fmin(worst, sd_moved(&gs, &gm, out));
            }
            /* The set's own touching tolerance is 1e-12 of its magnitude; the push's rounding adds a
             * little more at the pushed place. */
            double tol = 1e-11 * (mag + tu_len(out));
            pushed += ok && (out.x != 0 || out.y != 0);
            int clear_ok = before < -tol || (out.x == 0 && out.y == 0) || fabs(before) <= tol;
            if (!ok || worst < -tol || !clear_ok) {
                c2d_test_fail(__FILE__, __LINE__,
                              "push-out %s: (%.17g, %.17g); before it the mover was %.3g from the set, after %.3g (tol "
                              "%.3g)",
                              ok ? "ok" : "failed", out.x, out.y, before, worst, tol);
                print_shape("sliver", set_shapes[0]);
                if (set_shapes[1])
                    print_shape("beside it", set_shapes[1]);
                print_shape("mover", m);
            }
            c2d_static_set_destroy(set);
            c2d_shape_destroy(set_shapes[0]);
            c2d_shape_destroy(set_shapes[1]);
            c2d_shape_destroy(m);
            if (!ok || worst < -tol || !clear_ok)
                return;
        }
    ENSURE_MSG(pushed > iters / 2, "only %ld movers pushed: retune the draw", pushed);
}
