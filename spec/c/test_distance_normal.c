/* test_distance_normal.c - the normal of c2d_distance for pairs that touch exactly or nearly (issue 22,
 * item 3). Where the closest points (nearly) coincide, their difference is rounding noise: the normal
 * must still be a separating direction (the deepest point of A along n no farther than the distance
 * short of B's nearest point along n), and the face's own normal where a face is the closest feature.
 * Both argument orders give the same answer with the normal turned round.
 *
 * The geometry judged is the library's own placed geometry (c2d_shape_get_vertices and the radius), as
 * in exact.h; tolerances are relative to the coordinates' magnitude and the shapes' sizes.
 */
#include "collide2d.h"
#include "test.h"
#include "trig.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DN_PI 3.14159265358979323846
#define DN_MAXV 16

/* ENSURE_MSG for the helpers that return whether the case passed. */
#define DN_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            return 0;                                                               \
        }                                                                           \
    } while (0)

/* DN_CHECK for a pair: also prints both shapes (ga, gb in scope), to the last digit, for a repro. */
#define DN_CHECK_PAIR(cond, ...)                                                    \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            dn_print("A", &ga);                                                     \
            dn_print("B", &gb);                                                     \
            return 0;                                                               \
        }                                                                           \
    } while (0)

/* A shape as the library holds it: its placed core vertices and radius. */
typedef struct dn_geom {
    c2d_vec2 v[DN_MAXV];
    int n;
    double r;
} dn_geom;

