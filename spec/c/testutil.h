/* testutil.h - shared helpers for the C tests: random shapes of every kind together with their exact
 * geometry, and an independent oracle for signed distances that never calls the library's queries.
 *
 * Every shape kind is described here, as in the design, as a "rounded convex core": a point (circle),
 * a segment (capsule, segment) or a counter-clockwise convex polygon (rect, polygon), swollen by a radius.
 * The oracle is written from first principles (point-segment distances, segment crossing by orientation,
 * point-in-convex-polygon and, for overlapping cores, the support function of the Minkowski difference)
 * so that a bug in the library's SAT or GJK-style code cannot hide behind the same bug here.
 * The geometry is built from the random parameters directly (corners of a rect are computed here, not
 * read back from the library), so the oracle also checks that the library placed the shape right.
 *
 * Everything is static inline so each test file can include it without unused-function warnings, and it
 * compiles as C99 and as C++ (test_box2d.cpp uses it): no compound literals, no designated initialisers.
 */
#ifndef C2D_TESTUTIL_H
#define C2D_TESTUTIL_H

#include "collide2d.h"
#include "test.h"
#include "trig.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define TU_PI 3.14159265358979323846
#define TU_MAXV 16

/* The kinds the property tests draw from; rect covers both axis-aligned and rotated boxes. */
enum { TU_CIRCLE, TU_RECT, TU_POLYGON, TU_CAPSULE, TU_SEGMENT, TU_KINDS };

static inline const char *tu_kind_name(int kind)
{
    static const char *const names[TU_KINDS] = {"circle", "rect", "polygon", "capsule", "segment"};
    return kind >= 0 && kind < TU_KINDS ? names[kind] : "?";
}

/* A shape's exact geometry in world coordinates: n core vertices (1, 2, or >= 3 counter-clockwise)
 * and the rounding radius. */
typedef struct tu_geom {
    int kind;
    int n;
    c2d_vec2 v[TU_MAXV];
    double r;
} tu_geom;

/* Prints a geometry as a failing test shows it: kind, radius and every vertex to the last digit,
 * ready to paste into a repro. */
static inline void tu_print_geom(const char *label, const tu_geom *g)
{
    printf("  %s: %s r=%.17g n=%d:", label, tu_kind_name(g->kind), g->r, g->n);
    for (int i = 0; i < g->n; i++)
        printf(" (%.17g, %.17g)", g->v[i].x, g->v[i].y);
    printf("\n");
}

/* In a check of the bodies a and b (tu_body pointers in scope) that returns 0 on failure: records a
 * failure of cond with its message, prints both geometries and makes the caller return 0. */
#define TU_CHECK_PAIR(cond, ...)                                                    \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            tu_print_geom("A", &a->g);                                              \
            tu_print_geom("B", &b->g);                                              \
            return 0;                                                               \
        }                                                                           \
    } while (0)

/* A library shape together with the geometry the test believes it has. */
typedef struct tu_body {
    c2d_shape *s;
    tu_geom g;
} tu_body;

static inline c2d_vec2 tu_v(double x, double y)
{
    c2d_vec2 p;
    p.x = x;
    p.y = y;
    return p;
}
/* A rigid motion: velocity (vx, vy), angular velocity w, about the pivot (px, py) of the shape's own
 * frame. */
static inline c2d_motion tu_motion(double vx, double vy, double w, double px, double py)
{
    c2d_motion m;
    memset(&m, 0, sizeof m);
    m.velocity = tu_v(vx, vy);
    m.angular_velocity = w;
    m.pivot = tu_v(px, py);
    return m;
}

