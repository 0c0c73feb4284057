/* fuzz_api.c - the libFuzzer harness for the public C API: it decodes the input bytes into a sequence
 * of API calls on a handful of shape slots and checks, after every call, the invariants the header
 * promises for every input it accepts. A broken invariant prints what broke and aborts, so libFuzzer
 * (and `make fuzz-regress`) records it like a crash.
 *
 * Input format: a stream of operations. Each operation is one byte; its low 6 bits index fz_ops[]
 * (slots past the end of the table are no-ops), and the operation then reads its own arguments. Numbers
 * come from fz_number(): special values (NaN, infinities, signed zeros, denormals, 1e300, values at and
 * just past C2D_MAX_COORDINATE), small fixed-point values (exactly representable, so shapes touch
 * exactly), raw doubles, and powers of two times a mantissa over the whole exponent range. Running out
 * of bytes reads zeros, so every input decodes to something.
 *
 * Extending: append new operations (sweep, world) at the END of fz_ops[] and never reorder it, so the
 * committed corpus keeps meaning what it meant. Each op is one short function taking the state.
 *
 * Invariants checked (see fz_check_* below): every status is a c2d_status value; a call that should be
 * accepted (all numbers finite and in range, sizes positive, non-degenerate) returns C2D_OK and one that
 * should not is rejected; a rejected call writes no out-parameter and leaves the shape unchanged
 * (snapshot compare); accepted calls produce finite outputs, unit normals, depth >= 0; overlap, collide,
 * distance and point queries agree with each other and under argument swap, except within a tolerance
 * of touching relative to the size of the scene. */
#include "collide2d.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_SLOTS 6
#define FZ_MAX_POINTS 24
#define FZ_OP_SLOTS 64
/* Relative tolerance for comparisons between different queries: rounding errors scale with the
 * coordinates involved, and these checks look for wrong answers, not for the last few ulps. */
#define FZ_REL_TOL 1e-9

typedef struct fz_state {
    const uint8_t *p;
    size_t n;
    c2d_shape *slot[FZ_SLOTS];
} fz_state;

/* ---- failing ------------------------------------------------------------------------------- */

static const char *fz_current_op = "?";
static int fz_trace = -1;
static c2d_shape *const *fz_trace_slots;

/* With FZ_TRACE, the live shapes (kind, radius, placed vertices) are printed before a failure. */
static void fz_dump_slots(void)
{
    for (int i = 0; fz_trace_slots && i < FZ_SLOTS; i++) {
        const c2d_shape *s = fz_trace_slots[i];
        c2d_vec2 v[64];
        int n = 0;
        double r = 0;
        if (!s)
            continue;
        c2d_shape_get_radius(s, &r);
        if (c2d_shape_get_vertices(s, v, 64, &n) != C2D_OK)
            n = 0;
        fprintf(stderr, "slot %d: kind %d radius %.17g vertices", i, (int)c2d_shape_get_type(s), r);
        for (int k = 0; k < n; k++)
            fprintf(stderr, " (%.17g, %.17g)", v[k].x, v[k].y);
        fprintf(stderr, "\n");
    }
}
/* The kinds of the pair being checked, for the failure message. */
static int fz_kind_a, fz_kind_b;

static void fz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nfuzz_api: invariant broken in op %s [kinds %d, %d] (%s:%d): ", fz_current_op, fz_kind_a,
            fz_kind_b, file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (fz_trace > 0)
        fz_dump_slots();
    abort();
}

#define FZ_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond))                                                                \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                               \
    } while (0)

/* Known, reported library bugs can be tolerated while fuzzing for new ones: FZ_TOLERATE holds a
 * comma-separated list of tags (see fuzz/README.md). A tolerated failure ends the current check
 * quietly instead of aborting. Without FZ_TOLERATE (as in `make fuzz-regress`) every one fails. */
static int fz_tolerated(const char *tag)
{
    static const char *list;
    static int read;
    if (!read) {
        list = getenv("FZ_TOLERATE");
        read = 1;
    }
    return list && strstr(list, tag) != NULL;
}

#define FZ_CHECK_KNOWN(tag, cond, ...)                                              \
    do {                                                                            \
        if (!(cond)) {                                                              \
            if (fz_tolerated(tag))                                                  \
                return;                                                             \
            fz_fail(__FILE__, __LINE__, "[" tag "] " __VA_ARGS__);                  \
        }                                                                           \
    } while (0)

/* ---- decoding ------------------------------------------------------------------------------ */

static uint8_t fz_byte(fz_state *st)
{
    if (st->n == 0)
        return 0;
    st->n--;
    return *st->p++;
}

static int16_t fz_i16(fz_state *st)
{
    uint16_t hi = fz_byte(st), lo = fz_byte(st);
    return (int16_t)(uint16_t)((hi << 8) | lo);
}

static double fz_raw_double(fz_state *st)
{
    uint8_t b[8];
    double d;
    for (int i = 0; i < 8; i++)
        b[i] = fz_byte(st);
    memcpy(&d, b, sizeof d);
    return d;
}

static const double fz_specials[] = {
    NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 4.9406564584124654e-324, -4.9406564584124654e-324,
    DBL_MIN, 1e-300, 1e300, -1e300, DBL_MAX, -DBL_MAX, C2D_MAX_COORDINATE, -C2D_MAX_COORDINATE,
    /* one ulp past the limit on each side, and one ulp inside */
    1.0000000000000002e15, -1.0000000000000002e15, 999999999999999.88, 5e14, -5e14,
    1.0, -1.0, 0.5, 2.0, 1e-9, 1e9, 3.14159265358979323846, 1.5707963267948966, -1.5707963267948966,
    6.283185307179586, 1e-16, 1.0000000000000002, 3.0, 10.0, 100.0, 1e-12, 1e12,
};
#define FZ_NSPECIALS ((int)(sizeof fz_specials / sizeof fz_specials[0]))

/* FZ_TRACE=1 prints each operation and the numbers it decoded, to turn a failing input into a repro. */

static double fz_number_raw(fz_state *st);

static double fz_number(fz_state *st)
{
    double x = fz_number_raw(st);
    if (fz_trace)
        fprintf(stderr, " %.17g", x);
    return x;
}

/* Any double, weighted towards values that break geometry code. */
static double fz_number_raw(fz_state *st)
{
    uint8_t tag = fz_byte(st);
    if (tag < 0x40)
        return fz_specials[tag % FZ_NSPECIALS];
    if (tag < 0xB0)
        return fz_i16(st) / 64.0; /* exact, within +-512: touching and coincident cases */
    if (tag < 0xD8)
        return fz_raw_double(st);
    /* mantissa * 2^e over the whole range, from denormals to overflow */
    int16_t m = fz_i16(st);
    int e = (int8_t)fz_byte(st) * 8;
    return ldexp((double)m, e);
}

