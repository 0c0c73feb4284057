/* shape.c - shape handles: construction and validation, placement (position and angle), bounding
 * boxes, vertices, cloning, and the storage of a compound's parts (parts.h: placed with it, freed and
 * copied with it, which of them meet); plus the version and status-string calls. Layer 2, shapes. */
/* posix_memalign is POSIX, not C99: declared only when asked for, and a build with flags of its own
 * (plain -std=c99) may not ask. Before any include. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L
#endif
#include "parts.h"
#include "predicates.h"
#include "trig.h"

#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <malloc.h> /* _aligned_malloc */
#endif

#define C2D_STR2(x) #x
#define C2D_STR(x) C2D_STR2(x)

int c2d_version(void)
{
    return C2D_VERSION_NUMBER;
}

const char *c2d_version_string(void)
{
    return C2D_STR(C2D_VERSION_MAJOR) "." C2D_STR(C2D_VERSION_MINOR) "." C2D_STR(C2D_VERSION_PATCH);
}

const char *c2d_status_string(c2d_status status)
{
    switch (status) {
    case C2D_OK: return "ok";
    case C2D_ERR_NULL: return "NULL argument";
    case C2D_ERR_NOT_FINITE: return "number is NaN or infinite";
    case C2D_ERR_RANGE: return "number or count out of range";
    case C2D_ERR_SIZE: return "size or radius must be positive";
    case C2D_ERR_DEGENERATE: return "degenerate geometry (too few distinct points, collinear, or zero length)";
    case C2D_ERR_NOT_CONVEX: return "points do not form a convex polygon";
    case C2D_ERR_NO_MEMORY: return "out of memory";
    case C2D_ERR_CAPACITY: return "output array too small";
    case C2D_ERR_NOT_SIMPLE: return "polygon not simple (crosses or touches itself, or a hole leaves the outline or meets another)";
    }
    return "unknown status";
}

const c2d_vec2 c2d_rect_normals[4] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};

/* Entries of data a kind keeps (see struct c2d_shape). */
static size_t data_slots(c2d_shape_type type, int count)
{
    switch (type) {
    case C2D_SHAPE_CIRCLE: return 0;
    case C2D_SHAPE_RECT: return 1;
    /* A triangle keeps two zero entries after its normals, room its 64-byte block has anyway: the
     * ray cast reads 8 entries of any polygon of 3 to 8 vertices without asking how many it has. */
    case C2D_SHAPE_POLYGON: return count < 4 ? 8 : 2 * (size_t)count;
    /* The points, then one slot for the pointer to the parts (see c2d_compound_of). */
    case C2D_SHAPE_CHAIN:
    case C2D_SHAPE_CONCAVE: return (size_t)count + 1;
    default: return 2 * (size_t)count;
    }
}

static size_t shape_bytes(const c2d_shape *s)
{
    return sizeof(c2d_shape) + data_slots(s->type, s->count) * sizeof(c2d_vec2);
}

/* Shapes start on a cache line: the header (64 bytes, a whole circle) is then one line and an 8-gon
 * five, where malloc's 16-byte alignment would spread them over one more. That line is what a query
 * of a shape not in the cache waits for. */
#define C2D_SHAPE_ALIGN 64
typedef char c2d_shape_header_fits_a_line[sizeof(struct c2d_shape) <= C2D_SHAPE_ALIGN ? 1 : -1];

static void *aligned_block(size_t bytes)
{
    bytes = (bytes + C2D_SHAPE_ALIGN - 1) & ~(size_t)(C2D_SHAPE_ALIGN - 1);
#if defined(_WIN32)
    return _aligned_malloc(bytes, C2D_SHAPE_ALIGN);
#else
    void *p = NULL;
    return posix_memalign(&p, C2D_SHAPE_ALIGN, bytes) == 0 ? p : NULL;
#endif
}

