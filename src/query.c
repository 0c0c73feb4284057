/* query.c - questions about one shape and a point or a ray: containment, the nearest boundary point
 * with signed distance, and ray casts (for polygons, from the side of the ray's line each vertex lies
 * on; for segments, from exact signs; for rounded cores, offset edges plus corner circles, with the
 * quadratic solved in its cancellation-free form). Layer 3, kernels. */
/* GCC's basic-block vectoriser pairs the x and y halves of this file's small vector arithmetic into
 * 16-byte registers, at the price of a shuffle on either side of nearly every operation (and of
 * reloads the processor cannot forward: see C2D_SCALAR): slower here than the scalar code, and the
 * offsets of vertices from a ray's line are paired by hand where pairing pays. Before the headers, so
 * that their inline functions are compiled with the same options and inlined. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif
#include "predicates.h"
#include "shape.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

/* Greatest signed distance of p from the edge lines of a polygon core (<= 0 inside). */
static double polygon_separation(const c2d_core *k, c2d_vec2 p, int *edge)
{
    double best = -INFINITY;
    *edge = 0;
    for (int i = 0; i < k->count; i++) {
        double d = v2_dot(k->n[i], v2_sub(p, k->v[i]));
        if (d > best) {
            best = d;
            *edge = i;
        }
    }
    return best;
}

/* Whether p lies between the lines square to a 2-vertex core through its ends (measured along the
 * unit direction of the core, so that nothing underflows for a short core). */
static int in_segment_slab(const c2d_core *k, c2d_vec2 p)
{
    c2d_vec2 u = v2(-k->n[0].y, k->n[0].x);
    double along = v2_dot(v2_sub(p, k->v[0]), u), len = v2_dot(v2_sub(k->v[1], k->v[0]), u);
    return along >= 0 && along <= len;
}

c2d_status c2d_convex_contains_point(const c2d_shape *shape, c2d_vec2 p, int *out)
{
    int e;
    c2d_xf x = c2d_shape_xf(shape);
    switch (shape->type) {
    case C2D_SHAPE_RECT: {
        c2d_vec2 l = c2d_xf_local(x, p);
        *out = fabs(l.x) <= shape->data[0].x && fabs(l.y) <= shape->data[0].y;
        break;
    }
    case C2D_SHAPE_POLYGON: {
        c2d_core_buf buf;
        c2d_core k = c2d_local_core(shape, &buf);
        *out = polygon_separation(&k, c2d_xf_local(x, p), &e) <= 0;
        break;
    }
    case C2D_SHAPE_SEGMENT: {
        /* Exactly on the segment as placed: on its line (an exact sign) and within the box of its ends. */
        c2d_vec2 a = c2d_world_vertex(shape, 0), b = c2d_world_vertex(shape, 1);
        *out = c2d_orient(a, b, p) == 0 && p.x >= c2d_mind(a.x, b.x) && p.x <= c2d_maxd(a.x, b.x) &&
               p.y >= c2d_mind(a.y, b.y) && p.y <= c2d_maxd(a.y, b.y);
        break;
    }
    case C2D_SHAPE_CAPSULE: {
        c2d_vec2 wv[2], wn[2];
        c2d_core k = c2d_world_core(shape, wv, wn);
        if (in_segment_slab(&k, p)) {
            /* Beside a capsule's core: the distance square to it, which (unlike the distance to the
             * projected point) does not carry the rounding along a long core. */
            *out = fabs(v2_dot(v2_sub(p, wv[0]), wn[0])) <= shape->radius;
            break;
        }
        *out = v2_within(v2_sub(p, c2d_closest_on_segment(wv[0], wv[1], p)), shape->radius);
        break;
    }
    default: /* circle */
        *out = v2_within(v2_sub(p, shape->pos), shape->radius);
        break;
    }
    return C2D_OK;
}