static c2d_vec2 fz_vec(fz_state *st)
{
    c2d_vec2 v;
    v.x = fz_number(st);
    v.y = fz_number(st);
    return v;
}

static c2d_vec2 fz_v(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

/* A slot index; the slot may be empty, and then the call gets NULL. */
static int fz_slot(fz_state *st)
{
    int k = fz_byte(st) % FZ_SLOTS;
    if (fz_trace)
        fprintf(stderr, " [%d]", k);
    return k;
}

/* ---- small checks -------------------------------------------------------------------------- */

/* What the header promises to accept: finite and within C2D_MAX_COORDINATE. */
static int fz_ok_number(double x)
{
    return isfinite(x) && fabs(x) <= C2D_MAX_COORDINATE;
}
static int fz_ok_vec(c2d_vec2 v)
{
    return fz_ok_number(v.x) && fz_ok_number(v.y);
}

static int fz_finite_vec(c2d_vec2 v)
{
    return isfinite(v.x) && isfinite(v.y);
}

static double fz_len(c2d_vec2 v)
{
    return hypot(v.x, v.y);
}

static c2d_vec2 fz_sub(c2d_vec2 a, c2d_vec2 b)
{
    return fz_v(a.x - b.x, a.y - b.y);
}

static void fz_check_status(c2d_status s)
{
    FZ_CHECK((int)s >= (int)C2D_OK && (int)s <= (int)C2D_ERR_CAPACITY, "status %d is not a c2d_status", (int)s);
    FZ_CHECK(c2d_status_string(s) != NULL, "no status string");
}

static void fz_check_unit(c2d_vec2 n, const char *what)
{
    FZ_CHECK(fz_finite_vec(n), "%s (%g, %g) not finite", what, n.x, n.y);
    /* Known bug "tiny-vector": normalising by sqrt(x*x + y*y) loses digits when the squares are
     * denormal (a vector shorter than about 1e-154), e.g. two circles 1e-160 apart. */
    FZ_CHECK_KNOWN("tiny-vector", fabs(fz_len(n) - 1.0) <= 1e-9, "%s (%.17g, %.17g) not unit (length %.17g)", what,
                   n.x, n.y, fz_len(n));
    FZ_CHECK(fabs(fz_len(n) - 1.0) <= 1e-9, "%s (%.17g, %.17g) not unit (length %.17g)", what, n.x, n.y,
             fz_len(n));
}

/* The size of a scene: the largest coordinate magnitude involved, at least 1. */
static double fz_shape_scale(const c2d_shape *s)
{
    c2d_aabb b;
    if (!s || c2d_shape_get_aabb(s, &b) != C2D_OK)
        return 1.0;
    double m = fmax(fmax(fabs(b.min.x), fabs(b.min.y)), fmax(fabs(b.max.x), fabs(b.max.y)));
    return fmax(1.0, m);
}

/* Bytes that no correct call writes: out-parameters are pre-filled with them to prove "not written". */
#define FZ_POISON 0xA5

static int fz_is_poison(const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != FZ_POISON)
            return 0;
    return 1;
}

/* ---- snapshots: everything observable about a shape ----------------------------------------- */

#define FZ_MAX_VERTS 64

typedef struct fz_snapshot {
    c2d_shape_type type;
    int count;
    c2d_vec2 pos;
    double angle;
    double radius;
    c2d_aabb aabb;
    c2d_vec2 v[FZ_MAX_VERTS];
} fz_snapshot;

static void fz_snapshot_take(const c2d_shape *s, fz_snapshot *out)
{
    memset(out, 0, sizeof *out);
    out->type = c2d_shape_get_type(s);
    FZ_CHECK(c2d_shape_get_position(s, &out->pos) == C2D_OK, "get_position failed");
    FZ_CHECK(c2d_shape_get_angle(s, &out->angle) == C2D_OK, "get_angle failed");
    FZ_CHECK(c2d_shape_get_radius(s, &out->radius) == C2D_OK, "get_radius failed");
    FZ_CHECK(c2d_shape_get_aabb(s, &out->aabb) == C2D_OK, "get_aabb failed");
    FZ_CHECK(c2d_shape_get_vertices(s, NULL, 0, &out->count) == C2D_OK, "get_vertices (count) failed");
    FZ_CHECK(out->count >= 1 && out->count <= FZ_MAX_VERTS, "vertex count %d", out->count);
    int again = -1;
    FZ_CHECK(c2d_shape_get_vertices(s, out->v, FZ_MAX_VERTS, &again) == C2D_OK && again == out->count,
             "get_vertices failed");
}

/* A shape is well formed: a kind, finite placement, a box holding every vertex. */
static void fz_check_shape(const c2d_shape *s)
{
    fz_snapshot sn;
    fz_snapshot_take(s, &sn);
    FZ_CHECK(sn.type >= C2D_SHAPE_CIRCLE && sn.type <= C2D_SHAPE_SEGMENT, "type %d", (int)sn.type);
    int want = sn.type == C2D_SHAPE_CIRCLE ? 1 : sn.type == C2D_SHAPE_RECT ? 4 : sn.type == C2D_SHAPE_POLYGON ? -1 : 2;
    FZ_CHECK(want < 0 ? sn.count >= 3 : sn.count == want, "type %d has %d vertices", (int)sn.type, sn.count);
    FZ_CHECK(fz_finite_vec(sn.pos) && isfinite(sn.angle), "placement not finite");
    FZ_CHECK(isfinite(sn.radius) && sn.radius >= 0, "radius %g", sn.radius);
    FZ_CHECK((sn.radius > 0) == (sn.type == C2D_SHAPE_CIRCLE || sn.type == C2D_SHAPE_CAPSULE), "radius %g for type %d",
             sn.radius, (int)sn.type);
    FZ_CHECK(fz_finite_vec(sn.aabb.min) && fz_finite_vec(sn.aabb.max), "aabb not finite");
    FZ_CHECK(sn.aabb.min.x <= sn.aabb.max.x && sn.aabb.min.y <= sn.aabb.max.y, "aabb inverted");
    for (int i = 0; i < sn.count; i++) {
        c2d_vec2 v = sn.v[i];
        FZ_CHECK(fz_finite_vec(v), "vertex %d not finite", i);
        FZ_CHECK(v.x >= sn.aabb.min.x && v.x <= sn.aabb.max.x && v.y >= sn.aabb.min.y && v.y <= sn.aabb.max.y,
                 "vertex %d (%g, %g) outside the aabb", i, v.x, v.y);
    }
    /* Too small a capacity: C2D_ERR_CAPACITY, the count reported, nothing written. */
    c2d_vec2 small[FZ_MAX_VERTS];
    int count = -7;
    memset(small, FZ_POISON, sizeof small);
    c2d_status r = c2d_shape_get_vertices(s, small, sn.count - 1, &count);
    FZ_CHECK(r == C2D_ERR_CAPACITY && count == sn.count, "short capacity gave %d, count %d", (int)r, count);
    FZ_CHECK(fz_is_poison(small, sizeof small), "get_vertices wrote past a short capacity");
}

