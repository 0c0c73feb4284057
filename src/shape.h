/* shape.h - the private layout of a shape and the small vector helpers every engine file shares.
 *
 * Every kind is a "rounded convex core": a core of 1 vertex (circle), 2 vertices (capsule, segment) or
 * >= 3 vertices (rectangle, polygon), swollen by a radius (0 for all but circle and capsule). That one
 * representation lets the SAT, clipping, distance and ray code serve every pair of kinds.
 *
 * A shape stores its core in its own frame only, and its placement (position, cosine and sine of its
 * angle): placing a shape writes a few numbers, whatever its vertex count, and an 8-gon takes 320
 * bytes. Queries between two shapes work in the frame of one of them, into which they carry the other
 * (c2d_core_in); queries that need world coordinates compute them (c2d_world_core), always with the
 * one formula of c2d_xf_apply, so every path sees the same placed vertices (those of
 * c2d_shape_get_vertices). Queries only read a shape, which is what makes concurrent reads safe.
 */
#ifndef C2D_SHAPE_H
#define C2D_SHAPE_H

#include "collide2d.h"

#include <math.h>
#include <string.h>

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
 * b->a, with opposite normals: both sides of a segment are surface. A 1-vertex core has no edges.
 *
 * What data holds, by kind: a circle nothing (its core is its position); a rectangle its half extents
 * (hx, hy), its core being the four corners from (-hx, -hy) counter-clockwise with the axes as normals;
 * capsules, segments and polygons their count core vertices relative to the position, then their count
 * unit outward edge normals, in the shape's frame. */
struct c2d_shape {
    c2d_vec2 pos;        /* position: centre or centroid */
    double c, s;         /* cosine and sine of the angle (a circle, which no rotation moves, keeps 1, 0) */
    double radius;       /* rounding radius: circle, capsule; else 0 */
    double reach;        /* radius of a circle about pos holding the shape: largest |core vertex| + radius */
    double angle;        /* as set by the user */
    c2d_shape_type type;
    int count;           /* core vertices: 1, 2, or >= 3 */
    c2d_vec2 data[];
};

/* A placement: the point p and the rotation (c, s). */
typedef struct c2d_xf {
    c2d_vec2 p;
    double c, s;
} c2d_xf;

/* A core in some frame: count vertices counter-clockwise, and for count >= 2 as many unit outward edge
 * normals (edge i from vertex i to i + 1), swollen by radius. */
typedef struct c2d_core {
    const c2d_vec2 *v;
    const c2d_vec2 *n;
    int count;
    double radius;
} c2d_core;

/* Number of edges (and normals) of a core. */
static inline int c2d_edge_count(const c2d_shape *s)
{
    return s->count >= 2 ? s->count : 0;
}
static inline int c2d_core_edges(const c2d_core *k)
{
    return k->count >= 2 ? k->count : 0;
}

static inline c2d_xf c2d_shape_xf(const c2d_shape *s)
{
    c2d_xf x;
    x.p = s->pos;
    x.c = s->c;
    x.s = s->s;
    return x;
}

/* The larger and smaller of two numbers that are not NaN, as comparisons: fmax and fmin are libm calls
 * (they must handle NaN), which on hot paths cost more than the arithmetic around them. With SSE2 they
 * are its maxsd and minsd, which compute exactly a > b ? a : b and a < b ? a : b (ties and zeros of
 * either sign give b), in a line of assembly: written as selects, GCC turns some of them, against a
 * constant, into a branch that a random pair mispredicts half the time, and the intrinsics cost a move
 * to clear the upper half of each operand. */
#if defined(__GNUC__) && (defined(__SSE2__) || defined(__x86_64__))
static inline double c2d_maxd(double a, double b)
{
    __asm__("maxsd {%1, %0|%0, %1}" : "+x"(a) : "x"(b));
    return a;
}
static inline double c2d_mind(double a, double b)
{
    __asm__("minsd {%1, %0|%0, %1}" : "+x"(a) : "x"(b));
    return a;
}
#else
static inline double c2d_maxd(double a, double b)
{
    return a > b ? a : b;
}
static inline double c2d_mind(double a, double b)
{
    return a < b ? a : b;
}
#endif

/* A double the compiler must keep in a scalar register as it is: no instruction, but GCC's vectoriser
 * can no longer pair it with its neighbour. It pairs the coordinates of a c2d_vec2 argument by storing
 * the two argument registers with 8-byte stores and reloading them with one 16-byte load, which the
 * processor cannot forward from those stores: a stall of a dozen cycles, where the value is the first
 * link of a query's chain of dependent operations. Likewise for two fields just written one by one. */