static void aligned_free(void *p)
{
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

/* A new shape of a kind with count core vertices, at the origin with angle 0, or NULL. */
static c2d_shape *shape_alloc(c2d_shape_type type, int count)
{
    size_t bytes = sizeof(c2d_shape) + data_slots(type, count) * sizeof(c2d_vec2);
    c2d_shape *s = (c2d_shape *)aligned_block(bytes);
    if (!s)
        return NULL;
    memset(s, 0, bytes);
    s->type = type;
    s->count = count;
    s->c = 1.0;
    return s;
}

/* Sets the angle, with its cosine and sine. */
static void set_angle(c2d_shape *s, double angle)
{
    s->angle = angle;
    /* A circle's core is its centre, which no rotation moves: it keeps the identity (1, 0), and
     * turning it costs nothing. */
    if (s->type != C2D_SHAPE_CIRCLE)
        c2d_sincos(angle, &s->s, &s->c); /* not libm's sin and cos: the same bits on every platform */
}

/* The stored local normals of a capsule, segment or polygon from its local vertices, and the reach of
 * every kind. */
static void finish_core(c2d_shape *s)
{
    int n = s->count;
    double far = 0;
    if (s->type == C2D_SHAPE_RECT) {
        far = v2_len_safe(s->data[0]);
    } else if (n >= 2) {
        c2d_vec2 *v = s->data, *nrm = s->data + n;
        for (int i = 0; i < n; i++) {
            nrm[i] = v2_normalize_or(v2_right(v2_sub(v[(i + 1) % n], v[i])), v2(0, 1));
            double d = v2_len_safe(v[i]);
            far = d > far ? d : far;
        }
    }
    /* Rounded up by a relative 1e-15: the circle must hold every placed vertex, which rounding may
     * put a few ulps beyond where the exact rotation does. */
    s->reach = (far + s->radius) * (1 + 1e-15);
}

c2d_shape *c2d_shape_alloc_compound(c2d_shape_type type, const c2d_vec2 *pts, int m, c2d_compound *c)
{
    c2d_shape *s = shape_alloc(type, m);
    if (!s)
        return NULL;
    double far = 0;
    for (int i = 0; i < m; i++) {
        s->data[i] = pts[i];
        far = fmax(far, v2_len_safe(pts[i]));
    }
    memcpy(&s->data[m], &c, sizeof c);
    s->reach = far * (1 + 1e-15);
    return s;
}

void c2d_shape_place(c2d_shape *s, c2d_vec2 p, double angle, double c, double sn)
{
    s->pos = p;
    s->angle = angle;
    if (s->type != C2D_SHAPE_CIRCLE) {
        s->c = c;
        s->s = sn;
    }
    if (c2d_is_compound(s))
        c2d_compound_place(s);
}

c2d_aabb c2d_shape_aabb(const c2d_shape *s)
{
    c2d_core_buf buf;
    c2d_core k = c2d_local_core(s, &buf);
    c2d_xf x = c2d_shape_xf(s);
    c2d_vec2 lo = c2d_xf_apply(x, k.v[0]), hi = lo;
    for (int i = 1; i < k.count; i++) {
        c2d_vec2 w = c2d_xf_apply(x, k.v[i]);
        lo = v2(w.x < lo.x ? w.x : lo.x, w.y < lo.y ? w.y : lo.y);
        hi = v2(w.x > hi.x ? w.x : hi.x, w.y > hi.y ? w.y : hi.y);
    }
    c2d_aabb b;
    b.min = v2(lo.x - s->radius, lo.y - s->radius);
    b.max = v2(hi.x + s->radius, hi.y + s->radius);
    return b;
}

static c2d_status finish(c2d_shape *s, c2d_shape **out)
{
    finish_core(s);
    *out = s;
    return C2D_OK;
}

c2d_status c2d_circle_new(double x, double y, double r, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(x)) || (st = c2d_check_number(y)) || (st = c2d_check_number(r)))
        return st;
    if (!(r > 0))
        return C2D_ERR_SIZE;
    c2d_shape *s = shape_alloc(C2D_SHAPE_CIRCLE, 1);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->radius = r;
    s->pos = v2(x, y);
    return finish(s, out);
}

c2d_status c2d_rect_new(double cx, double cy, double w, double h, double angle, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(cx)) || (st = c2d_check_number(cy)) || (st = c2d_check_number(w)) ||
        (st = c2d_check_number(h)) || (st = c2d_check_number(angle)))
        return st;
    if (!(w > 0) || !(h > 0))
        return C2D_ERR_SIZE;
    c2d_shape *s = shape_alloc(C2D_SHAPE_RECT, 4);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->data[0] = v2(0.5 * w, 0.5 * h);
    s->pos = v2(cx, cy);
    set_angle(s, angle);
    return finish(s, out);
}