static int fz_snapshot_equal(const fz_snapshot *a, const fz_snapshot *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* ---- query checks -------------------------------------------------------------------------- */

/* Signed distance from p to a shape's boundary, through the library. Outputs (contact points, vertices)
 * may lie beyond C2D_MAX_COORDINATE, where the library rightly refuses points: those give 0, which
 * passes every check that uses it. */
static double fz_sd(const c2d_shape *s, c2d_vec2 p)
{
    double d = NAN;
    if (!fz_ok_vec(p))
        return 0.0;
    c2d_status r = c2d_closest_point(s, p, NULL, &d);
    FZ_CHECK(r == C2D_OK, "closest_point on an accepted point gave %d", (int)r);
    return d;
}

static void fz_check_contact(const c2d_contact *c, const c2d_shape *a, const c2d_shape *b, double tol)
{
    FZ_CHECK(c->count >= 0 && c->count <= 2, "contact count %d", c->count);
    if (c->count == 0) {
        FZ_CHECK(c->depth == 0 && c->normal.x == 0 && c->normal.y == 0, "no contact but depth %g normal (%g, %g)",
                 c->depth, c->normal.x, c->normal.y);
        return;
    }
    FZ_CHECK_KNOWN("contact-nan", fz_finite_vec(c->normal), "contact normal (%g, %g) not finite", c->normal.x,
                   c->normal.y);
    fz_check_unit(c->normal, "contact normal");
    FZ_CHECK(isfinite(c->depth) && c->depth >= 0, "contact depth %g", c->depth);
    for (int i = 0; i < c->count; i++) {
        FZ_CHECK(fz_finite_vec(c->points[i]), "contact point %d not finite", i);
        FZ_CHECK(isfinite(c->point_depths[i]) && c->point_depths[i] >= 0 && c->point_depths[i] <= c->depth + tol,
                 "point depth %d = %g with depth %g", i, c->point_depths[i], c->depth);
        /* Midway between the surfaces: within half the point's depth of each (inside both when
         * both have area; a segment has none, so there the point is half the depth off it). */
        double sa = fz_sd(a, c->points[i]), sb = fz_sd(b, c->points[i]), half = 0.5 * c->point_depths[i];
        /* Known bug "clip-fallback": when rounding puts every clipped point of a touching contact past
         * the reach, clip_faces keeps the last one rather than the least separated. */
        if (c->depth <= tol)
            FZ_CHECK_KNOWN("clip-fallback", sa <= half + tol && sb <= half + tol,
                           "touching contact point %d (%.17g, %.17g) off both surfaces: sd A %g, sd B %g", i,
                           c->points[i].x, c->points[i].y, sa, sb);
        FZ_CHECK(sa <= half + tol && sb <= half + tol, "contact point %d (%.17g, %.17g) outside: sd A %g, sd B %g (tol %g)", i,
                 c->points[i].x, c->points[i].y, sa, sb, tol);
    }
}

static void fz_check_distance(const c2d_distance_result *d, double tol)
{
    /* The NaN contact normal of a circle on a segment (known bug) reaches c2d_distance too. */
    FZ_CHECK_KNOWN("contact-nan", isfinite(d->distance) && fz_finite_vec(d->point_a) && fz_finite_vec(d->point_b) &&
                   fz_finite_vec(d->normal), "distance result not finite");
    FZ_CHECK(isfinite(d->distance), "distance %g", d->distance);
    FZ_CHECK(fz_finite_vec(d->point_a) && fz_finite_vec(d->point_b), "distance points not finite");
    FZ_CHECK_KNOWN("tiny-vector", fabs(fz_len(d->normal) - 1.0) <= 1e-9, "distance normal (%.17g, %.17g) not unit",
                   d->normal.x, d->normal.y);
    fz_check_unit(d->normal, "distance normal");
    double gap = fz_len(fz_sub(d->point_b, d->point_a));
    FZ_CHECK(fabs(gap - fabs(d->distance)) <= tol, "closest points %.17g apart but distance %.17g", gap, d->distance);
}

/* Whether a shape has an edge so short that the library's normalisation underflows (known bug
 * "tiny-edge": sqrt(x*x + y*y) of a vector shorter than about 1e-154 is 0, and the edge normal falls
 * back to (0, 1)). Measured on the placed vertices, relative to the scene: a 1e-200 edge far from the
 * origin collapses to length 0 there. */
static int fz_short_edge(const c2d_shape *s, double rel)
{
    c2d_vec2 v[FZ_MAX_VERTS];
    int n = 0;
    if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &n) != C2D_OK || n < 2)
        return 0;
    double limit = rel * fz_shape_scale(s);
    for (int i = 0; i < n; i++)
        if (fz_len(fz_sub(v[(i + 1) % n], v[i])) <= limit)
            return 1;
    return 0;
}

static int fz_tiny_edge(const c2d_shape *s)
{
    return fz_short_edge(s, 1e-150);
}

/* Whether a vertex of `other` lies on the line of the 2-vertex core of s, beyond its ends: the case
 * the known bug "segment-axis" gets wrong (the SAT never tries the segment's own direction). */
static int fz_on_segment_line(const c2d_shape *s, const c2d_shape *other)
{
    c2d_vec2 v[2], w[FZ_MAX_VERTS];
    int n = 0, m = 0;
    if (!s || !other || c2d_shape_get_vertices(s, NULL, 0, &n) != C2D_OK || n != 2)
        return 0;
    if (c2d_shape_get_vertices(s, v, 2, &n) != C2D_OK ||
        c2d_shape_get_vertices(other, w, FZ_MAX_VERTS, &m) != C2D_OK)
        return 0;
    c2d_vec2 e = fz_sub(v[1], v[0]);
    double len = fz_len(e);
    for (int i = 0; i < m; i++) {
        c2d_vec2 d = fz_sub(w[i], v[0]);
        double along = (d.x * e.x + d.y * e.y) / len, across = (e.x * d.y - e.y * d.x) / len;
        if (fabs(across) <= 1e-9 * fmax(1.0, fz_len(d)) && (along < 0 || along > len))
            return 1;
    }
    return 0;
}