#if defined(__GNUC__) && (defined(__SSE2__) || defined(__x86_64__))
#define C2D_SCALAR(x) __asm__("" : "+x"(x))
#else
#define C2D_SCALAR(x) ((void)0)
#endif

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

/* Index of the lowest set bit of a nonzero mask. */
static inline int c2d_lowest_bit(uint64_t m)
{
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
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

/* ---- placements and cores ---- */

/* The placed point of l: p + R l. The one formula for world coordinates: every path that needs a
 * placed vertex computes it this way, so they all see the same numbers. */
static inline c2d_vec2 c2d_xf_apply(c2d_xf x, c2d_vec2 l)
{
    return v2(x.p.x + (x.c * l.x - x.s * l.y), x.p.y + (x.s * l.x + x.c * l.y));
}
/* R v and R^T v. */
static inline c2d_vec2 c2d_rotate(c2d_xf x, c2d_vec2 v)
{
    return v2(x.c * v.x - x.s * v.y, x.s * v.x + x.c * v.y);
}
static inline c2d_vec2 c2d_unrotate(c2d_xf x, c2d_vec2 v)
{
    return v2(x.c * v.x + x.s * v.y, -x.s * v.x + x.c * v.y);
}
/* The point w in the frame of x: R^T (w - p). */
static inline c2d_vec2 c2d_xf_local(c2d_xf x, c2d_vec2 w)
{
    return c2d_unrotate(x, v2_sub(w, x.p));
}
/* The placement of frame b seen from frame a: a^-1 b. */
static inline c2d_xf c2d_xf_relative(c2d_xf a, c2d_xf b)
{
    c2d_xf r;
    r.p = c2d_xf_local(a, b.p);
    r.c = a.c * b.c + a.s * b.s;
    r.s = a.c * b.s - a.s * b.c;
    return r;
}

/* The axes of a rectangle: the normals of its edges in its own frame. */
extern const c2d_vec2 c2d_rect_normals[4];

/* Room for the core vertices of a circle or rectangle, which are not stored. */
typedef struct c2d_core_buf {
    c2d_vec2 v[4];
} c2d_core_buf;

/* The shape's core in its own frame: pointers into the shape, or into buf for circles and rectangles. */
static inline c2d_core c2d_local_core(const c2d_shape *s, c2d_core_buf *buf)
{
    c2d_core k;
    k.count = s->count;
    k.radius = s->radius;
    if (s->type == C2D_SHAPE_RECT) {
        double hx = s->data[0].x, hy = s->data[0].y;
        buf->v[0] = v2(-hx, -hy);
        buf->v[1] = v2(hx, -hy);
        buf->v[2] = v2(hx, hy);
        buf->v[3] = v2(-hx, hy);
        k.v = buf->v;
        k.n = c2d_rect_normals;
    } else if (s->count == 1) {
        buf->v[0] = v2(0, 0);
        k.v = buf->v;
        k.n = NULL;
    } else {
        k.v = s->data;
        k.n = s->data + s->count;
    }
    return k;
}

/* The shape's core placed by x (its own placement for world coordinates, or a relative one): vertices
 * and normals written to v and n, count entries each (n may be NULL for a circle). */
static inline c2d_core c2d_core_placed(const c2d_shape *s, c2d_xf x, c2d_vec2 *v, c2d_vec2 *n)
{
    c2d_core_buf buf;
    c2d_core l = c2d_local_core(s, &buf);
    for (int i = 0; i < l.count; i++)
        v[i] = c2d_xf_apply(x, l.v[i]);
    for (int i = 0; i < c2d_core_edges(&l); i++)
        n[i] = c2d_rotate(x, l.n[i]);
    l.v = v;
    l.n = l.count >= 2 ? n : NULL;
    return l;
}

/* The shape's core in world coordinates (see c2d_core_placed). */
static inline c2d_core c2d_world_core(const c2d_shape *s, c2d_vec2 *v, c2d_vec2 *n)
{
    return c2d_core_placed(s, c2d_shape_xf(s), v, n);
}

/* The point of the shape's own frame at local (measured from its position, turning with its angle) in
 * the world: a pivot. A circle's placement keeps no rotation (its core is its centre), so its angle is
 * turned here. */
c2d_vec2 c2d_shape_frame_point(const c2d_shape *s, c2d_vec2 local);

/* Placed vertex i of the shape. */
static inline c2d_vec2 c2d_world_vertex(const c2d_shape *s, int i)
{
    c2d_core_buf buf;
    return c2d_xf_apply(c2d_shape_xf(s), c2d_local_core(s, &buf).v[i]);
}

/* ---- compound shapes: chains and concave polygons (compound.c and the files of compound.h) ----
 *
 * A compound keeps its outline (or its chain's points) in data like a core's vertices, relative to its
 * position, then one slot holding the pointer to its parts; it has no normals, and its parts, not its
 * "core", answer every query: the public calls hand compounds to the compound files (layer 5) before
 * any kind-specific path could read data as a convex core. */
typedef struct c2d_compound c2d_compound;

static inline int c2d_is_compound(const c2d_shape *s)
{
    return s->type == C2D_SHAPE_CHAIN || s->type == C2D_SHAPE_CONCAVE;
}
static inline c2d_compound *c2d_compound_of(const c2d_shape *s)
{
    c2d_compound *c;
    memcpy(&c, &s->data[s->count], sizeof c);
    return c;
}

/* shape.c: a shape of a compound kind over m points (relative to its position, which is 0) owning c;
 * NULL when out of memory (c is then not owned). */
c2d_shape *c2d_shape_alloc_compound(c2d_shape_type type, const c2d_vec2 *pts, int m, c2d_compound *c);
/* shape.c: places s at p with the angle and its cosine and sine as given (no trigonometry), and a
 * compound's parts with it. */
void c2d_shape_place(c2d_shape *s, c2d_vec2 p, double angle, double c, double sn);

int c2d_compound_count(const c2d_shape *s);
/* How two parts of a compound meet: along a joint (a shared edge, a chain's shared end: only these
 * join, their joint a seam), at a corner only (a concave polygon's parts with others between them
 * around a point both have: every part meeting at a corner cuts its cone of surface normals), or not
 * at all. */
enum { C2D_PARTS_APART = 0, C2D_PARTS_CORNER = 1, C2D_PARTS_JOINT = 2 };
int c2d_compound_meet(const c2d_compound *c, int a, int b);
const c2d_shape *c2d_compound_part(const c2d_shape *s, int k);
/* The one-way direction of part k of a one-sided chain as placed (its right-hand normal), else 0. */
c2d_vec2 c2d_compound_part_one_way(const c2d_shape *s, int k);
void c2d_compound_free(c2d_compound *c);
c2d_status c2d_compound_clone(const c2d_compound *src, c2d_compound **out);
/* Moves the parts to where the compound now stands. */
void c2d_compound_place(c2d_shape *s);
/* The public queries when either shape is a compound (arguments already checked). */
c2d_status c2d_compound_overlap(const c2d_shape *a, const c2d_shape *b, int *out);
c2d_status c2d_compound_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out);
c2d_status c2d_compound_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out);
c2d_status c2d_compound_contains(const c2d_shape *s, c2d_vec2 p, int *out);
c2d_status c2d_compound_closest(const c2d_shape *s, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance);
c2d_status c2d_compound_raycast(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, c2d_ray_hit *out);
c2d_status c2d_compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out);