c2d_status c2d_convex_closest_point(const c2d_shape *shape, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance)
{
    c2d_vec2 q;
    double sd;
    c2d_xf x = c2d_shape_xf(shape);
    if (shape->count >= 3) {
        /* In the polygon's own frame. Inside: out through the nearest edge line. Outside: the nearest
         * point of the nearest edge. */
        c2d_core_buf buf;
        c2d_core k = c2d_local_core(shape, &buf);
        c2d_vec2 l = c2d_xf_local(x, p);
        int e;
        double s = polygon_separation(&k, l, &e);
        if (s <= 0) {
            q = v2_mad(l, -s, k.n[e]);
            sd = s;
        } else {
            double best = INFINITY;
            q = k.v[0];
            for (int i = 0; i < k.count; i++) {
                c2d_vec2 c = c2d_closest_on_segment(k.v[i], k.v[i + 1 == k.count ? 0 : i + 1], l);
                double d2 = v2_len2(v2_sub(l, c));
                if (d2 < best) {
                    best = d2;
                    q = c;
                }
            }
            sd = v2_len_safe(v2_sub(l, q));
        }
        q = c2d_xf_apply(x, q);
    } else if (shape->count == 2) {
        /* A segment core: where p lies along it decides, measured once along its unit direction
         * (from its exact normal, so nothing underflows for a core a few denormals long). Beside
         * the core the way out is exactly square to it; beyond an end it is away from that end,
         * unless that direction runs back along the core (p within rounding of the end's line), where
         * the square one is right again. A core whose placed ends coincide is a point: any way. */
        c2d_vec2 wv[2], wn[2];
        c2d_world_core(shape, wv, wn);
        c2d_vec2 a = wv[0], b = wv[1], n = wn[0], along = v2(-n.y, n.x);
        double at = v2_dot(v2_sub(p, a), along), len = v2_dot(v2_sub(b, a), along);
        c2d_vec2 c = at <= 0 ? a : (at >= len ? b : v2_mad(a, at, along)), off = v2_sub(p, c);
        double d = v2_len_safe(off), across = v2_dot(off, n);
        c2d_vec2 dir = v2_normalize_or(off, n);
        int beside = at > 0 && at < len;
        int back = (c.x != a.x || c.y != a.y || v2_dot(off, along) > 0) &&
                   (c.x != b.x || c.y != b.y || v2_dot(off, along) < 0);
        if (beside || (len > 0 && back)) {
            dir = across >= 0 ? n : v2_neg(n);
            d = fabs(across);
        }
        q = v2_mad(c, shape->radius, dir);
        sd = d - shape->radius;
    } else {
        /* A circle: on the centre every way out is the same distance; take up. */
        c2d_vec2 off = v2_sub(p, shape->pos);
        q = v2_mad(shape->pos, shape->radius, v2_normalize_or(off, v2(0, 1)));
        sd = v2_len_safe(off) - shape->radius;
    }
    if (out_point)
        *out_point = q;
    if (out_distance)
        *out_distance = sd;
    return C2D_OK;
}

/* Ray o + s u (u a unit vector, s a distance) against a circle (c, r): the smallest s >= 0 on entry,
 * or -1; *n gets the surface normal there. o must be outside. Solved from the point of closest
 * approach (Haines et al., "Precision improvements for ray/sphere intersection"): the offset p of the
 * centre from the ray is exact to rounding even far away, where b*b - |m|^2 + r^2 would cancel. */