/* Independent witnesses of overlap, from the point queries only (query.c, not the SAT): a core vertex
 * or the position of one shape (both belong to it) strictly inside the other, by more than tol.
 * Returns the witness point's index + 1, or 0. */
static int fz_overlap_witness(const c2d_shape *a, const c2d_shape *b, double tol)
{
    c2d_vec2 v[FZ_MAX_VERTS + 1];
    int n = 0;
    if (c2d_shape_get_vertices(b, v, FZ_MAX_VERTS, &n) != C2D_OK)
        return 0;
    c2d_shape_get_position(b, &v[n++]);
    for (int i = 0; i < n; i++)
        if (fz_ok_vec(v[i]) && fz_sd(a, v[i]) < -tol)
            return i + 1;
    return 0;
}

/* Every pair query on (a, b) and (b, a), and how they agree. NULL shapes must give C2D_ERR_NULL and
 * leave the outputs alone. */
static void fz_check_pair(const c2d_shape *a, const c2d_shape *b)
{
    int o1, o2;
    c2d_contact c1, c2;
    c2d_distance_result d1, d2;
    memset(&o1, FZ_POISON, sizeof o1);
    memset(&c1, FZ_POISON, sizeof c1);
    memset(&d1, FZ_POISON, sizeof d1);
    fz_kind_a = (int)c2d_shape_get_type(a);
    fz_kind_b = (int)c2d_shape_get_type(b);
    c2d_status r1 = c2d_overlap(a, b, &o1), r2 = c2d_collide(a, b, &c1), r3 = c2d_distance(a, b, &d1);
    fz_check_status(r1);
    fz_check_status(r2);
    fz_check_status(r3);
    if (!a || !b) {
        FZ_CHECK(r1 == C2D_ERR_NULL && r2 == C2D_ERR_NULL && r3 == C2D_ERR_NULL, "NULL shape accepted");
        FZ_CHECK(fz_is_poison(&o1, sizeof o1) && fz_is_poison(&c1, sizeof c1) && fz_is_poison(&d1, sizeof d1),
                 "output written on error");
        return;
    }
    FZ_CHECK(r1 == C2D_OK && r2 == C2D_OK && r3 == C2D_OK, "pair query failed: %d %d %d", (int)r1, (int)r2, (int)r3);
    FZ_CHECK(c2d_overlap(a, b, NULL) == C2D_ERR_NULL && c2d_collide(a, b, NULL) == C2D_ERR_NULL &&
                 c2d_distance(a, b, NULL) == C2D_ERR_NULL,
             "NULL out accepted");
    FZ_CHECK(c2d_overlap(b, a, &o2) == C2D_OK && c2d_collide(b, a, &c2) == C2D_OK && c2d_distance(b, a, &d2) == C2D_OK,
             "swapped pair query failed");
    double tol = FZ_REL_TOL * fmax(fz_shape_scale(a), fz_shape_scale(b));
    if (fz_tolerated("segment-axis") && (fz_on_segment_line(a, b) || fz_on_segment_line(b, a)))
        return;
    if (fz_tolerated("tiny-edge") && (fz_tiny_edge(a) || fz_tiny_edge(b)))
        return;
    /* Known bug "caliper": the rotating-caliper separation stops on a tie (an edge of the polygon
     * parallel to the segment), so a segment or capsule crossing into a polygon is missed. */
    int ca = 0, cb = 0;
    c2d_shape_get_vertices(a, NULL, 0, &ca);
    c2d_shape_get_vertices(b, NULL, 0, &cb);
    if (fz_tolerated("caliper") && ((ca == 2 && cb >= 3) || (cb == 2 && ca >= 3)))
        return;
    /* The same tie arises inside a polygon whose placed vertices coincide (a rectangle thinner than
     * the spacing of doubles at its coordinates). */
    if (fz_tolerated("caliper") && (fz_short_edge(a, 1e-12) || fz_short_edge(b, 1e-12)))
        return;
    FZ_CHECK(o1 == 0 || o1 == 1, "overlap wrote %d", o1);
    fz_check_contact(&c1, a, b, tol);
    fz_check_contact(&c2, b, a, tol);
    fz_check_distance(&d1, tol);
    fz_check_distance(&d2, tol);
    FZ_CHECK(fabs(d1.distance - d2.distance) <= tol, "distance not symmetric: %.17g vs %.17g", d1.distance,
             d2.distance);
    if (fabs(d1.distance) > tol) {
        /* Clear of touching: all three queries must give the same answer, both ways round. */
        int touching = d1.distance < 0;
        int agree = o1 == touching && o2 == touching && (c1.count > 0) == touching && (c2.count > 0) == touching;
        FZ_CHECK(agree, "overlap %d/%d, contacts %d/%d, but distance %.17g (tol %g)", o1, o2, c1.count, c2.count,
                 d1.distance, tol);
    }
    int w = fz_overlap_witness(a, b, tol), w2 = fz_overlap_witness(b, a, tol);
    FZ_CHECK(!(w || w2) || (o1 && o2 && c1.count > 0 && c2.count > 0 && d1.distance < tol),
             "a point of one shape is inside the other (witness %d/%d) but overlap %d/%d, contacts %d/%d, distance %.17g",
             w, w2, o1, o2, c1.count, c2.count, d1.distance);
    /* And of separation: bounding boxes apart. */
    c2d_aabb ba, bb;
    c2d_shape_get_aabb(a, &ba);
    c2d_shape_get_aabb(b, &bb);
    if (ba.min.x > bb.max.x + tol || bb.min.x > ba.max.x + tol || ba.min.y > bb.max.y + tol || bb.min.y > ba.max.y + tol)
        FZ_CHECK(!o1 && !o2 && !c1.count && !c2.count && d1.distance > 0, "boxes apart but overlap %d/%d, contacts %d/%d, distance %.17g",
                 o1, o2, c1.count, c2.count, d1.distance);
    if (c1.count > 0 && c2.count > 0)
        FZ_CHECK(fabs(c1.depth - c2.depth) <= tol, "depth not symmetric: %.17g vs %.17g", c1.depth, c2.depth);
    if (c1.count > 0 && d1.distance < 0)
        FZ_CHECK(fabs(c1.depth + d1.distance) <= tol, "depth %.17g but distance %.17g", c1.depth, d1.distance);
}

/* ---- the operations ------------------------------------------------------------------------ */