/* Capsules and segments: a 2-vertex core centred on the midpoint. */
static c2d_status new_two_point(c2d_shape_type type, c2d_vec2 a, c2d_vec2 b, double r, c2d_shape **out)
{
    c2d_status st;
    if (!out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(a)) || (st = c2d_check_vec(b)) || (st = c2d_check_number(r)))
        return st;
    if (type == C2D_SHAPE_CAPSULE && !(r > 0))
        return C2D_ERR_SIZE;
    if (a.x == b.x && a.y == b.y)
        return C2D_ERR_DEGENERATE;
    c2d_shape *s = shape_alloc(type, 2);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->radius = r;
    s->pos = v2_mid(a, b);
    s->data[0] = v2_sub(a, s->pos);
    s->data[1] = v2_sub(b, s->pos);
    return finish(s, out);
}

c2d_status c2d_capsule_new(c2d_vec2 a, c2d_vec2 b, double r, c2d_shape **out)
{
    return new_two_point(C2D_SHAPE_CAPSULE, a, b, r, out);
}

/* An axis-aligned rectangle covering box, for queries: the box's corners are checked by the caller,
 * but its sides may reach 2 * C2D_MAX_COORDINATE, which c2d_rect_new would refuse as a size. */
c2d_status c2d_box_probe_new(c2d_aabb box, c2d_shape **out)
{
    c2d_shape *s = shape_alloc(C2D_SHAPE_RECT, 4);
    if (!s)
        return C2D_ERR_NO_MEMORY;
    s->data[0] = v2(0.5 * (box.max.x - box.min.x), 0.5 * (box.max.y - box.min.y));
    s->pos = v2(0.5 * box.min.x + 0.5 * box.max.x, 0.5 * box.min.y + 0.5 * box.max.y);
    return finish(s, out);
}

c2d_status c2d_segment_new(c2d_vec2 a, c2d_vec2 b, c2d_shape **out)
{
    return new_two_point(C2D_SHAPE_SEGMENT, a, b, 0.0, out);
}

/* Polygons: validated points, placed at their centroid. */

/* The centroid of a strictly convex counter-clockwise polygon (m >= 3), by a fan of triangles about
 * its first vertex: relative coordinates keep precision far from the origin. A polygon smaller than
 * 2^-300 across is measured scaled up by a power of two, which changes no bit of the result but keeps
 * the products of its coordinates from underflowing (a polygon 1e-156 wide had an area of 0 and a
 * centroid of NaN). Coordinates within C2D_MAX_COORDINATE cannot overflow them.
 *
 * Each triangle's area is a difference of products, and in a sliver (a polygon far thinner than it is
 * long, which is valid however thin) those products cancel: the plain sum can be wrong in every digit,
 * 0 or negative, and the centroid anywhere. So the sum is trusted only when it stands far above its
 * own rounding (each area is off by at most a few ulps of its two products, |x1 y2| + |y1 x2|, summed
 * in t); otherwise each triangle's area is computed to a few ulps of its exact value (c2d_cross_scaled,
 * never negative here), and the centroid, a mean of the triangles' centroids with those weights, lies
 * in the polygon up to the rounding of its corners. Ordinary polygons take the first path only. */
