/* shape.h - the private layout of a shape and the small vector helpers every engine file shares.
 *
 * Every kind is stored as a "rounded convex core": a core of 1 vertex (circle), 2 vertices (capsule,
 * segment) or >= 3 vertices (rectangle, polygon), swollen by a radius (0 for all but circle and capsule).
 * That one representation lets the SAT, clipping, distance and ray code serve every pair of kinds.
 * World-space vertices and normals are recomputed eagerly on every move, so queries only read the shape:
 * that is what makes concurrent reads safe (no lazy caches written during a query).
 */
#ifndef C2D_SHAPE_H
#define C2D_SHAPE_H

#include "collide2d.h"

#include <math.h>

/* No fused multiply-adds in the engine: a fused a * b + c rounds once instead of twice, so results
 * would depend on the compiler's flags and the processor, and differ between platforms. The Makefile
 * builds with -ffp-contract=off; these cover builds with flags of their own (luarocks, a game's
 * build): the standard pragma, which clang honours, and GCC's optimize pragma, since GCC ignores the
 * standard one. See src/trig.c. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

/* Edges of a core run from vertex i to vertex i+1 (mod count). A 2-vertex core has two edges, a->b and
 * b->a, with opposite normals: both sides of a segment are surface. A 1-vertex core has no edges. */
struct c2d_shape {
    /* Hot: read by every query. Kept first and contiguous with the placed arrays that follow. */
    c2d_shape_type type;
    int count;          /* core vertices: 1, 2, or >= 3 */
    double radius;      /* rounding radius of the core: circle, capsule; else 0 */
    c2d_aabb aabb;      /* tight box of the placed shape */
    c2d_vec2 *world;    /* count vertices, placed */
    c2d_vec2 *normal;   /* edge normals, placed (unit, outward) */
    c2d_vec2 pos;       /* position: centre or centroid */
    double cos_a, sin_a; /* rotation of the local frame */
    double hx, hy;      /* half extents, rectangles only */
    int axis_aligned;   /* rotation is exactly a multiple of 90 degrees (sin or cos is exactly 0) */
    /* Cold: read when the shape moves. */
    double angle;       /* as set by the user */
    c2d_vec2 *local;    /* count vertices in the shape's frame (relative to pos, unrotated) */
    c2d_vec2 *lnormal;  /* edge normals in the shape's frame (count of them if count >= 2) */
    c2d_vec2 store[];   /* backing storage: world, normal, local, lnormal, in that order */
};

/* Number of edges (and normals) of a core. */
static inline int c2d_edge_count(const c2d_shape *s)
{
    return s->count >= 2 ? s->count : 0;
}

/* The placed vertices and normals, found from the shape's address alone: c2d_shape_alloc puts them
 * first in the shape's own block (world, then normal), and every shape comes from it. Reading
 * s->world instead would make the vertex loads wait for the pointer's load, a second trip to memory
 * on every query of a shape that is not in the cache. */
static inline const c2d_vec2 *c2d_placed_vertices(const c2d_shape *s)
{
    return s->store;
}
static inline const c2d_vec2 *c2d_placed_normals(const c2d_shape *s)
{
    return s->store + s->count;
}