/* Stores a newly created shape in a slot (freeing what was there) after checking the call. */
static void fz_created(fz_state *st, int slot, c2d_status r, int should_accept, c2d_shape *out, c2d_shape *sentinel)
{
    fz_check_status(r);
    if (r != C2D_OK) {
        FZ_CHECK(out == sentinel, "rejected constructor wrote *out");
        FZ_CHECK(should_accept <= 0 || r == C2D_ERR_NO_MEMORY, "valid shape rejected with %d (%s)", (int)r,
                 c2d_status_string(r));
        return;
    }
    FZ_CHECK(should_accept >= 0, "invalid shape accepted");
    FZ_CHECK(out != NULL && out != sentinel, "accepted constructor left *out unset");
    fz_check_shape(out);
    c2d_shape_destroy(st->slot[slot]);
    st->slot[slot] = out;
}

/* A pointer that is never a valid shape: the constructors must not write it over on failure. */
static c2d_shape *fz_sentinel(void)
{
    static char mark;
    return (c2d_shape *)(void *)&mark;
}

static void op_circle(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), r = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_circle_new(x, y, r, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(r) && r > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double rr;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_radius(out, &rr);
        FZ_CHECK(p.x == x && p.y == y && rr == r, "circle stored (%g, %g, %g) for (%g, %g, %g)", p.x, p.y, rr, x, y, r);
    }
    FZ_CHECK(c2d_circle_new(x, y, r, NULL) == C2D_ERR_NULL || !ok, "NULL out accepted");
}

static void op_rect(fz_state *st)
{
    int slot = fz_slot(st);
    double x = fz_number(st), y = fz_number(st), w = fz_number(st), h = fz_number(st), a = fz_number(st);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_rect_new(x, y, w, h, a, &out);
    int ok = fz_ok_number(x) && fz_ok_number(y) && fz_ok_number(w) && fz_ok_number(h) && fz_ok_number(a) && w > 0 &&
             h > 0;
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
    if (s == C2D_OK) {
        c2d_vec2 p;
        double aa;
        c2d_shape_get_position(out, &p);
        c2d_shape_get_angle(out, &aa);
        FZ_CHECK(p.x == x && p.y == y && aa == a, "rect stored at (%g, %g) angle %g", p.x, p.y, aa);
    }
}

static void op_two_point(fz_state *st, int capsule)
{
    int slot = fz_slot(st);
    c2d_vec2 a = fz_vec(st), b = fz_vec(st);
    double r = capsule ? fz_number(st) : 0.0;
    c2d_shape *out = fz_sentinel();
    c2d_status s = capsule ? c2d_capsule_new(a, b, r, &out) : c2d_segment_new(a, b, &out);
    int ok = fz_ok_vec(a) && fz_ok_vec(b) && !(a.x == b.x && a.y == b.y) && (!capsule || (fz_ok_number(r) && r > 0));
    fz_created(st, slot, s, ok ? 1 : -1, out, fz_sentinel());
}

static void op_capsule(fz_state *st)
{
    op_two_point(st, 1);
}

static void op_segment(fz_state *st)
{
    op_two_point(st, 0);
}

/* Polygons and hulls: raw points, or a regular k-gon (often valid) in either winding, possibly with
 * one vertex pushed inwards or duplicated. Also counts outside the accepted range. */
static void op_polygon_common(fz_state *st, int hull)
{
    int slot = fz_slot(st);
    uint8_t shape_byte = fz_byte(st);
    int n = shape_byte % 20;
    c2d_vec2 pts[FZ_MAX_POINTS];
    memset(pts, 0, sizeof pts);
    int pass_n = n;
    if (shape_byte == 0xFF)
        pass_n = -1;
    else if (shape_byte == 0xFE)
        pass_n = C2D_MAX_POLYGON_POINTS + 1; /* must be rejected before the points are read */
    uint8_t mode = fz_byte(st) % 4;
    if (mode == 0) {
        for (int i = 0; i < n; i++)
            pts[i] = fz_vec(st);
    } else {
        c2d_vec2 c = fz_vec(st);
        double rad = fz_number(st), phase = fz_number(st);
        for (int i = 0; i < n; i++) {
            double t = phase + 6.283185307179586 * i / (n ? n : 1);
            int k = mode == 3 ? n - 1 - i : i; /* mode 3: clockwise */
            pts[k] = fz_v(c.x + rad * cos(t), c.y + rad * sin(t));
        }
        if (mode == 2 && n > 0) {
            int k = fz_byte(st) % n;
            double f = fz_number(st);
            pts[k] = fz_v(c.x + (pts[k].x - c.x) * f, c.y + (pts[k].y - c.y) * f);
        }
    }
    int all_ok = 1;
    for (int i = 0; i < n; i++)
        all_ok &= fz_ok_vec(pts[i]);
    c2d_shape *out = fz_sentinel();
    c2d_status s = hull ? c2d_hull_new(pts, pass_n, &out) : c2d_polygon_new(pts, pass_n, &out);
    /* Convexity and degeneracy are the library's call; only the clear rejections are predicted. */
    int must_reject = !all_ok || pass_n < 3 || pass_n > C2D_MAX_POLYGON_POINTS;
    fz_created(st, slot, s, must_reject ? -1 : 0, out, fz_sentinel());
    if (s != C2D_OK)
        return;
    int count = 0;
    c2d_shape_get_vertices(out, NULL, 0, &count);
    FZ_CHECK(count >= 3 && count <= n, "polygon of %d points has %d vertices", n, count);
    /* Every input point lies in a hull, and (up to dropped collinear points) on a polygon. */
    double tol = FZ_REL_TOL * fz_shape_scale(out);
    for (int i = 0; i < n; i++) {
        double d = fz_sd(out, pts[i]);
        FZ_CHECK(d <= tol, "input point %d (%.17g, %.17g) is %g outside its %s", i, pts[i].x, pts[i].y, d,
                 hull ? "hull" : "polygon");
    }
    c2d_vec2 centroid;
    c2d_shape_get_position(out, &centroid);
    FZ_CHECK(fz_sd(out, centroid) <= tol, "centroid outside its polygon");
}

static void op_polygon(fz_state *st)
{
    op_polygon_common(st, 0);
}

static void op_hull(fz_state *st)
{
    op_polygon_common(st, 1);
}