static double ray_circle(c2d_vec2 o, c2d_vec2 u, c2d_vec2 c, double r, c2d_vec2 *n)
{
    c2d_vec2 m = v2_sub(o, c);
    double b = v2_dot(m, u);
    if (b >= 0)
        return -1; /* moving away (or tangent from outside) */
    c2d_vec2 p = v2_mad(m, -b, u);
    /* Far away, b * u rounds by more than a small circle's size and leaves p a part along u; taken
     * out, the normal below always faces the ray. */
    p = v2_mad(p, -v2_dot(p, u), u);
    /* Within the radius by lengths where squares underflow (a circle of radius 5e-324 is missed by a
     * ray 1e-204 away, whose square offset is 0 too). */
    if (!v2_within(p, r))
        return -1;
    double h2 = r * r - v2_dot(p, p);
    double h = h2 > 0 ? sqrt(h2) : 0, s = -b - h;
    /* Hit point minus centre is p - h u: perpendicular part plus a part against the ray, so the
     * normal always faces the ray. */
    *n = v2_normalize_or(v2_mad(p, -h, u), v2_neg(u));
    return s >= 0 ? s : 0;
}

/* Ray o + s u against the segment p-q, from the front side of normal n only (n.u < 0). */
static double ray_segment(c2d_vec2 o, c2d_vec2 u, c2d_vec2 p, c2d_vec2 q, c2d_vec2 n)
{
    double den = v2_dot(n, u);
    if (!(den < 0))
        return -1;
    double s = v2_dot(n, v2_sub(p, o)) / den;
    if (s < 0)
        return -1;
    /* Along the edge's unit direction (square to n): with q - p itself, a core edge shorter than
     * about 1e-154 has products that underflow to 0 and would accept a hit anywhere on its line. */
    c2d_vec2 hit = v2_mad(o, s, u), t = v2(-n.y, n.x);
    double w = v2_dot(v2_sub(hit, p), t);
    if (w < 0 || w > v2_dot(v2_sub(q, p), t))
        return -1;
    return s;
}

/* Where the line through o along u crosses the edge a-b whose ends it has on opposite sides, with fa
 * and fb their (nonzero or zero) offsets from the line, u x (end - o): the point of the edge where
 * that offset, linear along it, vanishes. It lies on the edge however the offsets were rounded. */
static c2d_vec2 edge_crossing(c2d_vec2 a, c2d_vec2 b, double fa, double fb)
{
    double w = fa / (fa - fb);
    w = w > 0 ? (w < 1 ? w : 1) : 0; /* NaN (both offsets rounded to 0) too goes to an end */
    return v2_lerp(a, b, w);
}

/* The offset of p from the ray's line, u x (p - o), as 0 when within tol of it (see ray_polygon). */
static double side_of(c2d_vec2 o, c2d_vec2 u, c2d_vec2 p, double tol)
{
    double f = u.x * (p.y - o.y) - u.y * (p.x - o.x);
    return fabs(f) <= tol ? 0.0 : f;
}

/* No vertex left of the ray's line, or every one: a miss, unless the line touches the polygon at
 * vertices on it (from the right, or along an edge): then the first of them ahead, with the normal of
 * the edge facing the ray most among those at the vertices touched first (within rounding of each
 * other along the ray; all of them for a polygon smaller than that rounding). */
static double ray_polygon_touch(const c2d_vec2 *v, const c2d_vec2 *nrm, int n, c2d_vec2 o, c2d_vec2 u, double tol,
                                int *edge)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (side_of(o, u, v[i], tol) != 0)
            continue;
        double s = v2_dot(v2_sub(v[i], o), u);
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
    }
    if (hi < 0)
        return -1;
    if (lo <= 0)
        return 0;
    double best = INFINITY;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        if (side_of(o, u, v[i], tol) != 0 || v2_dot(v2_sub(v[i], o), u) > lo + tol)
            continue;
        int k = v2_dot(nrm[j], u) < v2_dot(nrm[i], u) ? j : i;
        if (v2_dot(nrm[k], u) < best) {
            best = v2_dot(nrm[k], u);
            *edge = k;
        }
    }
    return lo;
}