/* ---- shared engine internals (defined in the file named) ---- */

/* The public pair and point calls for convex shapes (arguments already checked; neither shape a
 * compound), which pairs.c hands them to, and which compounds use for their parts: collide.c,
 * distance.c, query.c, sweep.c. */
c2d_status c2d_convex_overlap(const c2d_shape *a, const c2d_shape *b, int *out);
c2d_status c2d_convex_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out);
c2d_status c2d_convex_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out);
c2d_status c2d_convex_contains_point(const c2d_shape *shape, c2d_vec2 p, int *out);
c2d_status c2d_convex_closest_point(const c2d_shape *shape, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance);
c2d_status c2d_convex_raycast(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                              c2d_ray_hit *out);
c2d_status c2d_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out);

/* hull.c: cleans a point list into a strictly convex counter-clockwise polygon in out (capacity n).
 * hull != 0 wraps arbitrary points; hull == 0 requires them to be in convex order. */
c2d_status c2d_convex_points(const c2d_vec2 *points, int n, int hull, c2d_vec2 *out, int *out_n);
/* shape.c: the hull of a compound's part as c2d_hull_new makes it, from points measured from the
 * compound's position: finite, but not checked against C2D_MAX_COORDINATE, since a ring that reaches
 * the limit on both sides has points up to twice that far from its centroid. */
c2d_status c2d_part_hull_new(const c2d_vec2 *points, int n, c2d_shape **out);

/* shape.c: the tight box of the placed shape (its placed vertices, grown by the radius). */
c2d_aabb c2d_shape_aabb(const c2d_shape *s);
/* An axis-aligned rectangle over box (corners already checked; sides may exceed the size limit). */
c2d_status c2d_box_probe_new(c2d_aabb box, c2d_shape **out);

/* closest.c: closest points of the two cores (radius ignored) and their distance. Exact; the cores
 * may be disjoint or not (then the distance is 0 and the points are an arbitrary common point only
 * for point/segment cores; callers use SAT for overlapping polygons). */