static void op_clone(fz_state *st)
{
    int from = fz_slot(st), to = fz_slot(st);
    c2d_shape *out = fz_sentinel();
    c2d_status r = c2d_shape_clone(st->slot[from], &out);
    fz_check_status(r);
    if (!st->slot[from]) {
        FZ_CHECK(r == C2D_ERR_NULL && out == fz_sentinel(), "clone of NULL gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK, "clone failed with %d", (int)r);
    fz_snapshot s1, s2;
    fz_snapshot_take(st->slot[from], &s1);
    fz_snapshot_take(out, &s2);
    FZ_CHECK(fz_snapshot_equal(&s1, &s2), "clone differs from its original");
    if (from == to) {
        c2d_shape_destroy(out);
        return;
    }
    c2d_shape_destroy(st->slot[to]);
    st->slot[to] = out;
}

static void op_destroy(fz_state *st)
{
    int slot = fz_slot(st);
    c2d_shape_destroy(st->slot[slot]); /* NULL too: must be ignored */
    st->slot[slot] = NULL;
}

/* The transform setters. kind: 0 set_position, 1 set_angle, 2 set_transform, 3 move, 4 rotate.
 * A call is accepted exactly when its numbers, and the resulting position and angle, are finite and
 * within C2D_MAX_COORDINATE; accepted, it places the shape exactly as asked and moves it rigidly;
 * rejected, it changes nothing. */
static void op_transform(fz_state *st, int kind)
{
    int slot = fz_slot(st);
    c2d_shape *s = st->slot[slot];
    c2d_vec2 p = fz_v(0, 0);
    double a = 0;
    if (kind != 1 && kind != 4)
        p = fz_vec(st);
    if (kind == 1 || kind == 2 || kind == 4)
        a = fz_number(st);
    fz_snapshot before, after;
    double scale_before = fz_shape_scale(s);
    if (s)
        fz_snapshot_take(s, &before);
    else
        memset(&before, 0, sizeof before);
    c2d_vec2 want_pos = before.pos;
    double want_angle = before.angle;
    int ok = 1;
    c2d_status r;
    switch (kind) {
    case 0:
        r = c2d_shape_set_position(s, p);
        ok = fz_ok_vec(p);
        want_pos = p;
        break;
    case 1:
        r = c2d_shape_set_angle(s, a);
        ok = fz_ok_number(a);
        want_angle = a;
        break;
    case 2:
        r = c2d_shape_set_transform(s, p, a);
        ok = fz_ok_vec(p) && fz_ok_number(a);
        want_pos = p;
        want_angle = a;
        break;
    case 3:
        r = c2d_shape_move(s, p);
        want_pos = fz_v(before.pos.x + p.x, before.pos.y + p.y);
        ok = fz_ok_vec(p) && fz_ok_vec(want_pos);
        break;
    default:
        r = c2d_shape_rotate(s, a);
        want_angle = before.angle + a;
        ok = fz_ok_number(a) && fz_ok_number(want_angle);
        break;
    }
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL, "NULL shape gave %d", (int)r);
        return;
    }
    fz_snapshot_take(s, &after);
    if (r != C2D_OK) {
        FZ_CHECK(!ok, "valid transform rejected with %d", (int)r);
        FZ_CHECK(fz_snapshot_equal(&before, &after), "rejected transform changed the shape");
        return;
    }
    FZ_CHECK(ok, "out-of-range transform accepted: pos (%g, %g) angle %g", want_pos.x, want_pos.y, want_angle);
    FZ_CHECK(after.pos.x == want_pos.x && after.pos.y == want_pos.y && after.angle == want_angle,
             "transform left pos (%.17g, %.17g) angle %.17g, wanted (%.17g, %.17g) %.17g", after.pos.x, after.pos.y,
             after.angle, want_pos.x, want_pos.y, want_angle);
    fz_check_shape(s);
    FZ_CHECK(after.type == before.type && after.count == before.count && after.radius == before.radius,
             "transform changed the kind, vertex count or radius");
    /* Rigid motion: every vertex keeps its distance from the position (up to the rounding of the
     * placement before and after, which scales with the coordinates at both places). */
    double tol = FZ_REL_TOL * fmax(scale_before, fz_shape_scale(s));
    for (int i = 0; i < after.count; i++) {
        double l0 = fz_len(fz_sub(before.v[i], before.pos)), l1 = fz_len(fz_sub(after.v[i], after.pos));
        FZ_CHECK(fabs(l0 - l1) <= tol + FZ_REL_TOL * l0, "vertex %d moved from radius %.17g to %.17g", i, l0, l1);
    }
}

static void op_set_position(fz_state *st) { op_transform(st, 0); }
static void op_set_angle(fz_state *st) { op_transform(st, 1); }
static void op_set_transform(fz_state *st) { op_transform(st, 2); }
static void op_move(fz_state *st) { op_transform(st, 3); }
static void op_rotate(fz_state *st) { op_transform(st, 4); }

static void op_pair(fz_state *st)
{
    int i = fz_slot(st), j = fz_slot(st);
    fz_check_pair(st->slot[i], st->slot[j]);
}

/* Every pair of slots (including each shape with itself and with the empty slots). */
static void op_all_pairs(fz_state *st)
{
    for (int i = 0; i < FZ_SLOTS; i++)
        for (int j = i; j < FZ_SLOTS; j++)
            fz_check_pair(st->slot[i], st->slot[j]);
}

/* contains_point and closest_point at one point, and how they agree. */
static void op_point(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    c2d_vec2 p = fz_vec(st);
    uint8_t which = fz_byte(st) % 3; /* 0 both outputs, 1 point only, 2 distance only */
    int in;
    c2d_vec2 q;
    double sd;
    memset(&in, FZ_POISON, sizeof in);
    memset(&q, FZ_POISON, sizeof q);
    memset(&sd, FZ_POISON, sizeof sd);
    c2d_status r1 = c2d_contains_point(s, p, &in);
    c2d_status r2 = c2d_closest_point(s, p, which == 2 ? NULL : &q, which == 1 ? NULL : &sd);
    fz_check_status(r1);
    fz_check_status(r2);
    int ok = s && fz_ok_vec(p);
    if (!ok) {
        FZ_CHECK(r1 != C2D_OK && r2 != C2D_OK, "bad point query accepted");
        FZ_CHECK(fz_is_poison(&in, sizeof in) && fz_is_poison(&q, sizeof q) && fz_is_poison(&sd, sizeof sd),
                 "output written on error");
        return;
    }
    FZ_CHECK(r1 == C2D_OK && r2 == C2D_OK, "point query failed: %d %d", (int)r1, (int)r2);
    FZ_CHECK(c2d_closest_point(s, p, NULL, NULL) == C2D_ERR_NULL, "closest_point with no outputs accepted");
    FZ_CHECK(c2d_contains_point(s, p, NULL) == C2D_ERR_NULL, "contains_point with NULL out accepted");
    FZ_CHECK(in == 0 || in == 1, "contains wrote %d", in);
    if (fz_tolerated("tiny-edge") && fz_tiny_edge(s))
        return;
    if (which == 1)
        FZ_CHECK(fz_is_poison(&sd, sizeof sd), "distance written though not asked for");
    if (which == 2)
        FZ_CHECK(fz_is_poison(&q, sizeof q), "point written though not asked for");
    /* Both outputs, to check them against each other. */
    FZ_CHECK(c2d_closest_point(s, p, &q, &sd) == C2D_OK, "closest_point failed");
    FZ_CHECK(fz_finite_vec(q) && isfinite(sd), "closest point (%g, %g) distance %g", q.x, q.y, sd);
    double tol = FZ_REL_TOL * fmax(fz_shape_scale(s), fmax(fabs(p.x), fabs(p.y)));
    FZ_CHECK(fabs(fz_len(fz_sub(q, p)) - fabs(sd)) <= tol, "closest point %.17g away but signed distance %.17g",
             fz_len(fz_sub(q, p)), sd);
    if (fabs(sd) > tol)
        FZ_CHECK(in == (sd < 0), "contains %d but signed distance %.17g", in, sd);
    /* The closest point is on the boundary: its own distance is zero. Known bug "core-direction": for a
     * point on (or within rounding of) a capsule's core segment, the way out is taken from the rounding
     * residual of the projection and may run along the core, leaving the point inside. */
    if (fz_ok_vec(q)) {
        if (c2d_shape_get_type(s) == C2D_SHAPE_CAPSULE)
            FZ_CHECK_KNOWN("core-direction", fabs(fz_sd(s, q)) <= tol, "closest point is %.17g off the boundary",
                           fz_sd(s, q));
        FZ_CHECK(fabs(fz_sd(s, q)) <= tol, "closest point is %.17g off the boundary", fz_sd(s, q));
    }
}