static inline c2d_vec2 tu_add(c2d_vec2 a, c2d_vec2 b) { return tu_v(a.x + b.x, a.y + b.y); }
static inline c2d_vec2 tu_sub(c2d_vec2 a, c2d_vec2 b) { return tu_v(a.x - b.x, a.y - b.y); }
static inline c2d_vec2 tu_scale(c2d_vec2 a, double k) { return tu_v(a.x * k, a.y * k); }
static inline double tu_dot(c2d_vec2 a, c2d_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double tu_cross(c2d_vec2 a, c2d_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline double tu_len(c2d_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline c2d_vec2 tu_rot(c2d_vec2 p, double angle)
{
    /* The library's own sine and cosine (the test binaries link src/trig.c): the same bits on every
     * platform, so the random scenes, and the determinism digest over them, are too. */
    double c, s;
    c2d_sincos(angle, &s, &c);
    return tu_v(c * p.x - s * p.y, s * p.x + c * p.y);
}

/* ---- the oracle ---------------------------------------------------------------------------- */

/* Distance from p to the segment a-b (a == b allowed: then it is the distance to the point). */
static inline double tu_point_segment_distance(c2d_vec2 p, c2d_vec2 a, c2d_vec2 b)
{
    c2d_vec2 ab = tu_sub(b, a);
    double l2 = tu_dot(ab, ab);
    double t = l2 > 0 ? tu_dot(tu_sub(p, a), ab) / l2 : 0.0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return tu_len(tu_sub(p, tu_add(a, tu_scale(ab, t))));
}

static inline int tu_sign(double x) { return (x > 0) - (x < 0); }

/* Whether the closed segments a-b and c-d share a point (orientation test; touching counts). */
static inline int tu_segments_cross(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, c2d_vec2 d)
{
    int o1 = tu_sign(tu_cross(tu_sub(b, a), tu_sub(c, a)));
    int o2 = tu_sign(tu_cross(tu_sub(b, a), tu_sub(d, a)));
    int o3 = tu_sign(tu_cross(tu_sub(d, c), tu_sub(a, c)));
    int o4 = tu_sign(tu_cross(tu_sub(d, c), tu_sub(b, c)));
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 1;
    /* Collinear and end-point contacts are caught by the zero distances of the caller. */
    return 0;
}

static inline double tu_segment_segment_distance(c2d_vec2 a, c2d_vec2 b, c2d_vec2 c, c2d_vec2 d)
{
    if (tu_segments_cross(a, b, c, d))
        return 0.0;
    double m = tu_point_segment_distance(a, c, d);
    double x = tu_point_segment_distance(b, c, d);
    m = x < m ? x : m;
    x = tu_point_segment_distance(c, a, b);
    m = x < m ? x : m;
    x = tu_point_segment_distance(d, a, b);
    return x < m ? x : m;
}

/* Edge i of a core: a point core has one degenerate edge, a segment one edge, a polygon n edges. */
static inline int tu_edge_count(const tu_geom *g) { return g->n >= 3 ? g->n : 1; }
static inline void tu_edge(const tu_geom *g, int i, c2d_vec2 *a, c2d_vec2 *b)
{
    *a = g->v[i];
    *b = g->v[g->n == 1 ? 0 : (i + 1) % g->n];
}

/* Whether p is inside or on a counter-clockwise convex polygon core (n >= 3). */
static inline int tu_point_in_polygon(const tu_geom *g, c2d_vec2 p)
{
    for (int i = 0; i < g->n; i++) {
        c2d_vec2 a = g->v[i], b = g->v[(i + 1) % g->n];
        if (tu_cross(tu_sub(b, a), tu_sub(p, a)) < 0)
            return 0;
    }
    return 1;
}

/* Unsigned distance between the two cores (0 when they meet). */
static inline double tu_core_distance(const tu_geom *a, const tu_geom *b)
{
    if (a->n >= 3 && tu_point_in_polygon(a, b->v[0]))
        return 0.0;
    if (b->n >= 3 && tu_point_in_polygon(b, a->v[0]))
        return 0.0;
    double m = INFINITY;
    for (int i = 0; i < tu_edge_count(a); i++) {
        c2d_vec2 p, q;
        tu_edge(a, i, &p, &q);
        for (int j = 0; j < tu_edge_count(b); j++) {
            c2d_vec2 r, s;
            tu_edge(b, j, &r, &s);
            double d = tu_segment_segment_distance(p, q, r, s);
            m = d < m ? d : m;
        }
    }
    return m;
}

static inline double tu_support(const tu_geom *g, c2d_vec2 dir)
{
    double m = -INFINITY;
    for (int i = 0; i < g->n; i++) {
        double d = tu_dot(g->v[i], dir);
        m = d > m ? d : m;
    }
    return m;
}

/* Closest point of the segment a-b to p (a == b allowed). */
static inline c2d_vec2 tu_closest_on_segment(c2d_vec2 p, c2d_vec2 a, c2d_vec2 b)
{
    c2d_vec2 ab = tu_sub(b, a);
    double l2 = tu_dot(ab, ab);
    double t = l2 > 0 ? tu_dot(tu_sub(p, a), ab) / l2 : 0.0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return tu_add(a, tu_scale(ab, t));
}

/* Closest points of two DISJOINT cores (*pa on A's core, *pb on B's) and their distance. Disjoint
 * convex cores are closest at a vertex of one against an edge of the other, so trying every such pair
 * is exact. The direction pb - pa is the only correct contact normal of rounded shapes whose cores are
 * apart but whose roundings overlap (circles, capsules), so tests compare normals with it directly: a
 * wrong normal changes the depth along it only to second order, which a push test cannot see. */
static inline double tu_core_closest_points(const tu_geom *a, const tu_geom *b, c2d_vec2 *pa, c2d_vec2 *pb)
{
    double best = INFINITY;
    for (int k = 0; k < 2; k++) {
        const tu_geom *p = k == 0 ? a : b, *q = k == 0 ? b : a;
        for (int i = 0; i < p->n; i++)
            for (int j = 0; j < tu_edge_count(q); j++) {
                c2d_vec2 e0, e1;
                tu_edge(q, j, &e0, &e1);
                c2d_vec2 c = tu_closest_on_segment(p->v[i], e0, e1);
                double d = tu_len(tu_sub(p->v[i], c));
                if (d < best) {
                    best = d;
                    *pa = k == 0 ? p->v[i] : c;
                    *pb = k == 0 ? c : p->v[i];
                }
            }
    }
    return best;
}

/* Penetration depth of two meeting cores: the distance from the origin to the boundary of the
 * Minkowski difference A - B, i.e. the minimum of its support function h(n) = sA(n) + sB(-n) over unit
 * n. The minimum of a convex body's support function is attained at a face normal, and the faces of
 * A - B are the edges of A and B, so trying both normals of every edge is exact (extra directions can
 * only give larger values). Two point cores that meet coincide: depth 0. *axis receives the minimising
 * direction (the direction in which to move B) when axis is not NULL. */
static inline double tu_core_depth(const tu_geom *a, const tu_geom *b, c2d_vec2 *axis)
{
    double best = INFINITY;
    c2d_vec2 best_n = tu_v(0, 1);
    for (int k = 0; k < 2; k++) {
        const tu_geom *g = k == 0 ? a : b;
        if (g->n < 2)
            continue;
        for (int i = 0; i < tu_edge_count(g); i++) {
            c2d_vec2 p, q;
            tu_edge(g, i, &p, &q);
            c2d_vec2 e = tu_sub(q, p);
            double l = tu_len(e);
            if (!(l > 0))
                continue; /* an edge of no length (a core collapsed to a point) has no normal */
            c2d_vec2 n = tu_v(e.y / l, -e.x / l);
            for (int s = 0; s < 2; s++) {
                double h = tu_support(a, n) + tu_support(b, tu_scale(n, -1));
                if (h < best) {
                    best = h;
                    best_n = n;
                }
                n = tu_scale(n, -1);
            }
        }
    }
    if (axis)
        *axis = best_n;
    return best == INFINITY ? 0.0 : (best < 0 ? 0.0 : best);
}

/* Exact signed distance between two rounded convex shapes: > 0 apart, 0 touching, < 0 overlapping
 * (minus the penetration depth, which is the core depth plus both radii). */
static inline double tu_signed_distance(const tu_geom *a, const tu_geom *b)
{
    double d = tu_core_distance(a, b);
    if (d > 0)
        return d - a->r - b->r;
    return -(tu_core_depth(a, b, NULL) + a->r + b->r);
}

/* Signed distance from a point to a rounded convex shape (negative inside). */
static inline double tu_point_distance(const tu_geom *g, c2d_vec2 p)
{
    double m = INFINITY;
    for (int i = 0; i < tu_edge_count(g); i++) {
        c2d_vec2 a, b;
        tu_edge(g, i, &a, &b);
        double d = tu_point_segment_distance(p, a, b);
        m = d < m ? d : m;
    }
    if (g->n >= 3 && tu_point_in_polygon(g, p))
        return -m - g->r;
    return m - g->r;
}

/* A rough size of the scene of two shapes (largest coordinate magnitude plus radius, at least 1):
 * tolerances are relative to it because double rounding errors scale with coordinates. */
static inline double tu_scene_size(const tu_geom *a, const tu_geom *b)
{
    double m = 1.0;
    for (int k = 0; k < 2; k++) {
        const tu_geom *g = k == 0 ? a : b;
        for (int i = 0; i < g->n; i++) {
            double x = fabs(g->v[i].x) + g->r, y = fabs(g->v[i].y) + g->r;
            m = x > m ? x : m;
            m = y > m ? y : m;
        }
    }
    return m;
}

static inline void tu_geom_translate(tu_geom *g, c2d_vec2 d)
{
    for (int i = 0; i < g->n; i++)
        g->v[i] = tu_add(g->v[i], d);
}

/* Rotates the geometry about the world origin. */
static inline void tu_geom_rotate(tu_geom *g, double angle)
{
    for (int i = 0; i < g->n; i++)
        g->v[i] = tu_rot(g->v[i], angle);
}

/* ---- random shapes --------------------------------------------------------------------------- */

/* The scene the property tests draw from: centres in [-TU_SPREAD, TU_SPREAD]^2 and sizes up to about 3,
 * so that roughly half of all pairs overlap and many are near touching. */
#define TU_SPREAD 3.0

/* A random point of [xlo, xhi] x [ylo, yhi], y drawn before x. The two draws are separate statements
 * because C leaves the order of a call's arguments unspecified (test.h): in tu_v(uniform, uniform)
 * gcc on x86-64 drew y first and gcc on ARM64 x first. y first keeps the streams of x86-64. */
static inline c2d_vec2 tu_random_vec(double xlo, double xhi, double ylo, double yhi)
{
    double y = c2d_test_uniform(ylo, yhi);
    double x = c2d_test_uniform(xlo, xhi);
    return tu_v(x, y);
}

static inline c2d_vec2 tu_random_point(double spread)
{
    return tu_random_vec(-spread, spread, -spread, spread);
}

/* Points on an ellipse at sorted random angles at least 0.25 rad apart: strictly convex, with no
 * near-collinear triples that a library tolerance might legitimately drop. */
static inline int tu_random_convex_points(int n, c2d_vec2 centre, c2d_vec2 *out)
{
    double angles[TU_MAXV];
    double gap = 0.25, free_span = 2 * TU_PI - n * gap;
    for (int i = 0; i < n; i++)
        angles[i] = c2d_test_uniform(0, free_span);
    for (int i = 1; i < n; i++) /* insertion sort: n <= 8 */
        for (int j = i; j > 0 && angles[j] < angles[j - 1]; j--) {
            double t = angles[j];
            angles[j] = angles[j - 1];
            angles[j - 1] = t;
        }
    double ax = c2d_test_uniform(0.2, 1.6), ay = c2d_test_uniform(0.2, 1.6);
    double tilt = c2d_test_uniform(0, 2 * TU_PI);
    for (int i = 0; i < n; i++) {
        double t = angles[i] + i * gap;
        double c, s;
        c2d_sincos(t, &s, &c);
        out[i] = tu_add(centre, tu_rot(tu_v(ax * c, ay * s), tilt));
    }
    return n;
}

/* Corners of a w x h rectangle centred at c and turned by angle, counter-clockwise from (-w/2,-h/2). */
static inline void tu_rect_corners(c2d_vec2 c, double w, double h, double angle, c2d_vec2 *out)
{
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; i++)
        out[i] = tu_add(c, tu_rot(tu_v(sx[i] * w / 2, sy[i] * h / 2), angle));
}

/* A random shape of the kind, centred within spread of `around`. Returns C2D_OK or the library's
 * status (the caller ENSUREs it). Rects are axis-aligned (angle exactly 0) one time in three, so the
 * library's axis-aligned fast paths are exercised as much as the general ones. */
static inline c2d_status tu_random_body(int kind, c2d_vec2 around, double spread, tu_body *out)
{
    c2d_vec2 c = tu_add(around, tu_random_point(spread));
    tu_geom *g = &out->g;
    memset(g, 0, sizeof *g);
    g->kind = kind;
    out->s = NULL;
    switch (kind) {
    case TU_CIRCLE: {
        g->n = 1;
        g->v[0] = c;
        g->r = c2d_test_uniform(0.1, 1.5);
        return c2d_circle_new(c.x, c.y, g->r, &out->s);
    }
    case TU_RECT: {
        double w = c2d_test_uniform(0.1, 3), h = c2d_test_uniform(0.1, 3);
        double angle = c2d_test_rand() % 3 == 0 ? 0.0 : c2d_test_uniform(-TU_PI, TU_PI);
        g->n = 4;
        tu_rect_corners(c, w, h, angle, g->v);
        return c2d_rect_new(c.x, c.y, w, h, angle, &out->s);
    }
    case TU_POLYGON: {
        int n = 3 + (int)(c2d_test_rand() % 6);
        g->n = tu_random_convex_points(n, c, g->v);
        if (c2d_test_rand() % 2) {
            /* Hand the points over clockwise half the time: the library must normalise winding. */
            c2d_vec2 cw[TU_MAXV];
            for (int i = 0; i < n; i++)
                cw[i] = g->v[n - 1 - i];
            return c2d_polygon_new(cw, n, &out->s);
        }
        return c2d_polygon_new(g->v, n, &out->s);
    }
    case TU_CAPSULE:
    case TU_SEGMENT: {
        double len = c2d_test_uniform(0.1, 3), angle = c2d_test_uniform(-TU_PI, TU_PI);
        c2d_vec2 h = tu_rot(tu_v(len / 2, 0), angle);
        g->n = 2;
        g->v[0] = tu_sub(c, h);
        g->v[1] = tu_add(c, h);
        if (kind == TU_SEGMENT)
            return c2d_segment_new(g->v[0], g->v[1], &out->s);
        g->r = c2d_test_uniform(0.05, 1.2);
        return c2d_capsule_new(g->v[0], g->v[1], g->r, &out->s);
    }
    }
    return C2D_ERR_RANGE;
}

/* A random grid coordinate: a multiple of 0.5 in [-lim, lim]. */
static inline double tu_grid(double lim)
{
    long steps = (long)(2 * lim);
    return 0.5 * (double)((long)(c2d_test_rand() % (unsigned long)(2 * steps + 1)) - steps);
}

/* A random point of the grid of multiples of 0.5 in [-lim, lim]^2, y drawn before x (as tu_random_vec). */
static inline c2d_vec2 tu_grid_point(double lim)
{
    double y = tu_grid(lim);
    double x = tu_grid(lim);
    return tu_v(x, y);
}

/* A random shape whose every coordinate and size is a multiple of 0.5 (rects unrotated, polygons are
 * grid triangles): such pairs often touch EXACTLY (faces flush, corners on faces, equal overlaps on two
 * axes), the cases where "touching counts" and tie-breaking are decided, and distances along the axes
 * are computed without rounding. */
static inline c2d_status tu_grid_body(int kind, tu_body *out)
{
    tu_geom *g = &out->g;
    memset(g, 0, sizeof *g);
    g->kind = kind;
    out->s = NULL;
    c2d_vec2 c = tu_grid_point(2);
    switch (kind) {
    case TU_CIRCLE:
        g->n = 1;
        g->v[0] = c;
        g->r = 0.5 * (double)(1 + c2d_test_rand() % 3);
        return c2d_circle_new(c.x, c.y, g->r, &out->s);
    case TU_RECT: {
        double w = 0.5 * (double)(1 + c2d_test_rand() % 4), h = 0.5 * (double)(1 + c2d_test_rand() % 4);
        g->n = 4;
        tu_rect_corners(c, w, h, 0.0, g->v);
        return c2d_rect_new(c.x, c.y, w, h, 0.0, &out->s);
    }
    case TU_POLYGON: {
        c2d_vec2 p[3];
        do {
            for (int i = 0; i < 3; i++)
                p[i] = tu_add(c, tu_grid_point(1.5));
        } while (tu_cross(tu_sub(p[1], p[0]), tu_sub(p[2], p[0])) == 0);
        if (tu_cross(tu_sub(p[1], p[0]), tu_sub(p[2], p[0])) < 0) {
            c2d_vec2 t = p[1];
            p[1] = p[2];
            p[2] = t;
        }
        g->n = 3;
        memcpy(g->v, p, sizeof p);
        return c2d_polygon_new(p, 3, &out->s);
    }
    case TU_CAPSULE:
    case TU_SEGMENT: {
        c2d_vec2 d;
        do
            d = tu_grid_point(1.5);
        while (d.x == 0 && d.y == 0);
        g->n = 2;
        g->v[0] = c;
        g->v[1] = tu_add(c, d);
        if (kind == TU_SEGMENT)
            return c2d_segment_new(g->v[0], g->v[1], &out->s);
        g->r = 0.5 * (double)(1 + c2d_test_rand() % 2);
        return c2d_capsule_new(g->v[0], g->v[1], g->r, &out->s);
    }
    }
    return C2D_ERR_RANGE;
}

/* Moves both the library shape and the geometry. */
static inline c2d_status tu_body_move(tu_body *b, c2d_vec2 d)
{
    tu_geom_translate(&b->g, d);
    return c2d_shape_move(b->s, d);
}

/* Rotates a body about the world origin: the library turns a shape about its own position, so the
 * position is carried round separately. */
static inline c2d_status tu_body_rotate_about_origin(tu_body *b, double angle)
{
    c2d_vec2 p;
    c2d_status st = c2d_shape_get_position(b->s, &p);
    if (st == C2D_OK)
        st = c2d_shape_rotate(b->s, angle);
    if (st == C2D_OK)
        st = c2d_shape_set_position(b->s, tu_rot(p, angle));
    tu_geom_rotate(&b->g, angle);
    return st;
}

/* An independent copy of a body (library clone plus geometry copy). */
static inline c2d_status tu_body_clone(const tu_body *b, tu_body *out)
{
    out->g = b->g;
    out->s = NULL;
    return c2d_shape_clone(b->s, &out->s);
}

static inline void tu_body_destroy(tu_body *b)
{
    c2d_shape_destroy(b->s);
    b->s = NULL;
}

/* A random body of kind ka and one of kind kb around the origin, drawn in that order; on failure
 * neither is left to destroy. */
static inline c2d_status tu_random_pair(int ka, int kb, tu_body *a, tu_body *b)
{
    c2d_status st = tu_random_body(ka, tu_v(0, 0), TU_SPREAD, a);
    if (st != C2D_OK)
        return st;
    if ((st = tu_random_body(kb, tu_v(0, 0), TU_SPREAD, b)) != C2D_OK)
        tu_body_destroy(a);
    return st;
}

/* Exact vector equality, for "nothing changed" checks. */
static inline int tu_same_vec(c2d_vec2 a, c2d_vec2 b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A snapshot of everything observable about a shape, to prove a failed call changed nothing. */
typedef struct tu_snapshot {
    c2d_shape_type type;
    c2d_vec2 pos;
    double angle;
    double radius;
    c2d_aabb aabb;
    int count;
    c2d_vec2 v[TU_MAXV];
} tu_snapshot;

static inline void tu_snapshot_take(const c2d_shape *s, tu_snapshot *out)
{
    memset(out, 0, sizeof *out);
    out->type = c2d_shape_get_type(s);
    c2d_shape_get_position(s, &out->pos);
    c2d_shape_get_angle(s, &out->angle);
    c2d_shape_get_radius(s, &out->radius);
    c2d_shape_get_aabb(s, &out->aabb);
    c2d_shape_get_vertices(s, out->v, TU_MAXV, &out->count);
}

static inline int tu_snapshot_equal(const tu_snapshot *a, const tu_snapshot *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

#endif