static inline c2d_vec2 v2(double x, double y)
{
    c2d_vec2 r;
    r.x = x;
    r.y = y;
    return r;
}
static inline c2d_vec2 v2_add(c2d_vec2 a, c2d_vec2 b) { return v2(a.x + b.x, a.y + b.y); }
static inline c2d_vec2 v2_sub(c2d_vec2 a, c2d_vec2 b) { return v2(a.x - b.x, a.y - b.y); }
static inline c2d_vec2 v2_scale(c2d_vec2 a, double k) { return v2(a.x * k, a.y * k); }
static inline c2d_vec2 v2_neg(c2d_vec2 a) { return v2(-a.x, -a.y); }
static inline c2d_vec2 v2_mad(c2d_vec2 a, double k, c2d_vec2 b) { return v2(a.x + k * b.x, a.y + k * b.y); }
static inline double v2_dot(c2d_vec2 a, c2d_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double v2_cross(c2d_vec2 a, c2d_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline int v2_eq(c2d_vec2 a, c2d_vec2 b) { return a.x == b.x && a.y == b.y; }
static inline double v2_len2(c2d_vec2 a) { return a.x * a.x + a.y * a.y; }
static inline double v2_len(c2d_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline c2d_vec2 v2_mid(c2d_vec2 a, c2d_vec2 b) { return v2(0.5 * (a.x + b.x), 0.5 * (a.y + b.y)); }
/* Right-hand perpendicular: the outward normal direction of an edge of a counter-clockwise polygon. */
static inline c2d_vec2 v2_right(c2d_vec2 a) { return v2(a.y, -a.x); }
static inline c2d_vec2 v2_lerp(c2d_vec2 a, c2d_vec2 b, double t)
{
    return v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
}

/* Unit vector of a, or fallback when a is zero. */
/* Length without overflow or underflow: squares of components beyond about 1e150 or below 1e-150
 * leave double range, so such vectors are scaled by their largest component first. */
static inline double v2_len_safe(c2d_vec2 a)
{
    double l = v2_len(a);
    if (l > 1e-150 && l < 1e150)
        return l;
    double m = fmax(fabs(a.x), fabs(a.y));
    if (!(m > 0) || !isfinite(m))
        return m;
    double x = a.x / m, y = a.y / m;
    return m * sqrt(x * x + y * y);
}

/* Whether |a| <= r, for r >= 0. By squares, except for radii whose square underflows (below about
 * 1.5e-154), where squares of distances a million radii long would vanish too and compare equal. */
static inline int v2_within(c2d_vec2 a, double r)
{
    double r2 = r * r;
    if (r2 >= 2.2250738585072014e-308) /* DBL_MIN */
        return v2_len2(a) <= r2;
    return v2_len_safe(a) <= r;
}

static inline c2d_vec2 v2_normalize_or(c2d_vec2 a, c2d_vec2 fallback)
{
    double l = v2_len(a);
    if (l > 1e-150 && l < 1e150)
        return v2(a.x / l, a.y / l);
    double m = fmax(fabs(a.x), fabs(a.y));
    if (!(m > 0) || !isfinite(m))
        return fallback;
    a = v2(a.x / m, a.y / m);
    l = v2_len(a);
    return v2(a.x / l, a.y / l);
}

/* C2D_OK when x is finite and within C2D_MAX_COORDINATE, else the status to report. */
static inline c2d_status c2d_check_number(double x)
{
    if (!isfinite(x))
        return C2D_ERR_NOT_FINITE;
    if (fabs(x) > C2D_MAX_COORDINATE)
        return C2D_ERR_RANGE;
    return C2D_OK;
}
static inline c2d_status c2d_check_vec(c2d_vec2 p)
{
    c2d_status st = c2d_check_number(p.x);
    return st != C2D_OK ? st : c2d_check_number(p.y);
}

/* ---- shared engine internals (defined in the file named) ---- */

/* hull.c: cleans a point list into a strictly convex counter-clockwise polygon in out (capacity n).
 * hull != 0 wraps arbitrary points; hull == 0 requires them to be in convex order. */
c2d_status c2d_convex_points(const c2d_vec2 *points, int n, int hull, c2d_vec2 *out, int *out_n);

/* shape.c: a new shape of a kind with count core vertices given in world coordinates (placed at
 * their centroid), or NULL when memory runs out. */
c2d_shape *c2d_shape_alloc(int count);
void c2d_shape_place(c2d_shape *s);
/* An axis-aligned rectangle over box (corners already checked; sides may exceed the size limit). */
c2d_status c2d_box_probe_new(c2d_aabb box, c2d_shape **out);

/* distance.c: closest points of the two cores (radius ignored) and their distance. Exact; the cores
 * may be disjoint or not (then the distance is 0 and the points are an arbitrary common point only
 * for point/segment cores; callers use SAT for overlapping polygons). */
double c2d_core_distance(const c2d_shape *a, const c2d_shape *b, c2d_vec2 *pa, c2d_vec2 *pb);
/* Closest point of the segment a-b to p. */
c2d_vec2 c2d_closest_on_segment(c2d_vec2 a, c2d_vec2 b, c2d_vec2 p);

/* sat.c: greatest separation of b's core from a's core along a's edge normals; *edge receives the
 * edge. -INFINITY when a's core has no edges. */
double c2d_max_separation(const c2d_shape *a, const c2d_shape *b, int *edge);
/* The contact of two rounded cores (general path for every pair). */
void c2d_collide_cores(const c2d_shape *a, const c2d_shape *b, c2d_contact *out);
/* Overlap of two rounded cores without building a manifold. */
int c2d_overlap_cores(const c2d_shape *a, const c2d_shape *b);
/* Whether the cores (radii left out) are apart by more than rounding, so that their closest points
 * (filled in with their distance d) define the normal. */
/* The edge normal of either core (from a towards b) with the largest separation: the touching
 * direction when the cores' closest points nearly coincide. (0, 1) for two point cores. */
c2d_vec2 c2d_best_face_normal(const c2d_shape *a, const c2d_shape *b);
int c2d_cores_apart(const c2d_shape *a, const c2d_shape *b, c2d_vec2 *pa, c2d_vec2 *pb, double *d);

#endif