/* A ray hit must lie on the shape's boundary, within max_t, with a unit normal facing the ray. */
static void fz_check_ray(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, const c2d_ray_hit *h)
{
    FZ_CHECK(h->hit == 0 || h->hit == 1, "hit wrote %d", h->hit);
    /* Known bug "tiny-direction": d.d underflows for |d| below about 1e-154; the circle quadratic then
     * reports hits that are not there, and the unit direction falls back to (1, 0). */
    if (fz_tolerated("tiny-direction") && fz_len(d) < 1e-150)
        return;
    if (!h->hit) {
        FZ_CHECK(h->t == 0 && h->point.x == 0 && h->point.y == 0 && h->normal.x == 0 && h->normal.y == 0,
                 "a miss with non-zero fields");
        return;
    }
    FZ_CHECK_KNOWN("ray-inf", isfinite(h->t), "hit at t = %g (max_t %g): a miss reported as a hit", h->t, max_t);
    FZ_CHECK(isfinite(h->t) && h->t >= 0 && h->t <= max_t, "hit at t = %g (max_t %g)", h->t, max_t);
    FZ_CHECK(fz_finite_vec(h->point), "hit point (%g, %g) not finite (t %g, direction (%g, %g))", h->point.x,
             h->point.y, h->t, d.x, d.y);
    fz_check_unit(h->normal, "ray normal");
    double scale = fmax(fz_shape_scale(s), fmax(fmax(fabs(o.x), fabs(o.y)), fmax(fabs(h->point.x), fabs(h->point.y))));
    double tol = FZ_REL_TOL * scale;
    c2d_vec2 want = fz_v(o.x + h->t * d.x, o.y + h->t * d.y);
    FZ_CHECK(fz_len(fz_sub(want, h->point)) <= tol, "hit point is not origin + t * direction");
    double sd = fz_sd(s, h->point);
    double radius = 0;
    c2d_shape_get_radius(s, &radius);
    /* Known bug "ray-precision": the ray-circle quadratic loses about half the digits (|o - c|^2 - r^2
     * cancels) when the origin is far from a rounded shape; the error then grows like sqrt(eps) times
     * the distance. Tolerated, that much is allowed. */
    if (radius > 0 && fabs(sd) > tol && fz_tolerated("ray-precision"))
        tol = 1e-7 * scale;
    if (h->t > 0)
        FZ_CHECK(fabs(sd) <= tol, "hit point (%.17g, %.17g) at t %.17g is %.17g off the boundary", h->point.x,
                 h->point.y, h->t, sd);
    else
        FZ_CHECK(sd <= tol, "hit at t = 0 from outside: origin %.17g from the shape", sd);
    double facing = h->normal.x * d.x + h->normal.y * d.y;
    /* The same cancellation puts the hit at the centre of a circle much smaller than its distance,
     * where the normal (hit - centre, normalised) points anywhere. */
    if (radius > 0)
        FZ_CHECK_KNOWN("ray-precision", facing <= 1e-9 * fz_len(d), "ray normal (%g, %g) does not face the ray (%g, %g)",
                       h->normal.x, h->normal.y, d.x, d.y);
    FZ_CHECK(facing <= 1e-9 * fz_len(d), "ray normal (%g, %g) does not face the ray (%g, %g)", h->normal.x, h->normal.y,
             d.x, d.y);
}

static void op_raycast(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    c2d_vec2 o = fz_vec(st), d = fz_vec(st);
    double max_t = fz_number(st);
    c2d_ray_hit h;
    memset(&h, FZ_POISON, sizeof h);
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    fz_check_status(r);
    int ok = s && fz_ok_vec(o) && fz_ok_vec(d) && !isnan(max_t) && max_t >= 0 && !(d.x == 0 && d.y == 0);
    if (!ok) {
        FZ_CHECK(r != C2D_OK, "bad ray accepted");
        FZ_CHECK(fz_is_poison(&h, sizeof h), "output written on error");
        return;
    }
    FZ_CHECK(r == C2D_OK, "valid ray rejected with %d", (int)r);
    FZ_CHECK(c2d_raycast(s, o, d, max_t, NULL) == C2D_ERR_NULL, "NULL out accepted");
    /* Known bug "tiny-direction": d.d underflows for |d| below about 1e-154 and the circle quadratic
     * then reports hits that are not there. */

    if (fz_tolerated("tiny-edge") && fz_tiny_edge(s))
        return;
    fz_check_ray(s, o, d, max_t, &h);
}

/* A ray from a point aimed at the shape's position (which every kind contains) must hit by t = 1.
 * A segment's position is on its surface, so the crossing is at t = 1 up to rounding: max_t allows it. */