/* The ray o + s u (u a unit vector) against a convex polygon core of radius 0, from the side of the
 * ray's line that each vertex lies on, each decided once: the line enters the polygon across the edge
 * that goes from a vertex left of it (u x (v - o) > 0) to one that is not, and leaves across the edge
 * that comes back. Every decision follows from those n signs, so rounding can move a crossing along
 * its edge but never make the answers contradict each other (a hit behind the origin, an entry after
 * the exit, an inside start that the clipping calls a miss), and no division by the tiny projection of
 * a nearly parallel edge is needed. Returns the distance s to the first point of the polygon on the
 * ray (0 when the origin is inside or on it), or -1; *edge gets the entering edge (-1 for an inside
 * start). A vertex whose offset from the line is within the rounding of offsets, tol, counts as on the
 * line: a ray along an edge then meets it at the edge's first end, not wherever rounding put the
 * crossing, and a ray aimed at a polygon smaller than that rounding (far away) touches it. Up to 64
 * vertices the signs go into a bit mask, so that finding the two edges costs no branch per vertex. */
static double ray_polygon(const c2d_vec2 *v, const c2d_vec2 *nrm, int n, c2d_vec2 o, c2d_vec2 u, double tol,
                          int *edge)
{
    double f[64];
    int enter = -1, leave = -1;
    *edge = -1;
    if (n <= 64) {
        uint64_t left = 0, right = 0;
        for (int i = 0; i < n; i++) {
            /* Unsnapped here: an offset within tol is neither left nor right (snapped where used). */
            f[i] = u.x * (v[i].y - o.y) - u.y * (v[i].x - o.x);
            left |= (uint64_t)(f[i] > tol) << i;
            right |= (uint64_t)(f[i] < -tol) << i;
        }
        /* next bit i: whether vertex i + 1 (mod n) is left; an edge i enters where i is and i + 1 is not. */
        uint64_t next = left >> 1 | (left & 1) << (n - 1);
        uint64_t in = left & ~next, out = ~left & next;
        if (!in) {
            /* Every vertex strictly on one side (the usual miss), or some on the line. */
            uint64_t all = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
            if (left == all || right == all)
                return -1;
            return ray_polygon_touch(v, nrm, n, o, u, tol, edge);
        }
        enter = c2d_lowest_bit(in);
        leave = c2d_lowest_bit(out);
    } else {
        /* A long polygon: the same, one vertex at a time. */
        double fj = side_of(o, u, v[n - 1], tol);
        for (int i = 0; i < n; i++) {
            double fi = side_of(o, u, v[i], tol);
            if (fj > 0 && !(fi > 0))
                enter = i == 0 ? n - 1 : i - 1;
            else if (!(fj > 0) && fi > 0)
                leave = i == 0 ? n - 1 : i - 1;
            fj = fi;
        }
        if (enter < 0)
            return ray_polygon_touch(v, nrm, n, o, u, tol, edge);
    }
#define C2D_F(i) (n <= 64 ? (fabs(f[i]) <= tol ? 0.0 : f[i]) : side_of(o, u, v[i], tol))
    int e2 = enter + 1 == n ? 0 : enter + 1;
    double s_in = v2_dot(v2_sub(edge_crossing(v[enter], v[e2], C2D_F(enter), C2D_F(e2)), o), u);
    if (s_in > 0) {
        *edge = enter;
        return s_in;
    }
    /* The entry is behind (or at) the origin: inside when the exit is not. */
    int l2 = leave + 1 == n ? 0 : leave + 1;
    double s_out = v2_dot(v2_sub(edge_crossing(v[leave], v[l2], C2D_F(leave), C2D_F(l2)), o), u);
#undef C2D_F
    return s_out >= 0 ? 0 : -1;
}

/* Whether p is on the ray's line at or ahead of o, given that it is on that line: along the axis in
 * which the direction moves, where the comparison of coordinates is exact. */
static int on_line_ahead(c2d_vec2 o, c2d_vec2 d, c2d_vec2 p)
{
    if (d.x != 0)
        return d.x > 0 ? p.x >= o.x : p.x <= o.x;
    return d.y > 0 ? p.y >= o.y : p.y <= o.y;
}