static c2d_vec2 polygon_centroid(const c2d_vec2 *v, int m)
{
    c2d_vec2 o = v[0], acc = v2(0, 0);
    double size = 0, k = 1;
    for (int i = 1; i < m; i++)
        size = c2d_maxd(size, c2d_maxd(fabs(v[i].x - o.x), fabs(v[i].y - o.y)));
    if (size > 0 && size < 0x1p-300) {
        int e = -ilogb(size);
        k = ldexp(1.0, e > 1000 ? 1000 : e); /* 2^1074 for a denormal size would overflow */
    }
    double area2 = 0, t = 0;
    for (int i = 1; i + 1 < m; i++) {
        c2d_vec2 e1 = v2_scale(v2_sub(v[i], o), k), e2 = v2_scale(v2_sub(v[i + 1], o), k);
        double a = v2_cross(e1, e2);
        area2 += a;
        t += fabs(e1.x * e2.y) + fabs(e1.y * e2.x);
        acc = v2_mad(acc, a, v2_add(e1, e2));
    }
    /* 1e-6 t bounds the sum's rounding (about 4 eps t, and m eps of the sum itself) a billion times. */
    if (area2 > 1e-6 * t)
        return v2_add(o, v2_scale(v2_scale(acc, 1.0 / (3.0 * area2)), 1 / k));
    /* The weights, scaled so that the largest difference is near 2^400: at most about 2^803 each, and
     * times corners below 2^52, summed over C2D_MAX_POLYGON_POINTS, still far from overflowing. */
    int kw = 400 - ilogb(size);
    double wsum = 0;
    acc = v2(0, 0);
    for (int i = 1; i + 1 < m; i++) {
        c2d_vec2 e1 = v2_scale(v2_sub(v[i], o), k), e2 = v2_scale(v2_sub(v[i + 1], o), k);
        double w = c2d_maxd(c2d_cross_scaled(o, v[i], v[i + 1], kw), 0);
        wsum += w;
        acc = v2_mad(acc, w, v2_add(e1, e2));
    }
    if (wsum > 0)
        return v2_add(o, v2_scale(v2_scale(acc, 1.0 / (3.0 * wsum)), 1 / k));
    /* Every weight underflowed (points mixing magnitudes 1e-300 apart): the mean of the vertices, which
     * is still inside. */
    acc = v2(0, 0);
    for (int i = 1; i < m; i++)
        acc = v2_add(acc, v2_scale(v2_sub(v[i], o), k));
    return v2_add(o, v2_scale(v2_scale(acc, 1.0 / m), 1 / k));
}

/* The vertices are kept relative to the centroid, each rounded there. In a polygon thinner than that
 * rounding (a few ulps of its size) the rounded vertices may no longer turn left at every corner, and
 * every query in the polygon's own frame relies on a convex core: then the core is the hull of the
 * rounded vertices (dropping a vertex that rounded onto or inside its neighbours' line), and a polygon
 * the rounding flattened onto one line has no core at all (C2D_ERR_DEGENERATE, as the header says).
 * check_range: the points are the caller's (each within C2D_MAX_COORDINATE); without it they are a
 * compound's parts measured from its position, finite but possibly up to twice that far. */
static c2d_status new_polygon(const c2d_vec2 *points, int n, int hull, int check_range, c2d_shape **out)
{
    c2d_status st;
    if (!out || !points)
        return C2D_ERR_NULL;
    if (n < 0 || n > C2D_MAX_POLYGON_POINTS)
        return C2D_ERR_RANGE;
    for (int i = 0; i < n && check_range; i++)
        if ((st = c2d_check_vec(points[i])) != C2D_OK)
            return st;
    if (n < 3)
        return C2D_ERR_DEGENERATE;
    c2d_vec2 *clean = (c2d_vec2 *)malloc(2 * (size_t)n * sizeof(c2d_vec2));
    if (!clean)
        return C2D_ERR_NO_MEMORY;
    c2d_vec2 *local = clean + n;
    int m = 0;
    st = c2d_convex_points(points, n, hull, clean, &m);
    if (st != C2D_OK) {
        free(clean);
        return st;
    }
    c2d_vec2 centroid = polygon_centroid(clean, m);
    int convex = 1;
    for (int i = 0; i < m; i++)
        local[i] = v2_sub(clean[i], centroid);
    for (int i = 0; i < m && convex; i++)
        convex = c2d_orient(local[(i + m - 1) % m], local[i], local[(i + 1) % m]) > 0;
    if (!convex) {
        memcpy(clean, local, (size_t)m * sizeof(c2d_vec2));
        st = c2d_convex_points(clean, m, 1, local, &m);
        if (st != C2D_OK) {
            free(clean);
            return st == C2D_ERR_NO_MEMORY ? st : C2D_ERR_DEGENERATE;
        }
    }
    c2d_shape *s = shape_alloc(C2D_SHAPE_POLYGON, m);
    if (!s) {
        free(clean);
        return C2D_ERR_NO_MEMORY;
    }
    s->pos = centroid;
    memcpy(s->data, local, (size_t)m * sizeof(c2d_vec2));
    free(clean);
    return finish(s, out);
}