static void op_aimed_ray(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    c2d_vec2 o = fz_vec(st);
    if (!s || !fz_ok_vec(o))
        return;
    c2d_vec2 p;
    c2d_shape_get_position(s, &p);
    c2d_vec2 d = fz_sub(p, o);
    c2d_ray_hit h;
    const double max_t = 1.000001;
    c2d_status r = c2d_raycast(s, o, d, max_t, &h);
    if (d.x == 0 && d.y == 0) {
        FZ_CHECK(r == C2D_ERR_DEGENERATE, "zero direction gave %d", (int)r);
        return;
    }
    if (!fz_ok_vec(d))
        return; /* the difference itself may leave the accepted range */
    FZ_CHECK(r == C2D_OK, "aimed ray rejected with %d", (int)r);
    if (fz_tolerated("tiny-edge") && fz_tiny_edge(s))
        return;
    fz_check_ray(s, o, d, max_t, &h);
    double radius = 0;
    c2d_shape_get_radius(s, &radius);
    /* A precision limit, not a bug: aiming at the centre is only exact to the rounding of the ray's
     * direction, about 1e-16 of the distance, so a radius far below that may be missed. */
    if (radius > 0 && radius < 1e-12 * (fz_len(d) + fabs(p.x) + fabs(p.y)))
        return;
    if (c2d_shape_get_type(s) == C2D_SHAPE_SEGMENT) {
        /* A segment has no area: where a ray crosses it at a grazing angle is ill-conditioned (the
         * crossing moves by about ulp / sin(angle)), so a hit is only required at a fair angle. */
        c2d_vec2 v[2];
        int n = 0;
        c2d_shape_get_vertices(s, v, 2, &n);
        c2d_vec2 e = fz_sub(v[1], v[0]);
        double sin_angle = fabs(d.x * e.y - d.y * e.x) / (fz_len(d) * fz_len(e));
        double scale = fmax(fz_shape_scale(s), fmax(fabs(o.x), fabs(o.y)));
        if (!(sin_angle * fz_len(d) >= 1e-6 * scale))
            return;
    }
    FZ_CHECK(h.hit, "ray from (%.17g, %.17g) aimed at the position (%.17g, %.17g) missed", o.x, o.y, p.x, p.y);
}

/* Vertex reads with every kind of capacity. */
static void op_vertices(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int cap = (int)(int8_t)fz_byte(st) % 40;
    int use_null = cap <= 0 && (fz_byte(st) & 1);
    c2d_vec2 buf[40];
    int count;
    memset(buf, FZ_POISON, sizeof buf);
    memset(&count, FZ_POISON, sizeof count);
    c2d_status r = c2d_shape_get_vertices(s, use_null ? NULL : buf, cap, &count);
    fz_check_status(r);
    if (!s) {
        FZ_CHECK(r == C2D_ERR_NULL && fz_is_poison(&count, sizeof count), "NULL shape gave %d", (int)r);
        return;
    }
    if (cap < 0) {
        FZ_CHECK(r == C2D_ERR_RANGE && fz_is_poison(buf, sizeof buf), "negative capacity gave %d", (int)r);
        return;
    }
    FZ_CHECK(r == C2D_OK || r == C2D_ERR_CAPACITY, "get_vertices gave %d", (int)r);
    FZ_CHECK(count >= 1 && count <= FZ_MAX_VERTS, "count %d", count);
    if (use_null || cap < count)
        FZ_CHECK(fz_is_poison(buf, sizeof buf), "vertices written beyond the capacity");
    else
        FZ_CHECK(fz_is_poison(buf + count, sizeof buf - (size_t)count * sizeof buf[0]),
                 "vertices written past the count");
    FZ_CHECK(r == ((use_null || cap >= count) ? C2D_OK : C2D_ERR_CAPACITY), "capacity %d for %d vertices gave %d",
             cap, count, (int)r);
}

/* Getters and the status strings with arbitrary values, NULL outputs included. */
static void op_misc(fz_state *st)
{
    c2d_shape *s = st->slot[fz_slot(st)];
    int code = (int)(int8_t)fz_byte(st);
    FZ_CHECK(c2d_status_string((c2d_status)code) != NULL, "status string NULL for %d", code);
    FZ_CHECK(c2d_version() == C2D_VERSION_NUMBER && c2d_version_string() != NULL, "version mismatch");
    FZ_CHECK(c2d_shape_get_position(s, NULL) == C2D_ERR_NULL && c2d_shape_get_angle(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_aabb(s, NULL) == C2D_ERR_NULL && c2d_shape_get_radius(s, NULL) == C2D_ERR_NULL &&
                 c2d_shape_get_vertices(s, NULL, 0, NULL) == C2D_ERR_NULL,
             "NULL out accepted by a getter");
    FZ_CHECK(c2d_shape_clone(s, NULL) == C2D_ERR_NULL, "clone to NULL accepted");
    if (s)
        fz_check_shape(s);
    else
        FZ_CHECK(c2d_shape_get_type(NULL) == C2D_SHAPE_NONE, "type of NULL");
}

/* The op table. Append only (see the file comment); the index is the op byte's low 6 bits. */
static const struct {
    const char *name;
    void (*run)(fz_state *);
} fz_ops[] = {
    {"circle", op_circle},
    {"rect", op_rect},
    {"polygon", op_polygon},
    {"hull", op_hull},
    {"capsule", op_capsule},
    {"segment", op_segment},
    {"clone", op_clone},
    {"destroy", op_destroy},
    {"set_position", op_set_position},
    {"set_angle", op_set_angle},
    {"set_transform", op_set_transform},
    {"move", op_move},
    {"rotate", op_rotate},
    {"pair", op_pair},
    {"all_pairs", op_all_pairs},
    {"point", op_point},
    {"raycast", op_raycast},
    {"aimed_ray", op_aimed_ray},
    {"vertices", op_vertices},
    {"misc", op_misc},
    /* sweep and world operations go here, appended */
};
#define FZ_NOPS ((int)(sizeof fz_ops / sizeof fz_ops[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_state st;
    memset(&st, 0, sizeof st);
    st.p = data;
    st.n = size;
    if (fz_trace < 0)
        fz_trace = getenv("FZ_TRACE") != NULL;
    fz_trace_slots = st.slot;
    /* Bounded work per input, whatever its length. */
    for (int steps = 0; st.n > 0 && steps < 64; steps++) {
        int op = fz_byte(&st) % FZ_OP_SLOTS;
        if (op >= FZ_NOPS)
            continue;
        fz_current_op = fz_ops[op].name;
        if (fz_trace)
            fprintf(stderr, "%s", fz_current_op);
        fz_ops[op].run(&st);
        if (fz_trace)
            fprintf(stderr, "\n");
    }
    fz_current_op = "all_pairs (final)";
    op_all_pairs(&st);
    for (int i = 0; i < FZ_SLOTS; i++)
        c2d_shape_destroy(st.slot[i]);
    return 0;
}