/* The ray o + t d against the segment's placed ends a, b. Every decision (does the ray's line pass
 * left of, right of or through each end; is the crossing ahead of the origin; are they collinear) is
 * an exact sign of the inputs as given (predicates.c), so a ray through an end point hits exactly
 * there and one that passes an end by any margin misses. Only the crossing point of a ray through
 * the inside of the segment is rounded, and it is kept on the segment. Returns the distance s along
 * the unit direction u, or -1 for a miss; *p receives the point (an end point exactly, or the origin
 * when the ray starts on the segment) and *n the segment's normal facing the ray (minus u for a ray
 * along the segment). */
static double ray_segment_exact(const c2d_core *k, c2d_vec2 o, c2d_vec2 d, c2d_vec2 u, c2d_vec2 *p, c2d_vec2 *n)
{
    c2d_vec2 a = k->v[0], b = k->v[1];
    int oa = c2d_orient_dir(o, d, a), ob = c2d_orient_dir(o, d, b);
    if (oa == ob && oa != 0)
        return -1; /* both ends strictly on one side of the ray's line */
    if (oa == 0 && ob == 0) {
        /* On the ray's line: the first end ahead, or the origin when it lies between the ends. */
        int ahead_a = on_line_ahead(o, d, a), ahead_b = on_line_ahead(o, d, b);
        if (!ahead_a && !ahead_b)
            return -1;
        *n = v2_neg(u);
        if (ahead_a != ahead_b) {
            *p = o;
            return 0;
        }
        *p = on_line_ahead(a, d, b) ? a : b; /* b ahead of a: a comes first */
    } else {
        /* The ray's line meets the segment at one point. The sign of d x (b - a) is known from the
         * ends' sides, and t (d x (b - a)) = (a - o) x (b - o), so t >= 0 is a sign test too. */
        int cross = ob != 0 ? ob : -oa, at = c2d_orient(o, a, b);
        if (at * cross < 0)
            return -1;
        *n = cross > 0 ? k->n[1] : k->n[0];
        if (at == 0) {
            *p = o; /* the origin is on the segment */
            return 0;
        }
        if (oa == 0 || ob == 0) {
            *p = oa == 0 ? a : b;
        } else {
            *p = edge_crossing(a, b, v2_cross(u, v2_sub(a, o)), v2_cross(u, v2_sub(b, o)));
        }
    }
    /* A ray nearly along the segment crosses its line at a place that rounding moves far along it.
     * The crossing is not behind the origin, so if the rounded one is, the segment runs past the
     * origin within rounding of the ray: the origin is the hit. */
    double sd = v2_dot(v2_sub(*p, o), u);
    if (sd > 0)
        return sd;
    *p = o;
    return 0;
}

/* The unit direction and length of a direction whose squared length is not a normal number: kept
 * out of line, so that the usual case has nothing to save around calls. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static c2d_vec2 ray_unit_far(c2d_vec2 direction, double *len)
{
    *len = v2_len_safe(direction);
    return v2_normalize_or(direction, v2(1, 0));
}

/* The unit direction and length of a direction whose squared length dd is a normal number (the usual
 * case): one square root and one division. */
static inline int ray_unit_near(c2d_vec2 direction, double dd, c2d_vec2 *u, double *len)
{
    if (!(dd > 1e-290 && dd < 1e290))
        return 0;
    *len = sqrt(dd);
    double inv = 1 / *len;
    *u = v2(direction.x * inv, direction.y * inv);
    return 1;
}