c2d_status c2d_polygon_new(const c2d_vec2 *points, int n, c2d_shape **out)
{
    return new_polygon(points, n, 0, 1, out);
}

c2d_status c2d_hull_new(const c2d_vec2 *points, int n, c2d_shape **out)
{
    return new_polygon(points, n, 1, 1, out);
}

c2d_status c2d_part_hull_new(const c2d_vec2 *points, int n, c2d_shape **out)
{
    return new_polygon(points, n, 1, 0, out);
}

c2d_status c2d_shape_clone(const c2d_shape *shape, c2d_shape **out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    c2d_shape *s = (c2d_shape *)aligned_block(shape_bytes(shape));
    if (!s)
        return C2D_ERR_NO_MEMORY;
    memcpy(s, shape, shape_bytes(shape));
    if (c2d_is_compound(shape)) {
        c2d_compound *c;
        if (c2d_compound_clone(c2d_compound_of(shape), &c) != C2D_OK) {
            aligned_free(s);
            return C2D_ERR_NO_MEMORY;
        }
        memcpy(&s->data[s->count], &c, sizeof c);
        c2d_compound_place(s);
    }
    *out = s;
    return C2D_OK;
}

void c2d_shape_destroy(c2d_shape *shape)
{
    if (shape && c2d_is_compound(shape))
        c2d_compound_free(c2d_compound_of(shape));
    aligned_free(shape);
}

c2d_shape_type c2d_shape_get_type(const c2d_shape *shape)
{
    return shape ? shape->type : C2D_SHAPE_NONE;
}

c2d_status c2d_shape_get_position(const c2d_shape *shape, c2d_vec2 *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->pos;
    return C2D_OK;
}

c2d_status c2d_shape_get_angle(const c2d_shape *shape, double *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->angle;
    return C2D_OK;
}

c2d_status c2d_shape_set_transform(c2d_shape *shape, c2d_vec2 p, double angle)
{
    if (!shape)
        return C2D_ERR_NULL;
    /* One test for the usual case (NaN fails every comparison); the status only when it fails. */
    if (!(fabs(p.x) <= C2D_MAX_COORDINATE && fabs(p.y) <= C2D_MAX_COORDINATE && fabs(angle) <= C2D_MAX_COORDINATE)) {
        c2d_status st = c2d_check_vec(p);
        return st != C2D_OK ? st : c2d_check_number(angle);
    }
    /* O(1) whatever the vertex count: queries place the core themselves. A new angle costs its
     * cosine and sine; an unchanged one (a pure move) nothing more. The coordinates are stored one by
     * one from their registers (see C2D_SCALAR): the next query loads them as soon as they are. */
    double px = p.x, py = p.y;
    C2D_SCALAR(px);
    C2D_SCALAR(py);
    shape->pos.x = px;
    shape->pos.y = py;
    if (angle != shape->angle)
        set_angle(shape, angle);
    if (shape->type >= C2D_SHAPE_CHAIN) /* a compound: its parts move with it */
        c2d_compound_place(shape);
    return C2D_OK;
}

c2d_status c2d_shape_set_position(c2d_shape *shape, c2d_vec2 p)
{
    if (!shape)
        return C2D_ERR_NULL;
    return c2d_shape_set_transform(shape, p, shape->angle);
}

c2d_status c2d_shape_set_angle(c2d_shape *shape, double angle)
{
    if (!shape)
        return C2D_ERR_NULL;
    return c2d_shape_set_transform(shape, shape->pos, angle);
}

c2d_status c2d_shape_move(c2d_shape *shape, c2d_vec2 d)
{
    c2d_status st;
    if (!shape)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(d)) != C2D_OK)
        return st;
    return c2d_shape_set_transform(shape, v2_add(shape->pos, d), shape->angle);
}

c2d_status c2d_shape_rotate(c2d_shape *shape, double delta)
{
    c2d_status st;
    if (!shape)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(delta)) != C2D_OK)
        return st;
    return c2d_shape_set_transform(shape, shape->pos, shape->angle + delta);
}