double c2d_core_distance(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb);
/* Which features of two cores are closest, as c2d_core_distance finds them: vertex `vertex` of one core
 * against edge `edge` of the other, b's vertex and a's edge when vertex_in_b. */
typedef struct c2d_feature_pair {
    int vertex_in_b, vertex, edge;
} c2d_feature_pair;
/* c2d_core_distance, and which features are closest in *fp. */
double c2d_core_distance_features(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb,
                                  c2d_feature_pair *fp);
/* Closest point of the segment a-b to p. */
c2d_vec2 c2d_closest_on_segment(c2d_vec2 a, c2d_vec2 b, c2d_vec2 p);
/* The same, inline: the one formula of both (the distance candidates of collide.c must be those of
 * c2d_core_distance bit for bit). */
static inline c2d_vec2 c2d_segment_closest(c2d_vec2 a, c2d_vec2 b, c2d_vec2 p)
{
    c2d_vec2 e = v2_sub(b, a);
    double len2 = v2_len2(e);
    if (!(len2 > 0))
        return a;
    double t = v2_dot(v2_sub(p, a), e) / len2;
    if (t <= 0)
        return a;
    if (t >= 1)
        return b;
    return v2_mad(a, t, e);
}
/* What c2d_core_distance(a, b, &pa, &pb) answers, for callers that found it another way. */
typedef struct c2d_closest {
    c2d_vec2 pa, pb;
    double d;
} c2d_closest;

/* sat.c: the narrow phase of two rounded cores in one frame. A circle (centre c, radius r) against a
 * polygon core of radius 0: whether they overlap, and when out is not NULL the contact with the
 * normal from the polygon to the circle (negated when flip). */
int c2d_circle_polygon(c2d_vec2 c, double r, const c2d_core *p, c2d_contact *out, int flip);
/* Its second half, for callers that ran the first: e is the polygon's edge of greatest separation s of
 * the centre, and s <= r. */
int c2d_circle_polygon_from(c2d_vec2 c, double r, const c2d_core *p, int e, double s, c2d_contact *out, int flip);
/* The contact of two rounded cores (normal from a to b). */
void c2d_collide_cores(const c2d_core *a, const c2d_core *b, c2d_contact *out);
/* Its second half, for callers that ran the separating-axis test themselves: sa, ea are the largest
 * separation of b along a's normals and its edge (separation_until's), sb, eb the same the other
 * way, neither above the reach; out is zeroed. cl, when not NULL, is c2d_core_distance(a, b)'s answer,
 * which the cores need when they are apart (largest separation above 0); else it is computed. Not for a point core against a polygon of radius 0,
 * which c2d_collide_cores answers before its SAT. */
void c2d_collide_cores_sat(const c2d_core *a, const c2d_core *b, double sa, int ea, double sb, int eb,
                           const c2d_closest *cl, c2d_contact *out);
/* Overlap of two rounded cores without building a manifold. */
int c2d_overlap_cores(const c2d_core *a, const c2d_core *b);
/* Whether the cores (radii left out) are apart by more than rounding, so that their closest points
 * (filled in with their distance d) define the normal. */
int c2d_cores_apart(const c2d_core *a, const c2d_core *b, c2d_vec2 *pa, c2d_vec2 *pb, double *d);
/* The edge normal of either core (from a towards b) with the largest separation: the touching
 * direction when the cores' closest points nearly coincide. (0, 1) for two point cores. */
c2d_vec2 c2d_best_face_normal(const c2d_core *a, const c2d_core *b);

/* collide.c: the two shapes of a pair query as cores in one frame, a and b in the order of the
 * arguments. The frame is that of the shape with more core vertices, whose stored core is used as it
 * is while the other is carried into it; between equals it is chosen by their geometry, never by the
 * order of the arguments, so that (a, b) and (b, a) compute alike. Two shapes of at most two core
 * vertices each (circles, capsules, segments) are taken in the world, where coinciding placed end
 * points coincide exactly. A carried core of more than C2D_PAIR_STACK vertices lives on the heap. */
#define C2D_PAIR_STACK 16
typedef struct c2d_pair_frame {
    c2d_core a, b;
    c2d_xf frame;      /* placement of the frame (the identity for the world) */
    int swap;          /* whether the frame's shape is the second argument (b) */
    void *heap;
    c2d_core_buf own;  /* the frame shape's core, for circles and rectangles */
    c2d_vec2 on[2];    /* its normals, when it is placed in the world */
    c2d_vec2 cv[C2D_PAIR_STACK], cn[C2D_PAIR_STACK]; /* the carried core */
} c2d_pair_frame;
c2d_status c2d_pair_frame_init(c2d_pair_frame *f, const c2d_shape *a, const c2d_shape *b);
void c2d_pair_frame_free(c2d_pair_frame *f);

#endif