/* With SSE2, raycast_small finds the offsets of two vertices at once, by the same operations in the
 * same order as one at a time (so with the same results), and their sides as two bits of a mask. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define C2D_RAY_SSE2 1
#include <emmintrin.h>
#endif

/* c2d_raycast against a rectangle or a polygon of at most 8 vertices: ray_polygon, every number and
 * every decision the same, without a loop whose length the branch predictor would have to guess. In
 * the shape's own frame, where its core is stored, only the ray is carried. Offsets u x (v - o) there
 * are rounded by about 3 ulps of |v - o|, and u itself by one. The offsets of v[0..7] are computed
 * whatever n: a polygon keeps its n normals after its n vertices (a triangle two zero entries more),
 * so for 3 <= n <= 8 its data has 8 entries, and the offsets beyond n are masked off. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static c2d_status raycast_small(const c2d_shape *shape, double ox, double oy, double dx, double dy, double max_t,
                                c2d_ray_hit *out)
{
    /* Each number on its own (see C2D_SCALAR): the coordinates of the origin and the direction arrive
     * in argument registers, c and s were just written one by one by c2d_shape_set_transform. */
    double c = shape->c, sn = shape->s;
    C2D_SCALAR(ox);
    C2D_SCALAR(oy);
    C2D_SCALAR(dx);
    C2D_SCALAR(dy);
    C2D_SCALAR(c);
    C2D_SCALAR(sn);
    c2d_vec2 origin = v2(ox, oy), direction = v2(dx, dy);
    double dd = v2_len2(direction), len;
    c2d_vec2 u;
    if (!ray_unit_near(direction, dd, &u, &len)) {
        if (dx == 0 && dy == 0)
            return C2D_ERR_DEGENERATE; /* tested only here: a normal squared length is not 0 */
        u = ray_unit_far(direction, &len);
    }
    c2d_xf x;
    x.p = shape->pos;
    x.c = c;
    x.s = sn;
    c2d_vec2 o = c2d_xf_local(x, origin), ul = c2d_unrotate(x, u);
    double tol = 4 * DBL_EPSILON * (fabs(o.x) + fabs(o.y) + 2 * shape->reach);
    double f[8];
    unsigned left;
    int n;
    const c2d_vec2 *v, *nrm;
    c2d_vec2 rv[4];
    if (shape->type == C2D_SHAPE_RECT) {
        double hx = shape->data[0].x, hy = shape->data[0].y;
        rv[0] = v2(-hx, -hy);
        rv[1] = v2(hx, -hy);
        rv[2] = v2(hx, hy);
        rv[3] = v2(-hx, hy);
        v = rv;
        n = 4;
        nrm = c2d_rect_normals;
        /* The four offsets from two differences along each axis. */
        double xl = -hx - o.x, xr = hx - o.x, yb = -hy - o.y, yt = hy - o.y;
        f[0] = ul.x * yb - ul.y * xl;
        f[1] = ul.x * yb - ul.y * xr;
        f[2] = ul.x * yt - ul.y * xr;
        f[3] = ul.x * yt - ul.y * xl;
        f[4] = f[5] = f[6] = f[7] = 0; /* read, and masked off, with the polygon's */
        left = (unsigned)(f[0] > tol) | (unsigned)(f[1] > tol) << 1 | (unsigned)(f[2] > tol) << 2 |
               (unsigned)(f[3] > tol) << 3;
    } else {
        n = shape->count;
        v = shape->data;
        nrm = v + n;
#if defined(C2D_RAY_SSE2)
        __m128d O = _mm_set_pd(o.y, o.x), UX = _mm_set1_pd(ul.x), UY = _mm_set1_pd(ul.y);
        __m128d T = _mm_set1_pd(tol);
#define C2D_PAIR(i)                                                                                        \
    do {                                                                                                   \
        __m128d a = _mm_sub_pd(_mm_loadu_pd(&v[i].x), O), b = _mm_sub_pd(_mm_loadu_pd(&v[i + 1].x), O);    \
        __m128d fi = _mm_sub_pd(_mm_mul_pd(UX, _mm_unpackhi_pd(a, b)), _mm_mul_pd(UY, _mm_unpacklo_pd(a, b))); \
        _mm_storeu_pd(&f[i], fi);                                                                          \
        left |= (unsigned)_mm_movemask_pd(_mm_cmpgt_pd(fi, T)) << i;                                       \
    } while (0)
#else
#define C2D_ONE(i)                                                                                         \
    do {                                                                                                   \
        f[i] = ul.x * (v[i].y - o.y) - ul.y * (v[i].x - o.x);                                              \
        left |= (unsigned)(f[i] > tol) << (i);                                                             \
    } while (0)
#define C2D_PAIR(i)                                                                                        \
    do {                                                                                                   \
        C2D_ONE(i);                                                                                        \
        C2D_ONE(i + 1);                                                                                    \
    } while (0)
#endif
        left = 0;
        C2D_PAIR(0);
        C2D_PAIR(2);
        C2D_PAIR(4);
        C2D_PAIR(6);
#undef C2D_PAIR
#undef C2D_ONE
        left &= (1u << n) - 1;
    }
    /* As in ray_polygon: edge i enters where vertex i is left and i + 1 is not. */
    unsigned all = (1u << n) - 1;
    unsigned next = left >> 1 | (left & 1) << (n - 1);
    unsigned in = left & ~next, outb = ~left & next;
    double best;
    int edge = -1;
    if (!in) {
        /* Which vertices are right of the line matters only here, where no edge enters: the usual
         * miss (all of them left, or all right), or a line through vertices. */
        unsigned right = 0;
#if defined(C2D_RAY_SSE2)
        __m128d NT = _mm_set1_pd(-tol);
        right = (unsigned)_mm_movemask_pd(_mm_cmplt_pd(_mm_loadu_pd(&f[0]), NT)) |
                (unsigned)_mm_movemask_pd(_mm_cmplt_pd(_mm_loadu_pd(&f[2]), NT)) << 2 |
                (unsigned)_mm_movemask_pd(_mm_cmplt_pd(_mm_loadu_pd(&f[4]), NT)) << 4 |
                (unsigned)_mm_movemask_pd(_mm_cmplt_pd(_mm_loadu_pd(&f[6]), NT)) << 6;
#else
        for (int i = 0; i < 8; i++)
            right |= (unsigned)(f[i] < -tol) << i;
#endif
        right &= all;
        if (left == all || right == all)
            best = -1;
        else
            best = ray_polygon_touch(v, nrm, n, o, ul, tol, &edge);
    } else {
        int enter = c2d_lowest_bit(in);
#define C2D_F(i) (fabs(f[i]) <= tol ? 0.0 : f[i])
        int e2 = (enter + 1) & -(enter + 1 < n); /* enter + 1 mod n, without a branch */
        double s_in = v2_dot(v2_sub(edge_crossing(v[enter], v[e2], C2D_F(enter), C2D_F(e2)), o), ul);
        if (s_in > 0) {
            edge = enter;
            best = s_in;
        } else {
            /* The entry is behind (or at) the origin: inside when the exit is not. */
            int leave = c2d_lowest_bit(outb);
            int l2 = (leave + 1) & -(leave + 1 < n);
            double s_out = v2_dot(v2_sub(edge_crossing(v[leave], v[l2], C2D_F(leave), C2D_F(l2)), o), ul);
            best = s_out >= 0 ? 0 : -1;
        }
#undef C2D_F
    }
    c2d_ray_hit h;
    memset(&h, 0, sizeof h);
    /* A hit so far away that t leaves double range is no hit that can be reported. */
    double t = best / len;
    if (best >= 0 && isfinite(t) && t <= max_t) {
        h.hit = 1;
        h.t = t > 0 ? t : 0;
        if (best > 0) {
            h.point = v2_mad(origin, best, u);
            h.normal = edge >= 0 ? c2d_rotate(x, nrm[edge]) : v2_neg(u);
        } else {
            h.point = origin;
            h.normal = v2_neg(u);
        }
    }
    *out = h;
    return C2D_OK;
}