static c2d_vec2 dn_v(double x, double y)
{
    c2d_vec2 p;
    p.x = x;
    p.y = y;
    return p;
}
static double dn_dot(c2d_vec2 a, c2d_vec2 b) { return a.x * b.x + a.y * b.y; }
static double dn_cross(c2d_vec2 a, c2d_vec2 b) { return a.x * b.y - a.y * b.x; }
static double dn_len(c2d_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static c2d_vec2 dn_unit(c2d_vec2 a)
{
    double l = dn_len(a);
    return dn_v(a.x / l, a.y / l);
}

static void dn_print(const char *label, const dn_geom *g)
{
    printf("  %s: r=%.17g n=%d:", label, g->r, g->n);
    for (int i = 0; i < g->n; i++)
        printf(" (%.17g, %.17g)", g->v[i].x, g->v[i].y);
    printf("\n");
}

static int dn_read(const c2d_shape *s, dn_geom *g)
{
    return c2d_shape_get_vertices(s, g->v, DN_MAXV, &g->n) == C2D_OK && c2d_shape_get_radius(s, &g->r) == C2D_OK;
}

/* Largest and smallest of n . x over the shape (its radius included). */
static double dn_max_along(const dn_geom *g, c2d_vec2 n)
{
    double m = -INFINITY;
    for (int i = 0; i < g->n; i++) {
        double d = dn_dot(n, g->v[i]);
        m = d > m ? d : m;
    }
    return m + g->r;
}
static double dn_min_along(const dn_geom *g, c2d_vec2 n)
{
    double m = INFINITY;
    for (int i = 0; i < g->n; i++) {
        double d = dn_dot(n, g->v[i]);
        m = d < m ? d : m;
    }
    return m - g->r;
}

/* Largest coordinate magnitude of the shape. */
static double dn_magnitude(const dn_geom *g)
{
    double m = 0;
    for (int i = 0; i < g->n; i++)
        m = fmax(m, fmax(fabs(g->v[i].x), fabs(g->v[i].y)));
    return m + g->r;
}

/* The outward normal of edge k of a counter-clockwise core of 3 or more vertices, or of side k (0 or 1)
 * of a 2-vertex core, from the placed vertices. */
static c2d_vec2 dn_edge_normal(const dn_geom *g, int k)
{
    c2d_vec2 a = g->v[k], b = g->v[(k + 1) % g->n];
    return dn_unit(dn_v(b.y - a.y, a.x - b.x));
}

/* Angle between two unit vectors. */
static double dn_angle(c2d_vec2 a, c2d_vec2 b)
{
    return fabs(atan2(dn_cross(a, b), dn_dot(a, b)));
}

/* The separating property of r = c2d_distance(a, b): A's deepest point along the normal is no farther
 * than the distance short of B's nearest one (within tol), and the normal is a unit vector. */
static int dn_separates(const dn_geom *ga, const dn_geom *gb, const c2d_distance_result *r, double tol,
                        double *gap_out)
{
    double gap = dn_min_along(gb, r->normal) - dn_max_along(ga, r->normal);
    *gap_out = gap;
    return fabs(dn_len(r->normal) - 1) < 1e-14 && gap >= r->distance - tol && gap <= r->distance + tol;
}

/* Checks both orders of c2d_distance on a and b: the same distance, the normal turned round exactly,
 * the separating property; when want_normal is not NULL the normal is within max_angle of it. */
static int dn_check_pair(const c2d_shape *a, const c2d_shape *b, double want_distance, double tol,
                         const c2d_vec2 *want_normal, double max_angle, const char *what)
{
    dn_geom ga, gb;
    c2d_distance_result ab, ba;
    DN_CHECK(dn_read(a, &ga) && dn_read(b, &gb), "%s: reading the shapes failed", what);
    DN_CHECK_PAIR(c2d_distance(a, b, &ab) == C2D_OK && c2d_distance(b, a, &ba) == C2D_OK, "%s: status", what);
    DN_CHECK_PAIR(ab.distance == ba.distance && ab.normal.x == -ba.normal.x && ab.normal.y == -ba.normal.y,
                  "%s: orders disagree: %.17g (%.17g, %.17g) against %.17g (%.17g, %.17g)", what, ab.distance,
                  ab.normal.x, ab.normal.y, ba.distance, ba.normal.x, ba.normal.y);
    /* Pushed in by -want_distance: the depth is at most that (the push is one way out). */
    int distance_ok = want_distance < 0 ? ab.distance >= want_distance - tol && ab.distance <= tol
                                        : fabs(ab.distance - want_distance) <= tol;
    DN_CHECK_PAIR(distance_ok, "%s: distance %.17g, expected %.17g (tol %g)", what, ab.distance, want_distance, tol);
    double gap;
    DN_CHECK_PAIR(dn_separates(&ga, &gb, &ab, tol, &gap),
                  "%s: normal (%.17g, %.17g) does not separate: supports %.17g apart, distance %.17g (tol %g)", what,
                  ab.normal.x, ab.normal.y, gap, ab.distance, tol);
    DN_CHECK_PAIR(dn_separates(&gb, &ga, &ba, tol, &gap),
                  "%s: swapped normal (%.17g, %.17g) does not separate: supports %.17g apart, distance %.17g", what,
                  ba.normal.x, ba.normal.y, gap, ba.distance);
    if (want_normal) {
        double angle = dn_angle(ab.normal, *want_normal);
        DN_CHECK_PAIR(angle <= max_angle,
                      "%s: normal (%.17g, %.17g) is %.3g rad off the face normal (%.17g, %.17g) (tol %g)", what,
                      ab.normal.x, ab.normal.y, angle, want_normal->x, want_normal->y, max_angle);
    }
    return 1;
}

/* The example of the issue: a rectangle whose corner lies on a triangle's long edge (exactly, in the
 * placed vertices). The distance came out 9.8e-14 with the normal, the direction between the two
 * nearly coincident closest points, 7e-5 rad off the edge's normal. */
TEST(distance_normal_touching_rect_triangle_case)
{
    c2d_shape *rect, *tri;
    ENSURE_OK(c2d_rect_new(-4103.3597735430203, -6628.6092785280634, 0.023516278158655014, 0.008782068684429576,
                           -0.60643268871441602, &rect));
    c2d_vec2 p[3] = {{-4103.5720883304048, -6628.6081344800214},
                     {-4103.5198710357317, -6628.6775065149059},
                     {-4103.2003485986579, -6628.6275342267718}};
    ENSURE_OK(c2d_polygon_new(p, 3, &tri));
    /* The rectangle's corner 1 is on the triangle's edge from p[2] to p[0], whose outward normal (from
     * the triangle) is (0.0521154510286774384, 0.998641066531953473) to 18 digits: the rectangle sits
     * on it, so the normal from the rectangle to the triangle is its opposite. */
    c2d_vec2 want = dn_v(-0.052115451028677438, -0.99864106653195347);
    dn_check_pair(rect, tri, 0.0, 1e-11, &want, 1e-12, "issue example");
    c2d_shape_destroy(rect);
    c2d_shape_destroy(tri);
}

/* ---- random pairs placed against a face or a vertex ---- */

enum { DN_RECT, DN_POLYGON, DN_CAPSULE, DN_SEGMENT, DN_CIRCLE, DN_KINDS };
static const char *const dn_kind_names[DN_KINDS] = {"rect", "polygon", "capsule", "segment", "circle"};

/* 10^x for a drawn exponent. */
static double dn_pow10(double lo, double hi)
{
    double e = c2d_test_uniform(lo, hi);
    return pow(10.0, e);
}

/* A random shape of the kind and size about `size`, centred near c, turned by a random angle; angle_out
 * receives a rectangle's angle. Every random number is drawn into its own variable. */
static c2d_status dn_shape(int kind, c2d_vec2 c, double size, double *angle_out, c2d_shape **out)
{
    double angle = c2d_test_uniform(-DN_PI, DN_PI);
    *angle_out = angle;
    switch (kind) {
    case DN_RECT: {
        double w = c2d_test_uniform(0.1, 1.0);
        double h = c2d_test_uniform(0.1, 1.0);
        return c2d_rect_new(c.x, c.y, w * size, h * size, angle, out);
    }
    case DN_POLYGON: {
        int n = 3 + (int)(c2d_test_rand() % 6);
        double ax = c2d_test_uniform(0.2, 0.5);
        double ay = c2d_test_uniform(0.2, 0.5);
        c2d_vec2 pts[DN_MAXV];
        for (int i = 0; i < n; i++) {
            double jitter = c2d_test_uniform(-0.3, 0.3);
            double t = (i + jitter) * 2 * DN_PI / n, s, co, ts, tc;
            c2d_sincos(t, &s, &co);
            c2d_sincos(angle, &ts, &tc);
            double x = ax * size * co, y = ay * size * s;
            pts[i] = dn_v(c.x + (tc * x - ts * y), c.y + (ts * x + tc * y));
        }
        return c2d_polygon_new(pts, n, out);
    }
    case DN_CAPSULE:
    case DN_SEGMENT: {
        double len = c2d_test_uniform(0.1, 1.0) * size, s, co;
        c2d_sincos(angle, &s, &co);
        c2d_vec2 h = dn_v(0.5 * len * co, 0.5 * len * s);
        c2d_vec2 a = dn_v(c.x - h.x, c.y - h.y), b = dn_v(c.x + h.x, c.y + h.y);
        if (kind == DN_SEGMENT)
            return c2d_segment_new(a, b, out);
        double r = c2d_test_uniform(0.02, 0.4);
        return c2d_capsule_new(a, b, r * size, out);
    }
    default: {
        double r = c2d_test_uniform(0.05, 0.5);
        return c2d_circle_new(c.x, c.y, r * size, out);
    }
    }
}

/* Moves b so that its support point along -m (its point deepest towards A) lands at target. */
static c2d_status dn_place_against(c2d_shape *b, c2d_vec2 m, c2d_vec2 target)
{
    dn_geom g;
    if (!dn_read(b, &g))
        return C2D_ERR_NULL;
    int k = 0;
    for (int i = 1; i < g.n; i++)
        if (dn_dot(m, g.v[i]) < dn_dot(m, g.v[k]))
            k = i;
    c2d_vec2 support = dn_v(g.v[k].x - g.r * m.x, g.v[k].y - g.r * m.y), pos;
    c2d_status st = c2d_shape_get_position(b, &pos);
    if (st != C2D_OK)
        return st;
    return c2d_shape_set_position(b, dn_v(pos.x + (target.x - support.x), pos.y + (target.y - support.y)));
}

/* One random pair: A of kind ka at a random offset and scale, B of kind kb placed against a face of A
 * (contact at an interior point of the face) or against a vertex of A (along a direction inside the
 * vertex's normal cone), touching, or apart from rounding-sized gaps to a hundredth of the size, or
 * (against a face) pushed in as far. Where a face is closest (apart or touching) the normal is its
 * own; overlapping, the normal must still be the direction along which the supports overlap by the
 * depth. Returns whether the case passed; a and b are destroyed by the caller. */
static int dn_random_case(int ka, int kb, long iter, c2d_shape **ap, c2d_shape **bp)
{
    double ox = c2d_test_uniform(-1e4, 1e4);
    double oy = c2d_test_uniform(-1e4, 1e4);
    double size_a = dn_pow10(-3, 4);
    double size_b = dn_pow10(-3, 4);
    double gap_exp = c2d_test_uniform(-18, -2);
    int touch = c2d_test_rand() % 4 == 0;
    int on_face = ka != DN_CIRCLE && c2d_test_rand() % 3 != 0;
    int overlap = c2d_test_rand() % 2 == 0;
    /* Pushed into a face by up to 1e-3 of the smaller size (not a segment's: that would pass through),
     * or apart by up to 1e-2 of the larger. */
    overlap = overlap && on_face && ka != DN_SEGMENT && kb != DN_SEGMENT;
    double gap = touch     ? 0.0
                 : overlap ? -fmin(size_a, size_b) * pow(10.0, gap_exp - 1)
                           : fmax(size_a, size_b) * pow(10.0, gap_exp);
    c2d_shape *a, *b;
    double angle_a, angle_b;
    char what[160];
    snprintf(what, sizeof what, "%s against %s %s, iteration %ld", dn_kind_names[kb], dn_kind_names[ka],
             on_face ? "face" : "vertex", iter);
    DN_CHECK(dn_shape(ka, dn_v(ox, oy), size_a, &angle_a, ap) == C2D_OK, "%s: A", what);
    a = *ap;
    DN_CHECK(dn_shape(kb, dn_v(0, 0), size_b, &angle_b, bp) == C2D_OK, "%s: B", what);
    b = *bp;
    if (ka == DN_RECT && kb == DN_RECT && c2d_test_rand() % 3 == 0) {
        /* Face against face: B turned like A (a quarter turn apart or not), sides parallel. */
        double quarter = (double)(c2d_test_rand() % 4);
        DN_CHECK(c2d_shape_set_angle(b, angle_a + quarter * 0.5 * DN_PI) == C2D_OK, "%s: turning B", what);
    }
    dn_geom ga;
    DN_CHECK(dn_read(a, &ga), "%s: reading A", what);
    c2d_vec2 m, at;
    double face_len = 0;
    if (on_face) {
        /* Side k of a 2-vertex core is its edge from v[k] to v[k + 1 mod 2]: both sides are surface. */
        int k = (int)(c2d_test_rand() % (unsigned)ga.n);
        double u = c2d_test_uniform(0.1, 0.9);
        c2d_vec2 p = ga.v[k], q = ga.v[(k + 1) % ga.n];
        m = dn_edge_normal(&ga, k);
        face_len = dn_len(dn_v(q.x - p.x, q.y - p.y));
        at = dn_v(p.x + u * (q.x - p.x) + ga.r * m.x, p.y + u * (q.y - p.y) + ga.r * m.y);
    } else {
        int k = (int)(c2d_test_rand() % (unsigned)ga.n);
        double w = c2d_test_uniform(0.05, 0.95);
        if (ga.n >= 3) {
            /* Between the normals of the two edges at vertex k. */
            c2d_vec2 n0 = dn_edge_normal(&ga, (k + ga.n - 1) % ga.n), n1 = dn_edge_normal(&ga, k);
            m = dn_unit(dn_v(n0.x + w * (n1.x - n0.x), n0.y + w * (n1.y - n0.y)));
        } else if (ga.n == 2) {
            /* Within 73 degrees either side of the segment's direction past end k. */
            c2d_vec2 out = dn_unit(dn_v(ga.v[k].x - ga.v[1 - k].x, ga.v[k].y - ga.v[1 - k].y));
            double t = (w - 0.5) * 0.9 * DN_PI, s, co;
            c2d_sincos(t, &s, &co);
            m = dn_v(co * out.x - s * out.y, s * out.x + co * out.y);
        } else {
            double t = (w - 0.5) * 2 * DN_PI, s, co;
            c2d_sincos(t, &s, &co);
            m = dn_v(co, s);
        }
        at = dn_v(ga.v[k].x + ga.r * m.x, ga.v[k].y + ga.r * m.y);
    }
    DN_CHECK(dn_place_against(b, m, dn_v(at.x + gap * m.x, at.y + gap * m.y)) == C2D_OK, "%s: placing B", what);
    dn_geom gb;
    DN_CHECK(dn_read(b, &gb), "%s: reading B", what);
    double mag = fmax(dn_magnitude(&ga), dn_magnitude(&gb));
    /* Rounding of the placed coordinates, and of a normal good to 1e-9 rad times the shapes' size. */
    double tol = 64 * DBL_EPSILON * mag + 1e-9 * (size_a + size_b);
    /* A face normal from placed vertices is good to about their rounding over the face's length. */
    double max_angle = 1e-9 + 8 * DBL_EPSILON * mag / (face_len > 0 ? face_len : 1);
    return dn_check_pair(a, b, gap, tol, on_face && gap >= 0 ? &m : NULL, max_angle, what);
}

TEST(distance_normal_touching_random_pairs)
{
    long n = c2d_test_iterations(40000);
    for (long iter = 0; iter < n; iter++) {
        int ka = (int)(c2d_test_rand() % DN_KINDS);
        int kb = (int)(c2d_test_rand() % DN_KINDS);
        c2d_shape *a = NULL, *b = NULL;
        int ok = dn_random_case(ka, kb, iter, &a, &b);
        c2d_shape_destroy(a);
        c2d_shape_destroy(b);
        if (!ok)
            return;
    }
}

/* A circle a few units off the long face of a sliver 1e10 long: whether its centre is inside or outside
 * that face is known only to the sliver's slack (its line stands up to ~10 from where its points put
 * it). Where the face's normal pointed against the closest points, taking it placed the shapes' points
 * d + both radii apart while the distance said -99.9: fuzz/corpus/crash-circle-depth-against-a-sliver-
 * within-its-slack, whose sliver is placed turned by 1e9 rad, shows it; this unturned copy of its
 * vertices happens not to (rounding puts its face elsewhere), and stands as the property: the closest
 * points stand |distance| apart, both ways round, for centres across the face. */
TEST(distance_normal_never_points_against_the_closest_points_of_a_sliver)
{
    static const c2d_vec2 sliver[8] = {
        {-6658024403.7566948, 339340669.72268915}, {3329012580.5692368, -169670343.81491494},
        {3329012586.7415648, -169670344.12950134}, {3329012591.919992, -169670340.75600314},
        {3329012594.1265359, -169670334.9829824},  {3329012592.5183706, -169670329.01553702},
        {3329012587.7097611, -169670325.13302803}, {3329012581.5374327, -169670324.81844187}};
    c2d_shape *p, *c;
    ENSURE_OK(c2d_hull_new(sliver, 8, &p));
    /* Circle centres on a line across the long face near its middle, from 40 inside to 40 outside. */
    c2d_vec2 e = dn_v(sliver[1].x - sliver[0].x, sliver[1].y - sliver[0].y);
    double len = hypot(e.x, e.y);
    c2d_vec2 u = dn_v(e.x / len, e.y / len), m = dn_v(-u.y, u.x);
    for (int k = 0; k <= 4000; k++) {
        double off = -40 + 0.02 * k;
        ENSURE_OK(c2d_circle_new(256 + off * m.x, 2 + off * m.y, 104.40625, &c));
        for (int swap = 0; swap < 2; swap++) {
            c2d_distance_result d;
            ENSURE_OK(swap ? c2d_distance(c, p, &d) : c2d_distance(p, c, &d));
            double gap = hypot(d.point_b.x - d.point_a.x, d.point_b.y - d.point_a.y);
            ENSURE_MSG(fabs(gap - fabs(d.distance)) <= 1e-5, "offset %g: closest points %.17g apart, distance %.17g",
                       off, gap, d.distance);
        }
        c2d_shape_destroy(c);
    }
    c2d_shape_destroy(p);
}