c2d_status c2d_shape_get_aabb(const c2d_shape *shape, c2d_aabb *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = c2d_shape_aabb(shape);
    return C2D_OK;
}

c2d_status c2d_shape_get_radius(const c2d_shape *shape, double *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = shape->radius;
    return C2D_OK;
}

c2d_status c2d_shape_get_vertices(const c2d_shape *shape, c2d_vec2 *out, int capacity, int *count)
{
    if (!shape || !count)
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    if (capacity > 0 && !out)
        return C2D_ERR_NULL;
    *count = shape->count;
    if (!out)
        return C2D_OK;
    if (capacity < shape->count)
        return C2D_ERR_CAPACITY;
    c2d_core_buf buf;
    c2d_core k = c2d_local_core(shape, &buf);
    c2d_xf x = c2d_shape_xf(shape);
    for (int i = 0; i < k.count; i++)
        out[i] = c2d_xf_apply(x, k.v[i]);
    return C2D_OK;
}

/* ---- the parts of a compound (parts.h): which meet, where they stand, freeing and copying them ---- */

static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

static int compare_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int c2d_compound_meet(const c2d_compound *c, int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    long long key = (long long)a * c->n + b;
    if (c->n_adj > 0 && bsearch(&key, c->adj, (size_t)c->n_adj, sizeof key, compare_ll) != NULL)
        return C2D_PARTS_JOINT;
    if (!c->vid)
        return C2D_PARTS_APART;
    /* Each corner of the part with fewer looked up among the other's: a big part is asked about
     * every small one near it, and pays for the small one's corners only. */
    int na = c->vstart[a + 1] - c->vstart[a], nb = c->vstart[b + 1] - c->vstart[b];
    const int *few = c->vid + c->vstart[na <= nb ? a : b], *many = c->vid + c->vstart[na <= nb ? b : a];
    int nfew = na <= nb ? na : nb, nmany = na <= nb ? nb : na;
    for (int i = 0; i < nfew; i++)
        if (bsearch(&few[i], many, (size_t)nmany, sizeof *many, compare_int))
            return C2D_PARTS_CORNER;
    return C2D_PARTS_APART;
}

int c2d_compound_count(const c2d_shape *s)
{
    return c2d_compound_of(s)->n;
}

const c2d_shape *c2d_compound_part(const c2d_shape *s, int k)
{
    return c2d_compound_of(s)->part[k];
}

c2d_vec2 c2d_compound_part_one_way(const c2d_shape *s, int k)
{
    const c2d_compound *c = c2d_compound_of(s);
    if (!c->one_sided)
        return v2(0, 0);
    const c2d_shape *p = c->part[k];
    c2d_vec2 a = c2d_world_vertex(p, 0), b = c2d_world_vertex(p, 1);
    return v2_normalize_or(v2_right(v2_sub(b, a)), v2(0, 0));
}

void c2d_compound_free(c2d_compound *c)
{
    if (!c)
        return;
    for (int k = 0; k < c->n; k++) {
        if (c->part)
            c2d_shape_destroy(c->part[k]);
        if (c->lpart)
            c2d_shape_destroy(c->lpart[k]);
    }
    free(c->part);
    free(c->lpart);
    free(c->lpos);
    free(c->adj);
    free(c->vstart);
    free(c->vid);
    free(c->hole_start);
    free(c->hole_pt);
    if (c->set)
        c->drop_set(c->set);
    free(c);
}

void c2d_compound_place(c2d_shape *s)
{
    c2d_compound *c = c2d_compound_of(s);
    c2d_xf x = c2d_shape_xf(s);
    for (int k = 0; k < c->n; k++)
        c2d_shape_place(c->part[k], c2d_xf_apply(x, c->lpos[k]), s->angle, x.c, x.s);
}

c2d_status c2d_compound_clone(const c2d_compound *src, c2d_compound **out)
{
    return src->copy(src, out);
}

c2d_vec2 c2d_shape_frame_point(const c2d_shape *s, c2d_vec2 local)
{
    c2d_xf x = c2d_shape_xf(s);
    if (s->type == C2D_SHAPE_CIRCLE && s->angle != 0)
        c2d_sincos(s->angle, &x.s, &x.c);
    return c2d_xf_apply(x, local);
}