/* c2d_raycast for every shape, its arguments checked. Out of line, so that the paths of raycast_small
 * do not pay for its frame. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static c2d_status raycast_general(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                  c2d_ray_hit *out)
{
    /* Everything below works in distance s along the unit direction u, so a huge or tiny direction
     * vector changes nothing but the final t = s / |direction|. One square root and one division
     * where the squared length is a normal number (the usual case). */
    double dd = v2_len2(direction), len;
    c2d_vec2 u;
    if (!ray_unit_near(direction, dd, &u, &len))
        u = ray_unit_far(direction, &len);
    c2d_ray_hit h;
    memset(&h, 0, sizeof h);
    double best = -1;
    c2d_vec2 normal = v2_neg(u), point = origin;
    int exact_point = 0;
    if (shape->count >= 3) {
        /* In the polygon's own frame, where its core is stored: only the ray is carried. Offsets
         * u x (v - o) there are rounded by about 3 ulps of |v - o|, and u itself by one. */
        c2d_xf x = c2d_shape_xf(shape);
        c2d_core_buf buf;
        c2d_core k = c2d_local_core(shape, &buf);
        c2d_vec2 o = c2d_xf_local(x, origin);
        double tol = 4 * DBL_EPSILON * (fabs(o.x) + fabs(o.y) + 2 * shape->reach);
        int edge = -1;
        best = ray_polygon(k.v, k.n, k.count, o, c2d_unrotate(x, u), tol, &edge);
        if (edge >= 0)
            normal = c2d_rotate(x, k.n[edge]);
    } else {
        c2d_vec2 wv[2], wn[2];
        c2d_core k = c2d_world_core(shape, wv, wn);
        int inside = 0;
        if (shape->type == C2D_SHAPE_SEGMENT) {
            best = ray_segment_exact(&k, origin, direction, u, &point, &normal);
            exact_point = 1;
        } else if (c2d_convex_contains_point(shape, origin, &inside), inside) {
            best = 0;
        } else {
            /* Rounded core: the boundary is the core's edges pushed out by r, joined by corner arcs. */
            double r = shape->radius;
            best = INFINITY;
            for (int i = 0; i < k.count; i++) {
                c2d_vec2 n;
                double s = ray_circle(origin, u, wv[i], r, &n);
                if (s >= 0 && s < best) {
                    best = s;
                    normal = n;
                }
            }
            for (int i = 0; i < c2d_core_edges(&k); i++) {
                c2d_vec2 n = wn[i];
                c2d_vec2 p = v2_mad(wv[i], r, n), q = v2_mad(wv[1 - i], r, n);
                double s = ray_segment(origin, u, p, q, n);
                if (s >= 0 && s < best) {
                    best = s;
                    normal = n;
                }
            }
        }
    }
    /* A hit so far away that t leaves double range is no hit that can be reported. With the point
     * known exactly (segments), t comes through the direction itself where its square is a normal
     * number, so a point at a whole multiple of it gets that multiple exactly. */
    double t = exact_point && dd > 1e-290 && dd < 1e290 ? v2_dot(v2_sub(point, origin), direction) / dd : best / len;
    if (best >= 0 && isfinite(t) && t <= max_t) {
        h.hit = 1;
        h.t = t > 0 ? t : 0;
        h.point = exact_point ? point : (best > 0 ? v2_mad(origin, best, u) : origin);
        h.normal = best > 0 || exact_point ? normal : v2_neg(u);
    }
    *out = h;
    return C2D_OK;
}

c2d_status c2d_convex_raycast(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                              c2d_ray_hit *out)
{
    if ((unsigned)(shape->count - 3) <= 5)
        return raycast_small(shape, origin.x, origin.y, direction.x, direction.y, max_t, out);
    if (direction.x == 0 && direction.y == 0)
        return C2D_ERR_DEGENERATE;
    return raycast_general(shape, origin, direction, max_t, out);
}
